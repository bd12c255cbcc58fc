"""Where a player stands on each edition's leaderboard, and what is left before they are on it.

The leaderboard (``PlayerReads.leaderboard``, docs/STATS.md) ranks the players with at least
``min_matches`` rated matches against at least ``min_opponents`` different players (met in rated
matches), by mu - 3 sigma.  This module changes none of that: it reads the same figures for one
player — their rated matches and the different players met in them — and, once they qualify,
their place in that very order (the leaderboard's own query, run to its end), so the page, /me
and the podium can say "ranked after 2 more rated matches against 1 more player" or "#3 of 12".
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.orm import aliased

from .farm_guard import unrated
from .player_models import PlayerMatchRow, PlayerRatingRow
from .player_reads import PlayerReads

_A, _B = aliased(PlayerMatchRow), aliased(PlayerMatchRow)
# Per edition: the different players met in this player's rated matches (as the leaderboard counts them).
_MET = (select(_A.edition, func.count(func.distinct(_B.player_id)))
        .join(_B, and_(_A.match_id == _B.match_id, _A.player_id != _B.player_id))
        .where(_A.player_id == bindparam("pid"), _A.mu_after.is_not(None), _B.mu_after.is_not(None))
        .group_by(_A.edition))
_RATED = (select(PlayerRatingRow.edition, PlayerRatingRow.matches)
          .where(PlayerRatingRow.player_id == bindparam("pid")))
# Per edition: the player's newest settled match (the podium waits for the match just played).
_LATEST = (select(PlayerMatchRow.edition, PlayerMatchRow.match_id, PlayerMatchRow.finished_at)
           .where(PlayerMatchRow.player_id == bindparam("pid"), PlayerMatchRow.settled.is_(True)))
NO_LIMIT = 1 << 30  # the leaderboard's order run to its end, to find a place beyond its top rows


def left(matches: int, opponents: int, min_matches: int, min_opponents: int) -> dict[str, int]:
    """What is left before a player with these figures is ranked: more rated matches, more
    different players met in them (both 0 once ranked)."""
    return {"matches_left": max(0, min_matches - matches),
            "opponents_left": max(0, min_opponents - opponents)}


async def standings(reads: PlayerReads, pid: str, editions: tuple[str, ...], min_matches: int,
                    min_opponents: int) -> dict[str, dict[str, Any]]:
    """Per edition: ``matches`` (rated), ``opponents`` (different players met in them),
    ``matches_left``, ``opponents_left``, ``ranked``, and once ranked ``rank`` and ``ranked_players``
    (how many are ranked in all); ``latest``: the id of the player's newest settled match there;
    ``unrated``: how many of their settled matches there moved no rating of theirs, by why
    (``few_players``, ``not_by_hand``, ``new_player``...: docs/STATS.md)."""
    async with reads.engine.connect() as conn:
        rated = dict((await conn.execute(_RATED, {"pid": pid})).all())
        met = dict((await conn.execute(_MET, {"pid": pid})).all())
        why_not = await unrated(conn, pid)
        newest: dict[str, tuple[Any, str]] = {}
        for edition, match_id, finished in (await conn.execute(_LATEST, {"pid": pid})).all():
            if finished is not None and (edition not in newest or finished > newest[edition][0]):
                newest[edition] = (finished, match_id)
    out: dict[str, dict[str, Any]] = {}
    for edition in editions:
        matches, opponents = int(rated.get(edition, 0)), int(met.get(edition, 0))
        todo = left(matches, opponents, min_matches, min_opponents)
        entry: dict[str, Any] = {"matches": matches, "opponents": opponents, **todo,
                                 "ranked": not any(todo.values()), "rank": None, "ranked_players": None,
                                 "latest": newest[edition][1] if edition in newest else None,
                                 "unrated": why_not.get(edition, {})}
        if entry["ranked"]:
            board = await reads.leaderboard(edition, NO_LIMIT, min_matches, min_opponents)
            entry["ranked_players"] = len(board)
            entry["rank"] = next((row["rank"] for row in board if row["player"] == pid), None)
        out[edition] = entry
    return out
