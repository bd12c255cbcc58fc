"""client message ids on actions and chat

A client's message id is stored with the action or chat line it caused, so that a resend
after a crash (committed, but the answer lost) is answered and never applied twice.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 17:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("client_id", sa.String(length=64), nullable=True))
    with op.batch_alter_table("chat", schema=None) as batch_op:
        batch_op.add_column(sa.Column("client_id", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("sender", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat", schema=None) as batch_op:
        batch_op.drop_column("sender")
        batch_op.drop_column("client_id")
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("client_id")
