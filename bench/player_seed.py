"""A server's player memory made up in bulk, straight into the store's tables: players, the rooms
and finished matches they played, each player's history lines (settled, counted, rated) and the
ratings those lines end on, as settlements would have left them.  For bench/player_memory.py
(20,000 players, 100,000 rated lines) and the migration's tests (a few dozen).

Not the engine's ratings (openskill over 25,000 matches would be the seeding's whole time): each
rated line moves mu by its place and shrinks sigma, so ratings spread and differ, which is all a
leaderboard's reads care about.  Players are picked unevenly (a few play very often), so some
players' pages have thousands of lines and most a handful.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from app.persistence.models import MatchRow, RoomRow
from app.persistence.player_models import PlayerMatchRow, PlayerRatingRow, PlayerRow, SettledMatchRow

SEATS = 4  # players a made-up match
MATCHES_A_ROOM = 100
CHUNK = 5000  # rows an insert statement
EDITIONS = ("classic", "classic", "classic", "classic", "mario_kart")  # most on the classic board


def player_id(i: int) -> str:
    return f"p{i:07d}"


async def _insert(engine: AsyncEngine, table: Any, rows: list[dict[str, Any]]) -> None:
    for start in range(0, len(rows), CHUNK):
        async with engine.begin() as conn:
            await conn.execute(insert(table), rows[start : start + CHUNK])


async def seed(engine: AsyncEngine, players: int, lines: int, rng_seed: int = 44) -> dict[str, Any]:
    """Make ``players`` players and about ``lines`` rated history lines (``SEATS`` a match)."""
    rng = random.Random(rng_seed)
    matches = max(1, lines // SEATS)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    await _insert(engine, PlayerRow, [{"id": player_id(i), "name": f"Player {i}"} for i in range(players)])
    rooms = (matches + MATCHES_A_ROOM - 1) // MATCHES_A_ROOM
    await _insert(
        engine,
        RoomRow,
        [
            {
                "code": f"R{r:07d}",
                "name": "Seeded",
                "edition": "classic",
                "public": True,
                "max_seats": SEATS,
                "target": 500,
                "options": {},
                "status": "closed",
                "host": 0,
            }
            for r in range(rooms)
        ],
    )
    match_rows: list[dict[str, Any]] = []
    settled: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    ratings: dict[tuple[str, str], list[float]] = {}  # mu, sigma, matches
    for m in range(matches):
        edition = EDITIONS[m % len(EDITIONS)]
        seated: set[int] = set()
        while len(seated) < min(SEATS, players):
            seated.add(int(players * rng.random() ** 2))  # uneven: low numbers play often
        finished = start + timedelta(seconds=30 * m)
        mid = f"m{m:09d}"
        match_rows.append(
            {
                "id": mid,
                "room_code": f"R{m // MATCHES_A_ROOM:07d}",
                "number": m % MATCHES_A_ROOM + 1,
                "edition": edition,
                "options": {},
                "target": 500,
                "seed": "seeded",
                "players": [f"Player {i}" for i in sorted(seated)],
                "status": "over",
                "winner": 0,
                "finished_at": finished,
            }
        )
        settled.append({"match_id": mid, "edition": edition, "rated": True, "settled_at": finished})
        for seat, i in enumerate(sorted(seated)):
            pid, place = player_id(i), rng.randint(1, SEATS)
            mu, sigma, n = ratings.get((pid, edition), [25.0, 25 / 3, 0])
            after = (mu + (SEATS / 2 + 0.5 - place) * 0.6, max(0.8, sigma * 0.96))
            ratings[(pid, edition)] = [after[0], after[1], n + 1]
            history.append(
                {
                    "player_id": pid,
                    "match_id": mid,
                    "seat": seat,
                    "edition": edition,
                    "settled": True,
                    "counted": True,
                    "placement": place,
                    "won": place == 1,
                    "points": rng.randint(0, 500),
                    "rounds": 2,
                    "rounds_won": int(place == 1) + rng.randint(0, 1),
                    "round_points": rng.randint(0, 300),
                    "catches_made": rng.randint(0, 2),
                    "catches_suffered": rng.randint(0, 2),
                    "challenges_won": rng.randint(0, 1),
                    "mu_before": mu,
                    "sigma_before": sigma,
                    "mu_after": after[0],
                    "sigma_after": after[1],
                    "finished_at": finished,
                }
            )
    await _insert(engine, MatchRow, match_rows)
    await _insert(engine, SettledMatchRow, settled)
    await _insert(engine, PlayerMatchRow, history)
    await _insert(
        engine,
        PlayerRatingRow,
        [
            {
                "player_id": pid,
                "edition": ed,
                "mu": mu,
                "sigma": sigma,
                "ordinal": mu - 3 * sigma,
                "matches": int(n),
            }
            for (pid, ed), (mu, sigma, n) in ratings.items()
        ],
    )
    busiest = max(ratings, key=lambda k: ratings[k][2])
    return {
        "players": players,
        "matches": matches,
        "lines": len(history),
        "busiest": busiest[0],
        "busiest_lines": int(
            sum(ratings[(busiest[0], e)][2] for e in set(EDITIONS) if (busiest[0], e) in ratings)
        ),
    }
