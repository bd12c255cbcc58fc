"""round commitments and secrets

Each round is dealt from a secret of its own: the SHA-256 published at the deal is stored
with the round, and so is the secret, which a restart needs to deal the round again and
which is revealed when the round ends.  Rounds stored before this have neither: they were
dealt from the match seed, and still are when they are replayed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 18:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("secret", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("commitment")
        batch_op.drop_column("secret")
