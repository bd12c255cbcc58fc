"""The match-download attacks of bench/abuse.py: ``export_flood`` and ``replay_flood``.

Both hammer one finished big match: 10 seats, 9 rounds (a house rule), 8,655 actions, about
the size of the report's (10 seats, 8,590 actions).  Playing it through the server would take
some six minutes under the default limits (25 actions a second in a 10-seat room), so it is
made beforehand (not timed) the fast way that is still the server's: the rules engine plays it,
every seat choosing uniformly among its legal actions (bench/engine.py's ``uniform``), and the
records a room writes for it (``RoomOpened`` ... ``ActionApplied`` ... ``MatchFinished``) go
through the server's own store code (``SqlStore.write``) into the server's SQLite file while it
runs.  The export of it verifies like any other (``tests/web/test_match_builds.py`` checks a
smaller one made the same way).

Each flood: 40 clients from 40 addresses of their own (127.0.3.1 and up), as fast as they go,
each a keep-alive connection asking for the document and reading it as sent (never unzipping
it: the attacker's CPU goes on asking); three in four take gzip, one in four does not (the
server unzips as it sends).  The first request finds nothing built: the build happens during
the flood.  Past ``UNO_MATCH_DOWNLOADS_PER_MINUTE`` (60, in bursts of at most 10 in 10 s) an
address gets 429s.  Figures: requests and answers by status (-1: the request failed), requests
still unanswered 20 s after the flood (then given up), the largest body as sent, the clients'
own p50/p99.  bench/abuse.py measures the honest room until the figures arrive, so over a build
that outlasts the flood too.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from app.engine import ROUND, MatchConfig, apply, new_match, start_next_round
from app.engine.audit import commitment
from app.engine.house import HouseRules
from app.rooms import records as rec
from bench.engine import uniform

BIG_MATCH_ID = "b16b16b16b16b16b"  # the bench's big match (ids are 16 hex digits)
BIG_ROOM = "BIGMATCH"
CLIENTS = 40
GRACE = 20.0  # seconds past the flood that requests still waiting for a build are given before they are dropped


def big_match_records(match_id: str = BIG_MATCH_ID, code: str = BIG_ROOM, seats: int = 10, rounds: int = 9,
                      seed: str = "bench-big-match-0") -> list[rec.Record]:
    """The records a room would have written for a whole match of ``rounds`` rounds, played by
    the engine with random legal moves, in the order a room writes them."""
    config = MatchConfig("classic", seats, house=HouseRules(rounds=rounds))
    match, _ = new_match(config, seed)
    names = tuple(f"Bot {i + 1}" for i in range(seats))

    def dealt() -> rec.RoundStarted:
        secret = match.round_secret(match.round_no)
        return rec.RoundStarted(match_id, match.round_no, str(match.round.seed), match.dealer, secret,
                                commitment(secret))

    out: list[rec.Record] = [
        rec.RoomOpened(code, "Big match", "classic", False, seats, None, {"house_rules": {"rounds": rounds}}),
        rec.SeatsChanged(code, tuple(rec.SeatInfo(i, names[i], hashlib.sha256(f"{seed}/{i}".encode()).hexdigest(),
                                                  True) for i in range(seats))),
        rec.MatchStarted(code, match_id, 1, "classic", config.to_json(), match.target, seed, names),
        dealt(),
        rec.RoomChanged(code, "playing", 0),
    ]
    rng = random.Random(seed)
    while True:
        while match.phase == ROUND:
            assert match.round.pending is not None
            seat = match.round.pending.seat
            apply(match, seat, uniform(match.round, seat, rng))
            entry = match.log[-1]
            out.append(rec.ActionApplied(code, match_id, entry.round, len(match.log), entry.seat,
                                         entry.action.to_json()))
        last = match.history[-1]
        out.append(rec.RoundFinished(match_id, last.number, last.winner, last.points, tuple(match.scores),
                                     last.cards_left))
        if match.phase != "between":
            break
        # A fresh secret per round, as a room draws one (here derived, so that runs repeat).
        start_next_round(match, hashlib.sha256(f"{seed}/{match.round_no + 1}".encode()).hexdigest()[:32])
        out.append(dealt())
    out += [rec.MatchFinished(code, match_id, match.winner), rec.RoomChanged(code, "over", 0), rec.RoomClosed(code)]
    return out


async def store_big_match(data_dir: str) -> int:
    """Write the big match into the server's database (its SQLite file in ``data_dir``), once;
    the number of actions it has."""
    from app.persistence import SqlStore
    from app.persistence.db import create_engine, resolve_url

    store = SqlStore(create_engine(resolve_url(None, Path(data_dir))))
    await store.start()
    try:
        found = await store.match_export(BIG_MATCH_ID)
        if found is None:
            records = big_match_records()
            await store.write(*records, room=BIG_ROOM)
            found = await store.match_export(BIG_MATCH_ID)
        assert found is not None and found["status"] == "over"
        return len(found["actions"])
    finally:
        await store.stop()


def flood(port: int, path: str, seconds: float) -> dict[str, Any]:
    statuses, took = Counter[int](), []
    largest = 0
    deadline = 0.0  # set once every client is made (40 clients take a while to make on a busy machine)

    def client(k: int) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.3.{1 + k}")
        # httpx asks for gzip by default; one client in four asks for the plain document.
        headers = {"Accept-Encoding": "identity"} if k % 4 == 3 else {}
        return httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=60,
                                 headers=headers)

    async def one(http: httpx.AsyncClient) -> None:
        nonlocal largest
        async with http:
            while time.monotonic() < deadline:
                start = time.perf_counter()
                try:
                    async with http.stream("GET", path) as r:
                        # Read as sent, never unzipped here: the attacker spends its CPU on asking.
                        size = sum([len(piece) async for piece in r.aiter_raw()])
                except httpx.HTTPError as err:
                    statuses[-1] += 1
                    took.append(time.perf_counter() - start)
                    if not isinstance(err, httpx.TimeoutException):
                        await asyncio.sleep(0.05)
                    continue
                took.append(time.perf_counter() - start)
                statuses[r.status_code] += 1
                largest = max(largest, size)

    failed = Counter[str]()  # clients that stopped on an error of another kind

    async def all_of_them() -> int:
        nonlocal deadline
        clients = [client(k) for k in range(CLIENTS)]
        deadline = time.monotonic() + seconds
        tasks = [asyncio.create_task(one(http)) for http in clients]
        # Requests still waiting (for a build) GRACE s after the flood are given up, so that the
        # figures reach bench/abuse.py (it waits 30 s for them, measuring the honest room meanwhile).
        done, pending = await asyncio.wait(tasks, timeout=seconds + GRACE)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for task in done:
            if task.exception() is not None:
                failed[repr(task.exception())[:120]] += 1
        return len(pending)

    unanswered = asyncio.run(all_of_them())
    ordered = sorted(took)
    return {"requests": len(took), "requests_per_s": round(len(took) / seconds, 1), "statuses": dict(statuses),
            "unanswered_at_end": unanswered, "clients_failed": dict(failed), "largest_body_bytes": largest,
            "client_p50_ms": round(statistics.median(ordered) * 1000, 1) if ordered else None,
            "client_p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 1)
            if ordered else None}


def export_flood(port: int, code: str, seconds: float) -> dict[str, Any]:
    return flood(port, f"/api/matches/{BIG_MATCH_ID}/export", seconds)


def replay_flood(port: int, code: str, seconds: float) -> dict[str, Any]:
    return flood(port, f"/api/matches/{BIG_MATCH_ID}/replay", seconds)


MATCH_ATTACKS = ("export_flood", "replay_flood")
