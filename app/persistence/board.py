"""The leaderboard and the players' stats, kept as matches settle rather than worked out per request.

``player_standings`` holds a row per (player, edition) with a settled match: their counted
matches' figures added up, their rating, the different players met in rated matches, and
whether the leaderboard ranks them (docs/STATS.md's rule: ``Ranking``).  ``update_standings``
adds one settled match to its players' rows, in the settlement's own transaction, after the
ratings are written: whoever was rated (``mu_after`` set) is what it reads, not how that was
decided.  Every node writes through the shared database, so every node serves the same board.

A player's different opponents are counted from ``rated_opponents``, a pair of players added
once (insert-if-absent) when they first meet in a rated match: a player's count reads their
own pairs through the primary key, never the edition's matches.

Each row also counts the player's settled matches that moved no rating of theirs, by why
(``unrated``: the line's reason, else the match's), and the same transactions keep the board's
buckets (app/persistence/board_places.py) in step with the rows' ranked flags and ordinals: a
player page reads its standing rows and a place, never the player's history or the whole board.

``from_scratch`` works the same table out from the stored history and ratings (as
``settle.recompute_ratings`` does the ratings): what the settlements left must equal it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from . import board_places
from .player_models import (
    PlayerMatchRow,
    PlayerRatingRow,
    PlayerStandingRow,
    RatedOpponentRow,
    SettledMatchRow,
)

FIGURES = ("rounds", "rounds_won", "round_points", "catches_made", "catches_suffered", "challenges_won")


@dataclass(frozen=True)
class Ranking:
    """Who the leaderboard ranks: rated players with at least ``min_matches`` rated matches against
    at least ``min_opponents`` different players (``UNO_LEADERBOARD_MIN_*``)."""

    min_matches: int = 3
    min_opponents: int = 2

    def ranks(self, ordinal: float | None, matches: int, opponents: int) -> bool:
        return ordinal is not None and matches >= self.min_matches and opponents >= self.min_opponents


S = PlayerStandingRow
# Built once, their lists bound when they run (app/gc_policy.py: a statement built per call with
# an ``in_`` over a list leaves a reference cycle behind).
_LINES = select(
    PlayerMatchRow.player_id,
    PlayerMatchRow.counted,
    PlayerMatchRow.reason,
    PlayerMatchRow.won,
    PlayerMatchRow.mu_after,
    PlayerMatchRow.finished_at,
    *(getattr(PlayerMatchRow, f) for f in FIGURES),
).where(PlayerMatchRow.match_id == bindparam("match_id"), PlayerMatchRow.settled.is_(True))
_ROWS = select(S).where(S.edition == bindparam("edition"), S.player_id.in_(bindparam("pids", expanding=True)))
_RATED = select(
    PlayerRatingRow.player_id,
    PlayerRatingRow.mu,
    PlayerRatingRow.sigma,
    PlayerRatingRow.ordinal,
    PlayerRatingRow.matches,
).where(
    PlayerRatingRow.edition == bindparam("edition"),
    PlayerRatingRow.player_id.in_(bindparam("pids", expanding=True)),
)
_MET = (
    select(RatedOpponentRow.player_id, func.count())
    .where(
        RatedOpponentRow.edition == bindparam("edition"),
        RatedOpponentRow.player_id.in_(bindparam("pids", expanding=True)),
    )
    .group_by(RatedOpponentRow.player_id)
)
_COLUMNS = (
    "ranked",
    "mu",
    "sigma",
    "ordinal",
    "matches",
    "opponents",
    "counted",
    "wins",
    *FIGURES,
    "streak",
    "longest_streak",
    "latest_match",
    "latest_at",
    "unrated",
)
_PUT = (
    update(S)
    .where(S.player_id == bindparam("pid"), S.edition == bindparam("ed"))
    .values({c: bindparam(c) for c in _COLUMNS})
)
# A player's opponents, again, after someone they met left (a deleted player's pairs go with them).
_MET_BY = select(RatedOpponentRow.edition, RatedOpponentRow.player_id).where(
    RatedOpponentRow.opponent_id == bindparam("pid")
)


# A pair is added once: a second rated match between the same two players adds nothing.
_ADD_PAIRS = {
    "postgresql": pg_insert(RatedOpponentRow).on_conflict_do_nothing(),
    "sqlite": sqlite_insert(RatedOpponentRow).on_conflict_do_nothing(),
}


def _empty(pid: str, edition: str) -> dict[str, Any]:
    return {
        "pid": pid,
        "ed": edition,
        "ranked": False,
        "mu": None,
        "sigma": None,
        "ordinal": None,
        "matches": 0,
        "opponents": 0,
        "counted": 0,
        "wins": 0,
        **dict.fromkeys(FIGURES, 0),
        "streak": 0,
        "longest_streak": 0,
        "latest_match": None,
        "latest_at": None,
        "unrated": {},
    }


def add_line(row: dict[str, Any], line: Any, match_id: str, match_reason: str | None) -> None:
    """One settled history line added to its player's standing (in the order the matches ended);
    ``match_reason``: why its match was not rated, if it was not."""
    if line.counted:
        row["counted"] += 1
        row["wins"] += bool(line.won)
        for f in FIGURES:
            row[f] += getattr(line, f) or 0
        row["streak"] = row["streak"] + 1 if line.won else 0
        row["longest_streak"] = max(row["longest_streak"], row["streak"])
    if line.finished_at is not None:
        row["latest_match"], row["latest_at"] = match_id, line.finished_at
    if line.mu_after is None:  # it moved no rating of theirs: counted by why (a new dict: rows may share one)
        why = line.reason or match_reason or "unrated"
        row["unrated"] = {**row["unrated"], why: row["unrated"].get(why, 0) + 1}


async def update_standings(
    conn: Any, match_id: str, edition: str, ranking: Ranking, match_reason: str | None = None
) -> None:
    """Add this settled match to its players' standings and the board's buckets (called by the
    settlement, in its transaction, once its lines and ratings are written; ``match_reason``: why
    the match is not rated, if it is not)."""
    lines = (await conn.execute(_LINES, {"match_id": match_id})).all()
    if not lines:
        return
    pids = [line.player_id for line in lines]
    rated = [line.player_id for line in lines if line.mu_after is not None]
    if len(rated) > 1:
        await conn.execute(
            _ADD_PAIRS[conn.dialect.name],
            [{"edition": edition, "player_id": a, "opponent_id": b} for a in rated for b in rated if a != b],
        )
    known = {
        row.player_id: row for row in (await conn.execute(_ROWS, {"edition": edition, "pids": pids})).all()
    }
    ratings = {
        row.player_id: row for row in (await conn.execute(_RATED, {"edition": edition, "pids": pids})).all()
    }
    met = dict((await conn.execute(_MET, {"edition": edition, "pids": pids})).all())
    new: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    buckets: Counter[board_places.Key] = Counter()
    for line in lines:
        pid = line.player_id
        old = known.get(pid)
        row = (
            _empty(pid, edition)
            if old is None
            else {"pid": pid, "ed": edition, **{c: getattr(old, c) for c in _COLUMNS}}
        )
        before = (bool(row["ranked"]), row["ordinal"])
        add_line(row, line, match_id, match_reason)
        rating = ratings.get(pid)
        if rating is not None:
            row.update(mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal, matches=rating.matches)
        row["opponents"] = int(met.get(pid, 0))
        row["ranked"] = ranking.ranks(row["ordinal"], row["matches"], row["opponents"])
        buckets.update(board_places.moved(edition, before, (row["ranked"], row["ordinal"])))
        (new if old is None else changed).append(row)
    if changed:
        await conn.execute(_PUT, changed)
    if new:
        await conn.execute(insert(S), [{"player_id": r.pop("pid"), "edition": r.pop("ed"), **r} for r in new])
    await board_places.add(conn, buckets)


async def rerank(conn: Any, ranking: Ranking) -> None:
    """Set every row's ranked flag by this rule (the settings may have changed since the last
    start), and the board's buckets from them."""
    want = and_(
        S.ordinal.is_not(None), S.matches >= ranking.min_matches, S.opponents >= ranking.min_opponents
    )
    await conn.execute(update(S).where(want, S.ranked.is_(False)).values(ranked=True))
    await conn.execute(update(S).where(~want, S.ranked.is_(True)).values(ranked=False))
    await board_places.rebuild(conn)


async def met_by(conn: Any, pid: str) -> list[tuple[str, str]]:
    """The (edition, player) pairs who met ``pid`` in a rated match: their counts change when ``pid`` goes."""
    return [(e, p) for e, p in (await conn.execute(_MET_BY, {"pid": pid})).all()]


async def recount_opponents(conn: Any, who: list[tuple[str, str]], ranking: Ranking) -> None:
    """Count these players' different opponents again (someone they met was deleted)."""
    buckets: Counter[board_places.Key] = Counter()
    for edition, pid in who:
        met = (
            await conn.execute(
                select(func.count())
                .select_from(RatedOpponentRow)
                .where(RatedOpponentRow.edition == edition, RatedOpponentRow.player_id == pid)
            )
        ).scalar() or 0
        row = (
            await conn.execute(
                select(S.ordinal, S.matches, S.ranked).where(S.edition == edition, S.player_id == pid)
            )
        ).first()
        if row is not None:
            ranked = ranking.ranks(row.ordinal, row.matches, met)
            await conn.execute(
                update(S).where(S.edition == edition, S.player_id == pid).values(opponents=met, ranked=ranked)
            )
            buckets.update(board_places.moved(edition, (row.ranked, row.ordinal), (ranked, row.ordinal)))
    await board_places.add(conn, buckets)


async def from_scratch(conn: Any, ranking: Ranking) -> dict[tuple[str, str], dict[str, Any]]:
    """Every (player, edition)'s standing worked out again from the stored history and ratings."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    lines = (
        await conn.execute(
            select(
                PlayerMatchRow.player_id,
                PlayerMatchRow.edition,
                PlayerMatchRow.match_id,
                PlayerMatchRow.counted,
                PlayerMatchRow.reason,
                PlayerMatchRow.won,
                PlayerMatchRow.mu_after,
                PlayerMatchRow.finished_at,
                *(getattr(PlayerMatchRow, f) for f in FIGURES),
                SettledMatchRow.reason.label("match_reason"),
            )
            .outerjoin(SettledMatchRow, SettledMatchRow.match_id == PlayerMatchRow.match_id)
            .where(PlayerMatchRow.settled.is_(True))
            .order_by(PlayerMatchRow.finished_at, PlayerMatchRow.match_id)
        )
    ).all()
    rated_in: dict[str, list[tuple[str, str]]] = {}
    for line in lines:
        row = out.setdefault((line.player_id, line.edition), _empty(line.player_id, line.edition))
        add_line(row, line, line.match_id, line.match_reason)
        if line.mu_after is not None:
            rated_in.setdefault(line.match_id, []).append((line.player_id, line.edition))
    met: dict[tuple[str, str], set[str]] = {}
    for seats in rated_in.values():
        for pid, edition in seats:
            met.setdefault((pid, edition), set()).update(p for p, _ in seats if p != pid)
    for rating in (await conn.execute(select(PlayerRatingRow))).all():
        found = out.get((rating.player_id, rating.edition))
        if found is not None:
            found.update(mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal, matches=rating.matches)
    for key, row in out.items():
        row["opponents"] = len(met.get(key, ()))
        row["ranked"] = ranking.ranks(row["ordinal"], row["matches"], row["opponents"])
        del row["pid"], row["ed"]
    return out


async def stored(conn: Any) -> dict[tuple[str, str], dict[str, Any]]:
    """The table as it is, in ``from_scratch``'s shape."""
    return {
        (row.player_id, row.edition): {c: getattr(row, c) for c in _COLUMNS}
        for row in (await conn.execute(select(S))).all()
    }
