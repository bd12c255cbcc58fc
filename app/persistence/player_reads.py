"""What the players' pages show: a player's history and stats, an edition's leaderboard, and
the head-to-head table of a player's group.  Read from the shared database on every ask, so
every node of a cluster shows the same numbers."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import UTC, datetime
from itertools import combinations
from typing import Any

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import aliased

from app.engine.house import DEFAULTS

from .models import MatchRow, RoomRow
from .player_models import PlayerMatchRow, PlayerRatingRow, PlayerRow
from .ratings import Rating

GROUP_SIZE = 8  # a player and the seven people they played with most

# The statements built per call with an alias or an ``in_`` over a list are built once here, their
# values bound when they run: built per call, each leaves a reference cycle of SQLAlchemy's behind,
# which a busy server's collector never frees (app/gc_policy.py; tests/hardening/test_no_cycles_sql.py).
_A, _B = aliased(PlayerMatchRow), aliased(PlayerMatchRow)
_OPPONENTS = (select(_A.player_id, func.count(func.distinct(_B.player_id)))
              .join(_B, and_(_A.match_id == _B.match_id, _A.player_id != _B.player_id))
              .where(_A.edition == bindparam("edition"), _A.mu_after.is_not(None), _B.mu_after.is_not(None))
              .group_by(_A.player_id))
_RATED = (select(*PlayerRatingRow.__table__.c, PlayerRow.name)
          .join(PlayerRow, PlayerRow.id == PlayerRatingRow.player_id)
          .where(PlayerRatingRow.edition == bindparam("edition"), PlayerRatingRow.matches >= bindparam("min_matches"))
          .order_by(PlayerRatingRow.ordinal.desc(), PlayerRatingRow.matches.desc()))
_OPPONENT_SEATS = (select(PlayerMatchRow.match_id, PlayerMatchRow.seat, PlayerMatchRow.player_id)
                   .where(PlayerMatchRow.match_id.in_(bindparam("ids", expanding=True))))
_NAMES = select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(bindparam("members", expanding=True)))
_PLACES = (select(PlayerMatchRow.match_id, PlayerMatchRow.player_id, PlayerMatchRow.placement)
           .where(PlayerMatchRow.player_id.in_(bindparam("members", expanding=True)), PlayerMatchRow.counted.is_(True)))


def _iso(moment: Any) -> str | None:
    if moment is None:
        return None
    aware: datetime = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)  # SQLite drops it
    return aware.isoformat()


def house_on(house: dict[str, Any]) -> dict[str, Any]:
    """The house rules a match was played with that are on: not at their default (stored rules
    hold every key; the preset's name is for display)."""
    return {k: v for k, v in house.items() if k in DEFAULTS and v != DEFAULTS[k]}


def stats_of(rows: list[Any]) -> dict[str, Any]:
    """The stats of one edition from a player's counted history lines, oldest first."""
    streak = best = 0
    for row in rows:
        streak = streak + 1 if row.won else 0
        best = max(best, streak)
    rounds = sum(r.rounds for r in rows)
    points = sum(r.round_points for r in rows)
    return {"matches": len(rows), "wins": sum(1 for r in rows if r.won),
            "rounds": rounds, "rounds_won": sum(r.rounds_won for r in rows),
            "points_per_round": round(points / rounds, 1) if rounds else 0.0,
            "catches_made": sum(r.catches_made for r in rows),
            "catches_suffered": sum(r.catches_suffered for r in rows),
            "challenges_won": sum(r.challenges_won for r in rows),
            "longest_streak": best, "streak": streak}


def _change(row: Any) -> float | None:
    """How much a rated match moved the player's leaderboard figure (mu - 3 sigma)."""
    if row.mu_after is None or row.mu_before is None:
        return None
    return round(Rating(row.mu_after, row.sigma_after).ordinal - Rating(row.mu_before, row.sigma_before).ordinal, 2)


class PlayerReads:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def history(self, pid: str, limit: int = 50, own: bool = False) -> list[dict[str, Any]]:
        """The player's finished matches, newest first: edition, house rules, opponents, place,
        points, when, and whether it counted (and why not).  A private room's match is named and
        linked only for the player themselves (``own``): its id leads to its room's code (the match
        page, export and replay name it), and that code is the room's only lock."""
        async with self.engine.connect() as conn:
            mine = (await conn.execute(
                select(*PlayerMatchRow.__table__.c, MatchRow.players, MatchRow.options, MatchRow.target,
                       RoomRow.public)
                .join(MatchRow, MatchRow.id == PlayerMatchRow.match_id)
                .join(RoomRow, RoomRow.code == MatchRow.room_code)
                .where(PlayerMatchRow.player_id == pid, PlayerMatchRow.settled.is_(True))
                .order_by(PlayerMatchRow.finished_at.desc()).limit(limit))).all()
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

    async def stats(self, pid: str) -> dict[str, dict[str, Any]]:
        """Per edition: the stats of the player's counted matches, and their rating."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(PlayerMatchRow).where(PlayerMatchRow.player_id == pid,
                                                                     PlayerMatchRow.counted.is_(True))
                                       .order_by(PlayerMatchRow.finished_at))).all()
            ratings = (await conn.execute(select(PlayerRatingRow).where(PlayerRatingRow.player_id == pid))).all()
            rated = {r.edition: r for r in ratings}
        by_edition: dict[str, list[Any]] = defaultdict(list)
        for row in rows:
            by_edition[row.edition].append(row)
        out = {}
        for edition in sorted(set(by_edition) | set(rated)):
            stats = stats_of(by_edition.get(edition, []))
            r = rated.get(edition)
            stats["rating"] = ({"mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "ordinal": round(r.ordinal, 2),
                                "matches": r.matches} if r is not None else None)
            out[edition] = stats
        return out

    async def leaderboard(self, edition: str, top: int, min_matches: int, min_opponents: int) -> list[dict[str, Any]]:
        """The edition's best ratings (mu - 3 sigma), of players with at least ``min_matches``
        rated matches against at least ``min_opponents`` different players."""
        async with self.engine.connect() as conn:
            opponents = dict((await conn.execute(_OPPONENTS, {"edition": edition})).all())
            rows = (await conn.execute(_RATED, {"edition": edition, "min_matches": min_matches})).all()
            wins = dict((await conn.execute(
                select(PlayerMatchRow.player_id, func.count()).where(PlayerMatchRow.edition == edition,
                                                                     PlayerMatchRow.counted.is_(True),
                                                                     PlayerMatchRow.won.is_(True))
                .group_by(PlayerMatchRow.player_id))).all())
        out: list[dict[str, Any]] = []
        for rating in rows:
            if opponents.get(rating.player_id, 0) < min_opponents:
                continue
            out.append({"rank": len(out) + 1, "player": rating.player_id, "name": rating.name,
                        "ordinal": round(rating.ordinal, 2), "mu": round(rating.mu, 2),
                        "sigma": round(rating.sigma, 2), "matches": rating.matches,
                        "wins": wins.get(rating.player_id, 0), "opponents": opponents.get(rating.player_id, 0)})
            if len(out) >= top:
                break
        return out

    async def group(self, pid: str) -> dict[str, Any]:
        """The people this player played with most (counted matches), and between every two of
        them: matches together and how often each finished ahead."""
        async with self.engine.connect() as conn:
            mine = select(PlayerMatchRow.match_id).where(PlayerMatchRow.player_id == pid,
                                                         PlayerMatchRow.counted.is_(True))
            shared = Counter(dict((await conn.execute(
                select(PlayerMatchRow.player_id, func.count()).where(PlayerMatchRow.match_id.in_(mine),
                                                                     PlayerMatchRow.player_id != pid,
                                                                     PlayerMatchRow.counted.is_(True))
                .group_by(PlayerMatchRow.player_id))).all()))
            most = [p for p, _ in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))]
            members = [pid, *most[:GROUP_SIZE - 1]]
            names = dict((await conn.execute(_NAMES, {"members": members})).all())
            rows = (await conn.execute(_PLACES, {"members": members})).all()
        by_match: dict[str, dict[str, int]] = defaultdict(dict)
        for row in rows:
            by_match[row.match_id][row.player_id] = row.placement or 0
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
