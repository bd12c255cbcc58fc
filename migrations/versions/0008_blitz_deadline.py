"""the match clock's deadline (HR-25 blitz)

A blitz match's clock runs from round 1's deal in wall-clock time, through breaks and restarts:
its deadline (epoch seconds) is stored with the match, so a room rebuilt after a restart keeps
it.  Null for every match without the blitz, and for every match stored before this.

Revision ID: 0008_blitz_deadline
Revises: 0007_players
Create Date: 2026-12-02 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_blitz_deadline"
down_revision = "0007_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("blitz_deadline", sa.Double(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("blitz_deadline")
