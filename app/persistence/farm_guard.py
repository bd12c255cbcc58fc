"""Who a rated match may rate: the checks, at settlement, that keep one person with a script and
a handful of fresh identities from farming a rating (docs/STATS.md, "Inflating a rating").

Three checks, each one cheap and each said in a player's history and standing:

- **by hand** (``not_by_hand``): a seat whose sender answered most changes of the room within
  ``think_time.INSTANT_MS`` (sooner than people see and choose) is a script's, and counts no
  more than a seat a bot played (``bots_played``: more than half of its moves the room's);
- **new players** (``new_player``): a player's first ``rated_after`` counted matches are in
  their stats but rate nobody, so a fresh identity costs a whole match played by hand before it
  can move anyone's rating; and in the ``NEW_WINDOW`` after that first match at most
  ``first_day_rated`` of theirs are rated — fewer than the leaderboard asks for, so nobody (a
  farm's player, or a new household) is ranked on their first evening;
- **the same few opponents** (``same_opponents``): two players are rated together at most
  ``pair_limit`` times in ``PAIR_WINDOW``; a player whose every rated opponent in a match is
  spent is not rated in it.

The server keeps no address or device on a player: these checks read only the match and the
players' own history lines.  The cap on new identities per address is the web's
(app/web/new_players.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.orm import aliased

from .player_models import PlayerMatchRow

PAIR_WINDOW = timedelta(hours=24)  # the same two players are rated together at most pair_limit times in it
NEW_WINDOW = timedelta(hours=24)  # a player is new this long after their first counted match

# Built once, their lists bound when they run (app/gc_policy.py: an ``in_`` built per call leaves
# a reference cycle of SQLAlchemy's behind).
# Per player, of their counted matches before this one: how many, when the first ended, how many were rated.
_COUNTED_BEFORE = (select(PlayerMatchRow.player_id, func.count(), func.min(PlayerMatchRow.finished_at),
                          func.count(PlayerMatchRow.mu_after))
                   .where(PlayerMatchRow.player_id.in_(bindparam("pids", expanding=True)),
                          PlayerMatchRow.counted.is_(True), PlayerMatchRow.match_id != bindparam("match"))
                   .group_by(PlayerMatchRow.player_id))
_A, _B = aliased(PlayerMatchRow), aliased(PlayerMatchRow)
_RATED_TOGETHER = (select(_A.player_id, _B.player_id, func.count())
                   .join(_B, and_(_A.match_id == _B.match_id, _A.player_id != _B.player_id))
                   .where(_A.player_id.in_(bindparam("pids", expanding=True)),
                          _B.player_id.in_(bindparam("others", expanding=True)),
                          _A.mu_after.is_not(None), _B.mu_after.is_not(None),
                          _A.finished_at >= bindparam("since"))
                   .group_by(_A.player_id, _B.player_id))


class Before(NamedTuple):
    """A player's counted matches before this one: how many, when the first ended, how many rated."""

    counted: int
    first: datetime | None
    rated: int


@dataclass(frozen=True)
class FarmGuard:
    """The thresholds (``Settings.rating_*``); a 0 turns its check off."""

    instant_share: float = 0.5  # a seat with more than this share of its sent moves instant is not by hand
    min_moves: int = 5  # ... once it sent this many (fewer say too little to judge)
    rated_after: int = 1  # counted matches a player finishes before one of theirs is rated
    first_day_rated: int = 2  # rated matches a player may have in NEW_WINDOW after their first counted one
    pair_limit: int = 5  # matches two players are rated together in PAIR_WINDOW

    def by_hand(self, moves: int | None, instant: int | None) -> bool:
        """Whether a seat's moves look played by a person: at most ``instant_share`` of them sent
        within an instant of the room's last change."""
        if self.instant_share <= 0 or moves is None or instant is None or moves < max(1, self.min_moves):
            return True
        return instant <= self.instant_share * moves

    def new(self, before: Before | None, now: datetime) -> bool:
        """Whether a player with this history is still new: not rated in this match."""
        if self.rated_after <= 0:
            return False
        if before is None or before.counted < self.rated_after:
            return True
        first = before.first
        if first is not None and first.tzinfo is None:  # SQLite forgets the zone
            first = first.replace(tzinfo=UTC)
        recent = first is not None and now - first < NEW_WINDOW
        return self.first_day_rated > 0 and recent and before.rated >= self.first_day_rated

    def held_back(self, candidates: Sequence[str], before: dict[str, Before],
                  together: dict[tuple[str, str], int], now: datetime | None = None) -> dict[str, str]:
        """Of the players a match would rate, those it must not, and why: ``before`` is each one's
        counted history before this match, ``together`` the rated matches of each two in the window."""
        now = now or datetime.now(UTC)
        held = {p: "new_player" for p in candidates if self.new(before.get(p), now)}
        fresh = [p for p in candidates if p not in held]
        if self.pair_limit > 0:
            for p in fresh:
                others = [q for q in fresh if q != p]
                if others and all(together.get((p, q), 0) >= self.pair_limit for q in others):
                    held[p] = "same_opponents"
        return held

    async def check(self, conn: Any, candidates: Sequence[str], match_id: str) -> dict[str, str]:
        """``held_back`` for this match's counted players, from their stored history."""
        if not candidates or (self.rated_after <= 0 and self.pair_limit <= 0):
            return {}
        pids = list(candidates)
        before: dict[str, Before] = {}
        if self.rated_after > 0:
            rows = (await conn.execute(_COUNTED_BEFORE, {"pids": pids, "match": match_id})).all()
            before = {pid: Before(int(n), first, int(rated)) for pid, n, first, rated in rows}
        together: dict[tuple[str, str], int] = {}
        now = datetime.now(UTC)
        if self.pair_limit > 0 and len(pids) > 1:
            rows = (await conn.execute(_RATED_TOGETHER, {"pids": pids, "others": pids,
                                                         "since": now - PAIR_WINDOW})).all()
            together = {(a, b): n for a, b, n in rows}
        return self.held_back(pids, before, together, now)

