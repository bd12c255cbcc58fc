"""A ranked player's place on the leaderboard, and how many are ranked, without counting the board.

The leaderboard's order is the ranked standing rows by ordinal (mu - 3 sigma), then player id,
both descending (app/persistence/player_reads.py).  Counting the rows ahead of a player in that
index costs as many index entries as their rank: ~3 ms on Postgres for a place near the bottom of
12,000 ranked players, and as much again for the edition's whole count, on every player page.

So ``leaderboard_buckets`` keeps, per edition, how many ranked players have an ordinal in each
step of ``STEP`` (a histogram of the board), changed by the same transactions that change a
standing's ``ranked`` or ``ordinal`` (a settlement, a deletion, the start's re-ranking).  A place
is then the players of the buckets above the player's own (a few hundred small rows at most),
plus the rows ahead of theirs inside their own bucket (a range of the board's index no wider
than one step), plus one; the edition's ranked count is the sum of its buckets.

Why not a rank kept on every row: a rating that moves shifts the place of every player between
its old and new ordinal.  In bench/player_memory.py's history a rated line passes ~1,200 ranked
players on average (p90 3,300): a stored rank would rewrite thousands of rows a settlement.
Here a settlement changes at most two buckets per player it rates.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Float, Integer, String, bindparam, delete, func, insert, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .player_models import LeaderboardBucketRow, PlayerStandingRow

STEPS_PER_POINT = 10  # a bucket is a tenth of a point of ordinal wide
SETTLE_LOCK = 7305918  # Postgres: the board's writers (settlements, deletions, re-ranking) take turns

S, B = PlayerStandingRow, LeaderboardBucketRow
Key = tuple[str, int]  # (edition, bucket)


def low(bucket: int) -> float:
    """The smallest ordinal in ``bucket`` (compared as a double by both databases, as here)."""
    return bucket / STEPS_PER_POINT


def bucket_of(ordinal: float) -> int:
    """The bucket holding ``ordinal``: the one with ``low(b) <= ordinal < low(b + 1)``, exactly as
    the databases compare (``floor`` of a product alone can land a rounding off the edge)."""
    b = math.floor(ordinal * STEPS_PER_POINT)
    while low(b + 1) <= ordinal:
        b += 1
    while low(b) > ordinal:
        b -= 1
    return b


# Built once, their values bound when they run (app/gc_policy.py).
_ED, _B, _O, _HI, _PID = (bindparam("edition", type_=String), bindparam("bucket", type_=Integer),
                          bindparam("ordinal", type_=Float), bindparam("high", type_=Float),
                          bindparam("pid", type_=String))
RANKED = select(func.coalesce(func.sum(B.players), 0)).where(B.edition == _ED).scalar_subquery()
# One statement a place: the edition's ranked players, those in the buckets above, those ahead in
# the player's own bucket, and those tied with them whose id sorts after theirs.
PLACE = select(
    RANKED.label("ranked"),
    select(func.coalesce(func.sum(B.players), 0)).where(B.edition == _ED, B.bucket > _B)
    .scalar_subquery().label("above"),
    select(func.count()).select_from(S).where(S.edition == _ED, S.ranked.is_(True), S.ordinal > _O,
                                              S.ordinal < _HI).scalar_subquery().label("nearer"),
    select(func.count()).select_from(S).where(S.edition == _ED, S.ranked.is_(True), S.ordinal == _O,
                                              S.player_id > _PID).scalar_subquery().label("tied"))
RANKED_COUNT = select(RANKED)
_BUCKETS = select(B.edition, B.bucket, B.players).where(B.players != 0)
_CLEAR, _PUT = delete(B), insert(B)
_TURN = text(f"SELECT pg_advisory_xact_lock({SETTLE_LOCK})")
_RANKED_ROWS = select(S.edition, S.ordinal).where(S.ranked.is_(True), S.ordinal.is_not(None))
_MINE = select(S.edition, S.ordinal).where(S.player_id == bindparam("pid"), S.ranked.is_(True),
                                           S.ordinal.is_not(None))
_PG_ADD = pg_insert(B).values(edition=bindparam("e"), bucket=bindparam("b"), players=bindparam("n"))
_SQLITE_ADD = sqlite_insert(B).values(edition=bindparam("e"), bucket=bindparam("b"), players=bindparam("n"))
# A bucket's count changed in place (made when first needed).
_ADD_TO = {
    "postgresql": _PG_ADD.on_conflict_do_update(index_elements=[B.edition, B.bucket],
                                                set_={"players": B.players + _PG_ADD.excluded.players}),
    "sqlite": _SQLITE_ADD.on_conflict_do_update(index_elements=[B.edition, B.bucket],
                                                set_={"players": B.players + _SQLITE_ADD.excluded.players}),
}


async def place(conn: Any, edition: str, ordinal: float, pid: str) -> tuple[int, int]:
    """A ranked player's place on the edition's board (from 1), and how many are ranked there."""
    b = bucket_of(ordinal)
    row = (await conn.execute(PLACE, {"edition": edition, "bucket": b, "ordinal": ordinal,
                                      "high": low(b + 1), "pid": pid})).one()
    return int(row.above) + int(row.nearer) + int(row.tied) + 1, int(row.ranked)


async def ranked_count(conn: Any, edition: str) -> int:
    return int((await conn.execute(RANKED_COUNT, {"edition": edition})).scalar() or 0)


def moved(edition: str, before: tuple[bool, float | None], after: tuple[bool, float | None]) -> Counter[Key]:
    """What a standing going from ``before`` to ``after`` (its ranked flag, its ordinal) changes."""
    out: Counter[Key] = Counter()
    for (ranked, ordinal), sign in ((before, -1), (after, 1)):
        if ranked and ordinal is not None:
            out[(edition, bucket_of(ordinal))] += sign
    return out


async def add(conn: Any, changes: Counter[Key]) -> None:
    """Apply these changes to the buckets, in key order: writers that ever overlap lock the same
    buckets in the same order, so neither waits on the other in a circle."""
    rows = [{"e": e, "b": b, "n": n} for (e, b), n in sorted(changes.items()) if n]
    if rows:
        await conn.execute(_ADD_TO[conn.dialect.name], rows)


async def take_turn(conn: Any) -> None:
    """On Postgres, wait for any other node's settlement (or deletion) to end: they write the same
    buckets and standings, and each reads what the last one left.  SQLite writes one at a time."""
    if conn.dialect.name == "postgresql":
        await conn.execute(_TURN)


async def forget(conn: Any, pid: str) -> None:
    """Take a player about to be deleted off the buckets (their standing rows go with them)."""
    gone: Counter[Key] = Counter()
    for edition, ordinal in (await conn.execute(_MINE, {"pid": pid})).all():
        gone.update(moved(edition, (True, ordinal), (False, None)))  # ``+=`` would drop the negative
    await add(conn, gone)


def histogram(rows: Iterable[tuple[str, float]]) -> Counter[Key]:
    """The buckets of these ranked (edition, ordinal)s."""
    return Counter((edition, bucket_of(ordinal)) for edition, ordinal in rows)


async def rebuild(conn: Any) -> None:
    """The buckets worked out again from the ranked rows (at start, after the flags are set again)."""
    want = histogram((await conn.execute(_RANKED_ROWS)).all())
    await conn.execute(_CLEAR)
    if want:
        await conn.execute(_PUT, [{"edition": e, "bucket": b, "players": n}
                                       for (e, b), n in sorted(want.items())])


async def stored(conn: Any) -> Counter[Key]:
    """The buckets as they are (empty ones left out), to compare with ``histogram``."""
    return Counter({(e, b): n for e, b, n in (await conn.execute(_BUCKETS)).all()})

