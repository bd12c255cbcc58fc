"""The clients of bench/player_memory.py: players' pages and leaderboard pages asked for one at a
time (their latency, from many addresses so no limit is met), and a flood of them from 4 addresses
× 4 keep-alive connections, each asking again the moment its answer is in (raw sockets: the
attacker's CPU goes on asking, not on an HTTP library).  The flood runs in a process of its own."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from typing import Any

import httpx

ADDRESSES = 4
WORKERS = 4  # connections an address


def paths(players: int, pages: int, busiest: str, rng: random.Random) -> list[str]:
    """What a reader of the players' pages asks for: a leaderboard page, a player, their group."""
    pid = busiest if rng.random() < 0.1 else f"p{int(players * rng.random()):07d}"
    return [f"/api/leaderboard/classic?page={rng.randint(1, pages)}", f"/api/players/{pid}",
            f"/api/players/{pid}/group"]


async def sample(port: int, players: int, pages: int, busiest: str, count: int) -> dict[str, list[float]]:
    """``count`` asks of each kind, one at a time, each from one of 200 addresses in turn."""
    rng = random.Random(5)
    took: dict[str, list[float]] = {"leaderboard": [], "player": [], "group": []}
    clients = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10,
                                 transport=httpx.AsyncHTTPTransport(local_address=f"127.0.3.{1 + k}"))
               for k in range(200)]
    try:
        for i in range(count):
            http = clients[i % len(clients)]
            for kind, path in zip(took, paths(players, pages, busiest, rng), strict=True):
                start = time.perf_counter()
                r = await http.get(path)
                took[kind].append(time.perf_counter() - start)
                if r.status_code != 200:
                    raise RuntimeError(f"{path}: {r.status_code} {r.text[:200]}")
    finally:
        for http in clients:
            await http.aclose()
    return took


async def _keep_asking(port: int, address: str, todo: list[str], deadline: float, statuses: Counter[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    n = 0
    try:
        while time.monotonic() < deadline:
            writer.write(f"GET {todo[n % len(todo)]} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            n += 1
            head = await reader.readuntil(b"\r\n\r\n")
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            await reader.readexactly(length)
            statuses[int(head.split(b" ", 2)[1])] += 1
            if b"connection: close" in head.lower():
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    except (OSError, asyncio.IncompleteReadError):
        statuses[0] += 1  # the server closed the connection
    finally:
        writer.close()


def flood(port: int, players: int, pages: int, busiest: str, seconds: float, out: Any) -> None:
    """4 addresses × 4 connections asking for players' and leaderboard pages as fast as answered."""
    rng = random.Random(9)
    todo = [p for _ in range(300) for p in paths(players, pages, busiest, rng)]
    statuses: Counter[int] = Counter()
    deadline = time.monotonic() + seconds

    async def all_of_them() -> None:
        await asyncio.gather(*(_keep_asking(port, f"127.0.4.{1 + a}", todo[w::WORKERS], deadline, statuses)
                               for a in range(ADDRESSES) for w in range(WORKERS)))

    try:
        asyncio.run(all_of_them())
    except Exception as err:  # reported in the figures; the benchmark goes on
        out.send({"flood_error": repr(err)})
        return
    answered = sum(n for s, n in statuses.items() if s)
    out.send({"answers": answered, "answers_per_s": round(answered / seconds, 1),
              "statuses": {str(s): n for s, n in sorted(statuses.items())}})
