"""Where a player stands on each edition's leaderboard, and what is left before they are on it.

The leaderboard (``PlayerReads.leaderboard``, docs/STATS.md) ranks the players with at least
``min_matches`` rated matches against at least ``min_opponents`` different players (met in rated
matches), by mu - 3 sigma.  This module changes none of that: it reads the same figures for one
player from their standing rows (kept as matches settle: app/persistence/board.py) and, once they
qualify, their place in that very order (the ranked rows ahead of theirs in the board's index),
so the page, /me and the podium can say "ranked after 2 more rated matches against 1 more player"
or "#3 of 12".
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from .farm_guard import unrated
from .player_models import PlayerStandingRow
from .player_reads import RANKED_COUNT, PlayerReads

S = PlayerStandingRow
_MINE = select(S.edition, S.matches, S.opponents, S.ordinal, S.ranked, S.latest_match).where(
    S.player_id == bindparam("pid"))
# The ranked rows ahead of a player's in the leaderboard's order (ordinal, then id, both descending).
_AHEAD = select(func.count()).select_from(S).where(
    S.edition == bindparam("edition"), S.ranked.is_(True),
    S.ordinal >= bindparam("ordinal"),  # a range of the index; the few equal to it are told apart by id
    or_(S.ordinal > bindparam("ordinal"), S.player_id > bindparam("pid")))


def left(matches: int, opponents: int, min_matches: int, min_opponents: int) -> dict[str, int]:
    """What is left before a player with these figures is ranked: more rated matches, more
    different players met in them (both 0 once ranked)."""
    return {"matches_left": max(0, min_matches - matches),
            "opponents_left": max(0, min_opponents - opponents)}


async def standings(reads: PlayerReads, pid: str, editions: tuple[str, ...], min_matches: int,
                    min_opponents: int, conn: AsyncConnection | None = None) -> dict[str, dict[str, Any]]:
    """Per edition: ``matches`` (rated), ``opponents`` (different players met in them),
    ``matches_left``, ``opponents_left``, ``ranked``, and once ranked ``rank`` and ``ranked_players``
    (how many are ranked in all); ``latest``: the id of the player's newest settled match there;
    ``unrated``: how many of their settled matches there moved no rating of theirs, by why
    (``few_players``, ``not_by_hand``, ``new_player``...: docs/STATS.md)."""
    async with reads.using(conn) as conn:
        mine = {row.edition: row for row in (await conn.execute(_MINE, {"pid": pid})).all()}
        why_not = await unrated(conn, pid)
        out: dict[str, dict[str, Any]] = {}
        for edition in editions:
            row = mine.get(edition)
            matches, opponents = (row.matches, row.opponents) if row is not None else (0, 0)
            todo = left(matches, opponents, min_matches, min_opponents)
            entry: dict[str, Any] = {"matches": matches, "opponents": opponents, **todo,
                                     "ranked": bool(row is not None and row.ranked), "rank": None,
                                     "ranked_players": None,
                                     "latest": row.latest_match if row is not None else None,
                                     "unrated": why_not.get(edition, {})}
            if row is not None and row.ranked:
                place = {"edition": edition, "ordinal": row.ordinal, "pid": pid}
                entry["rank"] = int((await conn.execute(_AHEAD, place)).scalar() or 0) + 1
                ranked = (await conn.execute(RANKED_COUNT, {"edition": edition})).scalar()
                entry["ranked_players"] = int(ranked or 0)
            out[edition] = entry
    return out
