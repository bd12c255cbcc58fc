"""what a player page reads kept as matches settle: unrated matches by why, and the board's buckets

A player's standing said how many of their settled matches moved no rating of theirs, by why,
counted from their history lines on every page, and their place on the leaderboard by counting
the ranked rows ahead of theirs (and the edition's whole board for its size): reads that grew
with a player's history and with the board.  Now each standing row keeps its ``unrated`` counts
(a settlement adds its match), and ``leaderboard_buckets`` keeps how many ranked players of an
edition have an ordinal in each tenth of a point (app/persistence/board_places.py): a place is
the buckets above plus one bucket's range of the board's index.

Both are filled here from the history and standings stored so far.  The server works the buckets
out again from the ranked rows whenever it starts (after setting the ranked flags from its own
settings), so this fill only has to be right for the flags as they are.

Revision ID: 0012_standing_counts
Revises: 0011_seat_think_times
Create Date: 2026-12-07 04:00:00
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0012_standing_counts"
down_revision = "0011_seat_think_times"
branch_labels = None
depends_on = None

# As app/persistence/board_places.py defines them when this was written (a migration keeps its own copy).
STEPS_PER_POINT = 10


def _bucket_of(ordinal: float) -> int:
    b = math.floor(ordinal * STEPS_PER_POINT)
    while (b + 1) / STEPS_PER_POINT <= ordinal:
        b += 1
    while b / STEPS_PER_POINT > ordinal:
        b -= 1
    return b


def upgrade() -> None:
    with op.batch_alter_table("player_standings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("unrated", sa.JSON(), server_default=sa.text("'{}'"), nullable=False))
    op.create_table(
        "leaderboard_buckets",
        sa.Column("edition", sa.String(length=16), nullable=False),
        sa.Column("bucket", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("players", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("edition", "bucket"),
    )
    conn = op.get_bind()
    _fill_unrated(conn)
    _fill_buckets(conn)
    if conn.dialect.name == "postgresql":
        op.execute("ANALYZE leaderboard_buckets")
        # The rows given their counts above are new versions: until VACUUM marks their pages
        # all-visible again, a count over the board's index visits the table (migrations/env.py
        # vacuums what a migration asks for, once the migrations are committed).
        context = op.get_context()
        if context.config is not None:
            context.config.attributes.setdefault("vacuum", set()).add("player_standings")


def _fill_unrated(conn: Any) -> None:
    """Per standing, its settled lines that moved no rating, by why: the line's reason, else the match's."""
    rows = conn.execute(
        sa.text(
            "SELECT pm.player_id, pm.edition, pm.reason, sm.reason, count(*) FROM player_matches pm "
            "LEFT JOIN settled_matches sm ON sm.match_id = pm.match_id "
            "WHERE pm.settled AND pm.mu_after IS NULL "
            "GROUP BY pm.player_id, pm.edition, pm.reason, sm.reason"
        )
    ).all()
    out: dict[tuple[str, str], dict[str, int]] = {}
    for pid, edition, own, match, n in rows:
        why = own or match or "unrated"
        by_why = out.setdefault((pid, edition), {})
        by_why[why] = by_why.get(why, 0) + int(n)
    if out:
        conn.execute(
            sa.text(
                "UPDATE player_standings SET unrated = :u WHERE player_id = :p AND edition = :e"
            ).bindparams(sa.bindparam("u", type_=sa.JSON())),
            [{"u": u, "p": p, "e": e} for (p, e), u in sorted(out.items())],
        )


def _fill_buckets(conn: Any) -> None:
    """How many ranked players of each edition have an ordinal in each bucket."""
    ranked = conn.execute(
        sa.text("SELECT edition, ordinal FROM player_standings WHERE ranked AND ordinal IS NOT NULL")
    ).all()
    buckets = Counter((edition, _bucket_of(ordinal)) for edition, ordinal in ranked)
    if buckets:
        conn.execute(
            sa.text("INSERT INTO leaderboard_buckets (edition, bucket, players) VALUES (:e, :b, :n)"),
            [{"e": e, "b": b, "n": n} for (e, b), n in sorted(buckets.items())],
        )


def downgrade() -> None:
    op.drop_table("leaderboard_buckets")
    with op.batch_alter_table("player_standings", schema=None) as batch_op:
        batch_op.drop_column("unrated")
