"""Settling a finished match: the history lines, figures and ratings of the players who sat at it.

Two steps.  When a match ends, ``seat_players`` notes which player sat in each seat (from the
seats' token hashes the players' joins linked), while the seats are still the match's.  Then
``settle`` plays the match again through the engine (``match_figures``), writes each player's
figures and, when the match is rated (docs/STATS.md), moves their ratings — once: the
``settled_matches`` row is written in the same transaction, and a match found there is skipped.
``settle_pending`` catches up on matches that ended while no settle could finish (a crash).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.engine.config import MatchConfig
from app.engine.house.results import sides_of

from .board import Ranking, rerank, update_standings
from .board_places import take_turn
from .export import read_export
from .farm_guard import FarmGuard
from .match_figures import figures
from .models import ActionRow, MatchRow, RoomRow, SeatRow
from .player_models import PlayerMatchRow, PlayerRatingRow, PlayerSeatRow, SettledMatchRow
from .ratings import RatedMatch, Rating, initial, rate, recompute

log = logging.getLogger("app.persistence")

MIN_RATED_PLAYERS = 2  # players (not bots, not one person's two seats) a rated match needs
HELD_BACK = ("new_player", "same_opponents")  # counted in the stats, not rated (farm_guard.py)
BOT_SHARE_MAX = 0.5  # a seat whose moves were more than this share the room's (a bot's, the clock's) is not counted

# Built once, with its list bound when it runs: ``in_`` over a list made per call leaves a
# reference cycle of SQLAlchemy's behind (the expanding parameter's), which a busy server's
# collector never frees (app/gc_policy.py; tests/hardening/test_no_cycles_sql.py).  So does
# ``a & b`` (the left clause's comparator): several criteria go to ``where`` as they are.
_RATINGS = (select(PlayerRatingRow.player_id, PlayerRatingRow.mu, PlayerRatingRow.sigma)
            .where(PlayerRatingRow.player_id.in_(bindparam("pids", expanding=True)),
                   PlayerRatingRow.edition == bindparam("edition")))
# ``matches + 1`` too: a number's parameter keeps its comparator, which refers back to it.
_RATING_MOVED = (update(PlayerRatingRow)
                 .where(PlayerRatingRow.player_id == bindparam("pid"), PlayerRatingRow.edition == bindparam("ed"))
                 .values(matches=PlayerRatingRow.matches + 1))


class Settler:
    def __init__(self, engine: AsyncEngine, ranking: Ranking | None = None,
                 guard: FarmGuard | None = None) -> None:
        self.engine = engine
        self.ranking = ranking or Ranking()  # who the leaderboard ranks (board.py keeps it as matches settle)
        self.guard = guard or FarmGuard()  # who a rated match may rate (farm_guard.py)
        self.turn = asyncio.Lock()  # one settle at a time in this process (ratings read, then written)
        self.settled = 0

    async def seat_players(self, code: str, match_id: str,
                           think: tuple[tuple[int, int, int], ...] = ()) -> int:
        """Note who sat where in this just-finished match; returns how many players.  ``think``:
        per seat, the moves its sender sent and the instant ones (``MatchFinished.think``)."""
        async with self.engine.begin() as conn:
            rows = (await conn.execute(select(SeatRow.seat, PlayerSeatRow.player_id)
                                       .join(PlayerSeatRow, PlayerSeatRow.token_hash == SeatRow.token_hash)
                                       .where(SeatRow.room_code == code, SeatRow.is_bot.is_(False)))).all()
            edition = (await conn.execute(select(MatchRow.edition).where(MatchRow.id == match_id))).scalar()
            if not rows or edition is None:
                return 0
            seats = Counter(pid for _, pid in rows)
            known = {pid for (pid,) in (await conn.execute(select(PlayerMatchRow.player_id)
                                                           .where(PlayerMatchRow.match_id == match_id))).all()}
            first: dict[str, int] = {}
            for seat, pid in sorted(rows):
                first.setdefault(pid, seat)
            timed: dict[int, tuple[int | None, int | None]] = {seat: (moves, instant)
                                                              for seat, moves, instant in think}
            new = [{"player_id": pid, "match_id": match_id, "seat": seat, "edition": edition,
                    "reason": "several_seats" if seats[pid] > 1 else None,
                    "moves_sent": timed.get(seat, (None, None))[0],
                    "moves_instant": timed.get(seat, (None, None))[1]}
                   for pid, seat in first.items() if pid not in known]
            if new:
                await conn.execute(insert(PlayerMatchRow), new)
            return len(first)

    async def settle(self, match_id: str) -> bool:
        """Write the match's figures and ratings, unless done already; True if done now."""
        async with self.turn, self.engine.begin() as conn:
            await take_turn(conn)  # nodes settle one at a time: ratings are read, then written
            if (await conn.execute(select(SettledMatchRow.match_id)
                                   .where(SettledMatchRow.match_id == match_id))).first() is not None:
                return False
            players = (await conn.execute(select(PlayerMatchRow.player_id, PlayerMatchRow.seat,
                                                 PlayerMatchRow.reason, PlayerMatchRow.moves_sent,
                                                 PlayerMatchRow.moves_instant)
                                          .where(PlayerMatchRow.match_id == match_id))).all()
            if not players:  # bots and API clients only: nobody's figures to write, no match to replay
                return False
            export = await read_export(conn, match_id)
            if export is None or export["status"] != "over":
                return False
            edition = str((await conn.execute(select(MatchRow.edition).where(MatchRow.id == match_id))).scalar())
            try:
                # Replaying a whole match is CPU (tens of milliseconds for a long one): in a thread,
                # so that the rooms' loop keeps its turns meanwhile.
                by_seat = {f.seat: f for f in await asyncio.to_thread(figures, export)}
            except Exception:  # a log that does not replay: nothing to count, and it is said once
                log.exception("match %s could not be played again for its players' figures", match_id)
                await conn.execute(insert(SettledMatchRow).values(match_id=match_id, edition=edition, rated=False,
                                                                  reason="unreadable"))
                return True
            share = await self._room_share(conn, match_id)
            reasons = {p.player_id: p.reason or self._seat_reason(share.get(p.seat, 0.0), p.moves_sent,
                                                                  p.moves_instant)
                       for p in players if p.seat in by_seat}
            counted = [p for p in players if p.player_id in reasons and reasons[p.player_id] is None]
            rounds = max((f.rounds for f in by_seat.values()), default=0)
            # Counted in the stats, yet not rated here: a new player, or one whose opponents are spent.
            pids = [p.player_id for p in counted]
            held = await self.guard.check(conn, pids, match_id) if rounds >= 2 else {}
            reasons.update(held)
            counted = [p for p in counted if p.player_id not in held]
            # Partners are rated as one team (HR-26): a match needs counted players on two sides.
            sides = {p.player_id: by_seat[p.seat].side for p in counted}
            few = len(counted) < MIN_RATED_PLAYERS or len(set(sides.values())) < 2  # two sides at least
            why_not = "single_round" if rounds < 2 else "few_players" if few else None
            after: dict[str, Rating] = {}
            before: dict[str, Rating] = {}
            if why_not is None:
                before = await self._ratings(conn, [p.player_id for p in counted], edition)
                after = rate(before, {p.player_id: by_seat[p.seat].placement for p in counted}, sides)
            finished = _when(export.get("finished_at"))
            for p in players:
                f = by_seat.get(p.seat)
                if f is None:
                    continue
                values: dict[str, Any] = {
                    "settled": True, "counted": reasons[p.player_id] in (None, *HELD_BACK),
                    "reason": reasons[p.player_id],
                    "placement": f.placement, "won": f.won, "points": f.points, "rounds": f.rounds,
                    "rounds_won": f.rounds_won, "round_points": f.round_points, "catches_made": f.catches_made,
                    "catches_suffered": f.catches_suffered, "challenges_won": f.challenges_won,
                    "finished_at": finished}
                if p.player_id in after:
                    values.update(mu_before=before[p.player_id].mu, sigma_before=before[p.player_id].sigma,
                                  mu_after=after[p.player_id].mu, sigma_after=after[p.player_id].sigma)
                await conn.execute(update(PlayerMatchRow).where(PlayerMatchRow.match_id == match_id,
                                                                 PlayerMatchRow.player_id == p.player_id)
                                   .values(**values))
            for pid, rating in after.items():
                await self._put_rating(conn, pid, edition, rating)
            # The leaderboard's rows, from what was just written (board.py).
            await update_standings(conn, match_id, edition, self.ranking, why_not)
            # Its own clock, to the microsecond: recompute_ratings goes by it (SQLite's now() has seconds).
            await conn.execute(insert(SettledMatchRow).values(match_id=match_id, edition=edition,
                                                              rated=why_not is None, reason=why_not,
                                                              settled_at=datetime.now(UTC)))
        self.settled += 1
        return True

    async def rerank(self) -> None:
        """The leaderboard's ranked flags by this server's rule (its settings may have changed)."""
        async with self.turn, self.engine.begin() as conn:
            await take_turn(conn)  # another node's settlement writes the same flags and buckets
            await rerank(conn, self.ranking)

    async def settle_pending(self) -> int:
        """Settle every finished match with players that is not settled yet (first noting the
        players of a room's last match, if it ended just before a crash: its seats are still its)."""
        async with self.engine.connect() as conn:
            ended = (await conn.execute(
                select(RoomRow.code, RoomRow.match_id).join(MatchRow, MatchRow.id == RoomRow.match_id)
                .outerjoin(SettledMatchRow, SettledMatchRow.match_id == RoomRow.match_id)
                .where(RoomRow.status == "over", MatchRow.status == "over", SettledMatchRow.match_id.is_(None)))).all()
        for code, match_id in ended:
            if match_id:
                await self.seat_players(code, match_id)
        async with self.engine.connect() as conn:
            pending = [m for (m,) in (await conn.execute(
                select(PlayerMatchRow.match_id).join(MatchRow, MatchRow.id == PlayerMatchRow.match_id)
                .outerjoin(SettledMatchRow, SettledMatchRow.match_id == PlayerMatchRow.match_id)
                .where(MatchRow.status == "over", SettledMatchRow.match_id.is_(None))
                .group_by(PlayerMatchRow.match_id, MatchRow.finished_at).order_by(MatchRow.finished_at))).all()]
        done = 0
        for match_id in pending:
            done += await self.settle(match_id)
        return done

    def _seat_reason(self, room_share: float, moves: int | None, instant: int | None) -> str | None:
        """Why a seat is not counted, if it is not: the room played it, or a script did."""
        if room_share > BOT_SHARE_MAX:
            return "bots_played"
        return None if self.guard.by_hand(moves, instant) else "not_by_hand"

    @staticmethod
    async def _room_share(conn: Any, match_id: str) -> dict[int, float]:
        """Per seat, the share of its moves the room made (a bot's or the clock's: no client id)."""
        rows = (await conn.execute(select(ActionRow.seat, func.count(), func.count(ActionRow.client_id))
                                   .where(ActionRow.match_id == match_id).group_by(ActionRow.seat))).all()
        return {seat: (total - sent) / total for seat, total, sent in rows if total}

    @staticmethod
    async def _ratings(conn: Any, pids: list[str], edition: str) -> dict[str, Rating]:
        rows = (await conn.execute(_RATINGS, {"pids": pids, "edition": edition})).all()
        found = {r.player_id: Rating(r.mu, r.sigma) for r in rows}
        return {pid: found.get(pid, initial()) for pid in pids}

    @staticmethod
    async def _put_rating(conn: Any, pid: str, edition: str, rating: Rating) -> None:
        now = datetime.now(UTC)
        changed = await conn.execute(_RATING_MOVED, {"pid": pid, "ed": edition, "mu": rating.mu, "sigma": rating.sigma,
                                                     "ordinal": rating.ordinal, "updated_at": now})
        if changed.rowcount == 0:
            await conn.execute(insert(PlayerRatingRow).values(player_id=pid, edition=edition, mu=rating.mu,
                                                              sigma=rating.sigma, ordinal=rating.ordinal, matches=1,
                                                              updated_at=now))


def _when(iso: Any) -> datetime | None:
    if not isinstance(iso, str):
        return None
    moment = datetime.fromisoformat(iso)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def recompute_ratings(engine: AsyncEngine) -> dict[tuple[str, str], tuple[Rating, int]]:
    """Every rating worked out again from the stored history: the rated matches in the order they
    ended, each player's place in them (``ratings.recompute``).  Returns the table; it is what
    ``player_ratings`` holds unless a player was deleted since (their seats then leave the matches
    they were rated in, and the others' ratings are worked out without them)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(PlayerMatchRow.match_id, PlayerMatchRow.edition, PlayerMatchRow.player_id,
                   PlayerMatchRow.placement, PlayerMatchRow.seat, MatchRow.options)
            .join(SettledMatchRow, SettledMatchRow.match_id == PlayerMatchRow.match_id)
            .join(MatchRow, MatchRow.id == PlayerMatchRow.match_id)
            .where(SettledMatchRow.rated.is_(True), PlayerMatchRow.mu_after.is_not(None))
            .order_by(SettledMatchRow.settled_at, PlayerMatchRow.match_id))).all()
    matches: dict[str, RatedMatch] = {}
    for row in rows:
        rated = matches.setdefault(row.match_id, RatedMatch(row.match_id, row.edition, {}, {}))
        rated.places[row.player_id] = row.placement or 0
        assert rated.sides is not None
        rated.sides[row.player_id] = _side(row.options, row.seat)  # HR-26: partners were rated as one team
    return recompute(matches.values())


def _side(options: dict[str, Any], seat: int) -> int:
    """The side ``seat`` played on in a match of this stored configuration (``results.sides_of``)."""
    config = MatchConfig.from_json(options)
    return sides_of(config.house, config.seats)[1][seat]
