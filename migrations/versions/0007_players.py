"""players: an identity per browser without accounts, the seats it took, one-time codes that move
it to another browser, and what finished matches left behind (history, stats, ratings)

Revision ID: 0007_players
Revises: 0006_match_builds
Create Date: 2026-12-02 01:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_players"
down_revision = "0006_match_builds"
branch_labels = None
depends_on = None

_NOW = sa.func.now()


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=_NOW, nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), server_default=_NOW, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "player_keys",
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=_NOW, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("secret_hash"),
    )
    op.create_index("ix_player_keys_player_id", "player_keys", ["player_id"])
    op.create_table(
        "player_seats",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("room_code", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=_NOW, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_player_seats_player_id", "player_seats", ["player_id"])
    op.create_table(
        "player_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    op.create_index("ix_player_codes_player_id", "player_codes", ["player_id"])
    op.create_table(
        "settled_matches",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("edition", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=True),
        sa.Column("settled_at", sa.DateTime(timezone=True), server_default=_NOW, nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id"),
    )
    count = {"nullable": False, "server_default": "0"}
    op.create_table(
        "player_matches",
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("edition", sa.String(length=16), nullable=False),
        sa.Column("settled", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("counted", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=True),
        sa.Column("placement", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), server_default=sa.false(), nullable=False),
        *(sa.Column(name, sa.Integer(), **count) for name in (
            "points", "rounds", "rounds_won", "round_points", "catches_made", "catches_suffered", "challenges_won")),
        *(sa.Column(name, sa.Double(), nullable=True) for name in ("mu_before", "sigma_before", "mu_after",
                                                                 "sigma_after")),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "match_id"),
    )
    op.create_index("ix_player_matches_match_id", "player_matches", ["match_id"])
    op.create_index("ix_player_matches_edition", "player_matches", ["edition"])
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("edition", sa.String(length=16), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=_NOW, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "edition"),
    )
    op.create_index("ix_player_ratings_ordinal", "player_ratings", ["ordinal"])


def downgrade() -> None:
    op.drop_index("ix_player_ratings_ordinal", table_name="player_ratings")
    op.drop_table("player_ratings")
    op.drop_index("ix_player_matches_edition", table_name="player_matches")
    op.drop_index("ix_player_matches_match_id", table_name="player_matches")
    op.drop_table("player_matches")
    op.drop_table("settled_matches")
    op.drop_index("ix_player_codes_player_id", table_name="player_codes")
    op.drop_table("player_codes")
    op.drop_index("ix_player_seats_player_id", table_name="player_seats")
    op.drop_table("player_seats")
    op.drop_index("ix_player_keys_player_id", table_name="player_keys")
    op.drop_table("player_keys")
    op.drop_table("players")
