"""a bot seat's level (easy / normal / hard)

Each bot seat plays at the level the host chose when adding it; the seat row keeps it so a room
rebuilt after a restart (or on another node) plays its bots as before.  Null for people's seats,
and for bot seats stored before levels existed (those play at the default level, normal, as
every bot did then).

Revision ID: 0009_bot_levels
Revises: 0008_blitz_deadline
Create Date: 2026-12-06 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_bot_levels"
down_revision = "0008_blitz_deadline"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("bot_level")
