"""What the players' pages show: a player's history and stats, an edition's leaderboard, and
the head-to-head table of a player's group.  Read from the shared database on every ask, so
every node of a cluster shows the same numbers."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from itertools import combinations
from typing import Any

from sqlalchemy import Integer, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.engine.house import DEFAULTS

from .board_places import ranked_count
from .models import MatchRow, RoomRow
from .player_models import PlayerMatchRow, PlayerRow, PlayerStandingRow
from .ratings import Rating

GROUP_SIZE = 8  # a player and the seven people they played with most ...
GROUP_MATCHES = 200  # ... in their newest counted matches (and each member's, for the table between them)

# The statements built per call with an alias or an ``in_`` over a list are built once here, their
# values bound when they run: built per call, each leaves a reference cycle of SQLAlchemy's behind,
# which a busy server's collector never frees (app/gc_policy.py; tests/hardening/test_no_cycles_sql.py).
# Every read is bounded and follows an index: the leaderboard a page of ``ix_player_standings_board``
# and its ranked count the edition's buckets (board_places.py), a player's stats their standing
# rows, their history and group their newest lines (``ix_player_matches_history``).  None reads an
# edition's matches (bench/player_memory.py).
S = PlayerStandingRow
# The page's players found in the index alone (an index-only scan skips the pages before it),
# then their rows and names read for those few.
_PAGE = (select(S.player_id, S.ordinal).where(S.edition == bindparam("edition"), S.ranked.is_(True))
         .order_by(S.ordinal.desc(), S.player_id.desc())
         .limit(bindparam("size", type_=Integer)).offset(bindparam("skip", type_=Integer)).subquery())
_BOARD = (select(S.player_id, S.mu, S.sigma, S.ordinal, S.matches, S.wins, S.opponents, PlayerRow.name)
          .join(_PAGE, _PAGE.c.player_id == S.player_id).join(PlayerRow, PlayerRow.id == S.player_id)
          .where(S.edition == bindparam("edition"))
          .order_by(_PAGE.c.ordinal.desc(), _PAGE.c.player_id.desc()))
STANDINGS = select(S).where(S.player_id == bindparam("pid"))
HISTORY = (select(*PlayerMatchRow.__table__.c, MatchRow.players, MatchRow.options, MatchRow.target,
                  RoomRow.public)
           .join(MatchRow, MatchRow.id == PlayerMatchRow.match_id)
           .join(RoomRow, RoomRow.code == MatchRow.room_code)
           .where(PlayerMatchRow.player_id == bindparam("pid"), PlayerMatchRow.settled.is_(True))
           .order_by(PlayerMatchRow.finished_at.desc()).limit(bindparam("limit", type_=Integer)))
_OPPONENT_SEATS = (select(PlayerMatchRow.match_id, PlayerMatchRow.seat, PlayerMatchRow.player_id)
                   .where(PlayerMatchRow.match_id.in_(bindparam("ids", expanding=True))))
_NAMES = select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(bindparam("members", expanding=True)))
# A player's newest counted lines (the group is read from these, for each of its members).
_NEWEST = (select(PlayerMatchRow.match_id, PlayerMatchRow.placement)
           .where(PlayerMatchRow.player_id == bindparam("pid"), PlayerMatchRow.counted.is_(True))
           .order_by(PlayerMatchRow.finished_at.desc()).limit(GROUP_MATCHES))
_WITH = (select(PlayerMatchRow.player_id, func.count())
         .where(PlayerMatchRow.match_id.in_(bindparam("ids", expanding=True)),
                PlayerMatchRow.player_id != bindparam("pid"), PlayerMatchRow.counted.is_(True))
         .group_by(PlayerMatchRow.player_id))

def _iso(moment: Any) -> str | None:
    if moment is None:
        return None
    aware: datetime = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)  # SQLite drops it
    return aware.isoformat()


def house_on(house: dict[str, Any]) -> dict[str, Any]:
    """The house rules a match was played with that are on: not at their default (stored rules
    hold every key; the preset's name is for display)."""
    return {k: v for k, v in house.items() if k in DEFAULTS and v != DEFAULTS[k]}


def _change(row: Any) -> float | None:
    """How much a rated match moved the player's leaderboard figure (mu - 3 sigma)."""
    if row.mu_after is None or row.mu_before is None:
        return None
    return round(Rating(row.mu_after, row.sigma_after).ordinal - Rating(row.mu_before, row.sigma_before).ordinal, 2)


class PlayerReads:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    @asynccontextmanager
    async def using(self, conn: AsyncConnection | None) -> AsyncIterator[AsyncConnection]:
        """``conn`` when given (a page's reads share one connection), else one of the pool's."""
        if conn is not None:
            yield conn
            return
        async with self.engine.connect() as own:
            yield own

    async def history(self, pid: str, limit: int = 50, own: bool = False,
                      conn: AsyncConnection | None = None) -> list[dict[str, Any]]:
        """The player's finished matches, newest first: edition, house rules, opponents, place,
        points, when, and whether it counted (and why not).  A private room's match is named and
        linked only for the player themselves (``own``): its id leads to its room's code (the match
        page, export and replay name it), and that code is the room's only lock."""
        async with self.using(conn) as conn:
            mine = (await conn.execute(HISTORY, {"pid": pid, "limit": limit})).all()
            ids = [row.match_id for row in mine]
            others = (await conn.execute(_OPPONENT_SEATS, {"ids": ids})).all() if ids else []
        known = {(o.match_id, o.seat): o.player_id for o in others}
        out = []
        for row in mine:
            seats = list(row.players) if isinstance(row.players, list) else []
            linked = own or row.public
            out.append({
                # Not the room's code: it is a private room's only lock, and this page is public.
                "match": row.match_id if linked else None, "edition": row.edition, "target": row.target,
                "house": house_on((row.options or {}).get("house") or {}),
                "seat": row.seat, "placement": row.placement, "won": row.won, "points": row.points,
                "rounds": row.rounds, "rounds_won": row.rounds_won, "finished_at": _iso(row.finished_at),
                "counted": row.counted, "reason": row.reason,
                "rating": _change(row),
                "opponents": [{"seat": s, "name": n, "player": known.get((row.match_id, s))}
                              for s, n in enumerate(seats) if s != row.seat],
                "match_url": f"/matches/{row.match_id}" if linked else None,
                "replay_url": f"/api/matches/{row.match_id}/replay" if linked else None,
            })
        return out

    async def standing_rows(self, pid: str, conn: AsyncConnection | None = None) -> list[Any]:
        """The player's standing rows, one an edition they have a settled match in (a page reads
        them once, for their stats and for their standing)."""
        async with self.using(conn) as conn:
            return list((await conn.execute(STANDINGS, {"pid": pid})).all())

    async def stats(self, pid: str, conn: AsyncConnection | None = None,
                    rows: list[Any] | None = None) -> dict[str, dict[str, Any]]:
        """Per edition: the stats of the player's counted matches, and their rating (their
        standing rows, kept as their matches settled: app/persistence/board.py; ``rows`` when
        read already)."""
        if rows is None:
            rows = await self.standing_rows(pid, conn)
        out = {}
        for r in sorted(rows, key=lambda r: r.edition):
            if not r.counted and r.ordinal is None:
                continue  # only matches that did not count there: no stats, as before they settled
            out[r.edition] = {
                "matches": r.counted, "wins": r.wins, "rounds": r.rounds, "rounds_won": r.rounds_won,
                "points_per_round": round(r.round_points / r.rounds, 1) if r.rounds else 0.0,
                "catches_made": r.catches_made, "catches_suffered": r.catches_suffered,
                "challenges_won": r.challenges_won, "longest_streak": r.longest_streak, "streak": r.streak,
                "rating": ({"mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "ordinal": round(r.ordinal, 2),
                            "matches": r.matches} if r.ordinal is not None else None)}
        return out

    async def leaderboard(self, edition: str, page: int, size: int) -> tuple[list[dict[str, Any]], int]:
        """Page ``page`` (from 1) of the edition's ranked players, ``size`` a page, by their
        rating (mu - 3 sigma), and how many are ranked in all.  Who is ranked (enough rated
        matches against enough different players) is kept in the standings as matches settle."""
        skip = (page - 1) * size
        async with self.engine.connect() as conn:
            rows = (await conn.execute(_BOARD, {"edition": edition, "size": size, "skip": skip})).all()
            ranked = await ranked_count(conn, edition)
        return [{"rank": skip + i + 1, "player": r.player_id, "name": r.name, "ordinal": round(r.ordinal, 2),
                 "mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "matches": r.matches, "wins": r.wins,
                 "opponents": r.opponents} for i, r in enumerate(rows)], ranked

    async def group(self, pid: str) -> dict[str, Any]:
        """The people this player played with most in their newest ``GROUP_MATCHES`` counted
        matches, and between every two of them, over each one's newest ``GROUP_MATCHES``:
        matches together and how often each finished ahead."""
        async with self.engine.connect() as conn:
            mine = [m for m, _ in (await conn.execute(_NEWEST, {"pid": pid})).all()]
            shared: Counter[str] = Counter()
            if mine:
                shared.update(dict((await conn.execute(_WITH, {"ids": mine, "pid": pid})).all()))
            most = [p for p, _ in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))]
            members = [pid, *most[:GROUP_SIZE - 1]]
            names = dict((await conn.execute(_NAMES, {"members": members})).all())
            by_match: dict[str, dict[str, int]] = defaultdict(dict)
            for member in members:
                for match_id, placement in (await conn.execute(_NEWEST, {"pid": member})).all():
                    by_match[match_id][member] = placement or 0
        table: dict[tuple[str, str], dict[str, int]] = {}
        for places in by_match.values():
            for x, y in combinations(sorted(places), 2):
                for one, other in ((x, y), (y, x)):
                    cell = table.setdefault((one, other), {"matches": 0, "ahead": 0})
                    cell["matches"] += 1
                    cell["ahead"] += places[one] < places[other]
        people = [{"player": p, "name": names.get(p, "")} for p in members if p in names]
        return {"players": people,
                "cells": [{"row": x, "col": y, **table[(x, y)]} for x in members for y in members
                          if (x, y) in table]}
