"""Where a player stands on each edition's leaderboard, and what is left before they are on it.

The leaderboard (``PlayerReads.leaderboard``, docs/STATS.md) ranks the players with at least
``min_matches`` rated matches against at least ``min_opponents`` different players (met in rated
matches), by mu - 3 sigma.  This module changes none of that: it reads the same figures for one
player from their standing rows (kept as matches settle: app/persistence/board.py) and, once they
qualify, their place in that very order (the ranked rows ahead of theirs), so the page, /me and
the podium can say "ranked after 2 more rated matches against 1 more player" or "#3 of 12".  The
place is read from the board's buckets and one bucket's range of its index
(app/persistence/board_places.py), and why matches went unrated from the standing row, where the
settlements counted it: a page reads neither the whole board nor the player's history for them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from .board_places import place
from .player_reads import PlayerReads


def left(matches: int, opponents: int, min_matches: int, min_opponents: int) -> dict[str, int]:
    """What is left before a player with these figures is ranked: more rated matches, more
    different players met in them (both 0 once ranked)."""
    return {"matches_left": max(0, min_matches - matches),
            "opponents_left": max(0, min_opponents - opponents)}


async def standings(reads: PlayerReads, pid: str, editions: tuple[str, ...], min_matches: int,
                    min_opponents: int, conn: AsyncConnection | None = None,
                    rows: list[Any] | None = None) -> dict[str, dict[str, Any]]:
    """Per edition: ``matches`` (rated), ``opponents`` (different players met in them),
    ``matches_left``, ``opponents_left``, ``ranked``, and once ranked ``rank`` and ``ranked_players``
    (how many are ranked in all); ``latest``: the id of the player's newest settled match there;
    ``unrated``: how many of their settled matches there moved no rating of theirs, by why
    (``few_players``, ``not_by_hand``, ``new_player``...: docs/STATS.md).  ``rows``: the player's
    standing rows, when the page read them already."""
    async with reads.using(conn) as conn:
        if rows is None:
            rows = await reads.standing_rows(pid, conn)
        mine = {row.edition: row for row in rows}
        out: dict[str, dict[str, Any]] = {}
        for edition in editions:
            row = mine.get(edition)
            matches, opponents = (row.matches, row.opponents) if row is not None else (0, 0)
            todo = left(matches, opponents, min_matches, min_opponents)
            entry: dict[str, Any] = {"matches": matches, "opponents": opponents, **todo,
                                     "ranked": bool(row is not None and row.ranked), "rank": None,
                                     "ranked_players": None,
                                     "latest": row.latest_match if row is not None else None,
                                     "unrated": dict(row.unrated or {}) if row is not None else {}}
            if row is not None and row.ranked and row.ordinal is not None:
                entry["rank"], entry["ranked_players"] = await place(conn, edition, row.ordinal, pid)
            out[edition] = entry
    return out
