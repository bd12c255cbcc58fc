"""finished matches' exports and replays, built once; the server's signing key

``match_builds`` keeps each finished match's export and replay gzipped, so that they are
built once rather than on every request, and every node serves the same bytes.
``server_keys`` holds the Ed25519 key exports are signed with, made on first use.

Revision ID: 0006_match_builds
Revises: 0005
Create Date: 2026-12-01 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_match_builds"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_builds",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("etag", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "kind"),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("algorithm", sa.String(length=16), nullable=False),
        sa.Column("private_key", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_table("match_builds")
