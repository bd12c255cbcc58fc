"""the leaderboard kept as matches settle: player_standings and rated_opponents

Each (player, edition) with a settled match gets a standing row — their counted matches'
figures added up, their rating, the different players met in rated matches and whether the
leaderboard ranks them — kept up to date when a match settles (app/persistence/board.py), so the
leaderboard is read a page at a time from an index instead of joining every player match on
every request.  The pairs of players who met in a rated match are kept once each
(``rated_opponents``), so that a player's different opponents are counted without a scan.

Both are filled here from the stored history.  Whether a row is ranked depends on the
settings (``UNO_LEADERBOARD_MIN_MATCHES``, ``UNO_LEADERBOARD_MIN_OPPONENTS``, read here from
the environment); the server sets the flags again from its own settings when it starts.
And an index for a player's history, newest first.

Revision ID: 0010_player_standings
Revises: 0009_bot_levels
Create Date: 2026-12-06 21:30:00
"""

from __future__ import annotations

import os
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0010_player_standings"
down_revision = "0009_bot_levels"
branch_labels = None
depends_on = None

_FIGURES = ("rounds", "rounds_won", "round_points", "catches_made", "catches_suffered", "challenges_won")


def _setting(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def upgrade() -> None:
    count = {"nullable": False, "server_default": "0"}
    op.create_table(
        "player_standings",
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("edition", sa.String(length=16), nullable=False),
        sa.Column("ranked", sa.Boolean(), server_default=sa.false(), nullable=False),
        *(sa.Column(name, sa.Double(), nullable=True) for name in ("mu", "sigma", "ordinal")),
        *(
            sa.Column(name, sa.Integer(), **count)
            for name in ("matches", "opponents", "counted", "wins", *_FIGURES, "streak", "longest_streak")
        ),
        sa.Column("latest_match", sa.String(length=32), nullable=True),
        sa.Column("latest_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "edition"),
    )
    op.create_index(
        "ix_player_standings_board", "player_standings", ["edition", "ranked", "ordinal", "player_id"]
    )
    op.create_table(
        "rated_opponents",
        sa.Column("edition", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=16), nullable=False),
        sa.Column("opponent_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["opponent_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("edition", "player_id", "opponent_id"),
    )
    op.create_index("ix_rated_opponents_opponent_id", "rated_opponents", ["opponent_id"])
    op.create_index("ix_player_matches_history", "player_matches", ["player_id", "finished_at"])
    _fill(op.get_bind())


def _fill(conn: Any) -> None:
    """The standings of the history stored so far (the same figures board.py adds up match by match)."""
    conn.execute(
        sa.text(
            "INSERT INTO rated_opponents (edition, player_id, opponent_id) "
            "SELECT DISTINCT a.edition, a.player_id, b.player_id FROM player_matches a "
            "JOIN player_matches b ON b.match_id = a.match_id AND b.player_id <> a.player_id "
            "WHERE a.mu_after IS NOT NULL AND b.mu_after IS NOT NULL"
        )
    )
    sums = ", ".join(f"coalesce(sum(CASE WHEN counted THEN {f} ELSE 0 END), 0)" for f in _FIGURES)
    conn.execute(
        sa.text(
            f"INSERT INTO player_standings (player_id, edition, counted, wins, {', '.join(_FIGURES)}) "
            f"SELECT player_id, edition, sum(CASE WHEN counted THEN 1 ELSE 0 END), "
            f"sum(CASE WHEN counted AND won THEN 1 ELSE 0 END), {sums} "
            f"FROM player_matches WHERE settled GROUP BY player_id, edition"
        )
    )
    theirs = "{t}.player_id = player_standings.player_id AND {t}.edition = player_standings.edition"
    rating = ", ".join(
        f"{c} = (SELECT r.{c} FROM player_ratings r WHERE {theirs.format(t='r')})"
        for c in ("mu", "sigma", "ordinal")
    )
    conn.execute(
        sa.text(
            f"UPDATE player_standings SET {rating}, "
            f"matches = coalesce((SELECT r.matches FROM player_ratings r WHERE {theirs.format(t='r')}), 0), "
            f"opponents = (SELECT count(*) FROM rated_opponents o WHERE {theirs.format(t='o')})"
        )
    )
    conn.execute(
        sa.text(
            "UPDATE player_standings SET ranked = (ordinal IS NOT NULL AND matches >= :m AND opponents >= :o)"
        ),
        {"m": _setting("UNO_LEADERBOARD_MIN_MATCHES", 3), "o": _setting("UNO_LEADERBOARD_MIN_OPPONENTS", 2)},
    )
    # Streaks go by the order the matches ended; the newest settled match is the podium's.
    rows = conn.execute(
        sa.text(
            "SELECT player_id, edition, match_id, counted, won, finished_at FROM player_matches "
            "WHERE settled ORDER BY player_id, edition, finished_at, match_id"
        )
    ).all()
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        got = out.setdefault(
            (row.player_id, row.edition),
            {
                "streak": 0,
                "longest_streak": 0,
                "latest_match": None,
                "latest_at": None,
                "p": row.player_id,
                "e": row.edition,
            },
        )
        if row.counted:
            got["streak"] = got["streak"] + 1 if row.won else 0
            got["longest_streak"] = max(got["longest_streak"], got["streak"])
        if row.finished_at is not None:
            got["latest_match"], got["latest_at"] = row.match_id, row.finished_at
    if out:
        conn.execute(
            sa.text(
                "UPDATE player_standings SET streak = :streak, longest_streak = :longest_streak, "
                "latest_match = :latest_match, latest_at = :latest_at WHERE player_id = :p AND edition = :e"
            ),
            list(out.values()),
        )
    if conn.dialect.name == "postgresql":
        # Analysed, so that the planner reads the leaderboard from its index rather than the whole
        # new table.  Inside the migration's transaction, not VACUUM ANALYZE outside it: leaving
        # the transaction would let go of env.py's lock before the version row is written, and a
        # second node starting at the same moment would run this migration again.  The tables are
        # vacuumed once the migrations are committed (migrations/env.py, BULK_FILLED): index-only
        # scans need the visibility map that VACUUM fills.
        op.execute("ANALYZE player_standings")
        op.execute("ANALYZE rated_opponents")

def downgrade() -> None:
    op.drop_index("ix_player_matches_history", table_name="player_matches")
    op.drop_index("ix_rated_opponents_opponent_id", table_name="rated_opponents")
    op.drop_table("rated_opponents")
    op.drop_index("ix_player_standings_board", table_name="player_standings")
    op.drop_table("player_standings")
