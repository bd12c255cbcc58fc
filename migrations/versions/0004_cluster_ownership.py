"""room ownership for running several nodes

A ``nodes`` table of leases, renewed on the database's clock, and on each room the node that
owns it and a fencing epoch, raised whenever the room changes hands: a write for a room is
committed only by the owner of its current epoch.  Each action row keeps the epoch it was
written under.  One process on its own never fills them in.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(length=40), primary_key=True),
        sa.Column("address", sa.String(length=255), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("owner", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("epoch", sa.Integer(), nullable=False, server_default="0"))
        batch_op.create_index("ix_rooms_owner", ["owner"])
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("epoch", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("epoch")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_index("ix_rooms_owner")
        batch_op.drop_column("epoch")
        batch_op.drop_column("owner")
    op.drop_table("nodes")
