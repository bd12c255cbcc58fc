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

ADDRESSES = 4
WORKERS = 4  # connections an address
TIMEOUT_S = 15.0  # an answer not in by then counts as none (status 0)


def paths(players: int, pages: int, busiest: str, rng: random.Random) -> list[str]:
    """What a reader of the players' pages asks for: a leaderboard page, a player, their group."""
    pid = busiest if rng.random() < 0.1 else f"p{int(players * rng.random()):07d}"
    return [
        f"/api/leaderboard/classic?page={rng.randint(1, pages)}",
        f"/api/players/{pid}",
        f"/api/players/{pid}/group",
    ]


async def _get(port: int, address: str, path: str) -> tuple[int, bytes]:
    """One request on a connection of its own from ``address`` (closed after the answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = await asyncio.wait_for(reader.read(-1), TIMEOUT_S)
    finally:
        writer.close()
    return int(answer.split(b" ", 2)[1]), answer


def sample(port: int, players: int, pages: int, busiest: str, count: int, out: Any) -> None:
    """``count`` asks of each kind, one at a time, each from one of 200 addresses in turn (in a
    process of its own: the honest room's clients are never held up by this one's work)."""
    rng = random.Random(5)
    took: dict[str, list[float]] = {"leaderboard": [], "player": [], "group": []}

    async def ask() -> None:
        for i in range(count):
            address = f"127.0.3.{1 + i % 200}"
            for kind, path in zip(took, paths(players, pages, busiest, rng), strict=True):
                start = time.perf_counter()
                status, answer = await _get(port, address, path)
                took[kind].append(time.perf_counter() - start)
                if status != 200:
                    raise RuntimeError(f"{path}: {answer[:300]!r}")

    try:
        asyncio.run(ask())
    except Exception as err:  # reported in the figures; the benchmark goes on
        out.send({"sample_error": repr(err)})
        return
    out.send(took)


async def _keep_asking(
    port: int, address: str, todo: list[str], deadline: float, statuses: Counter[int]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    n = 0
    try:
        while time.monotonic() < deadline:
            writer.write(f"GET {todo[n % len(todo)]} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            n += 1
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT_S)
            length = next(
                (
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ),
                0,
            )
            await reader.readexactly(length)
            statuses[int(head.split(b" ", 2)[1])] += 1
            if b"connection: close" in head.lower():
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    except (OSError, asyncio.IncompleteReadError, TimeoutError):
        statuses[0] += 1  # the server closed the connection, or kept it without an answer
    finally:
        writer.close()


def flood(port: int, players: int, pages: int, busiest: str, seconds: float, out: Any) -> None:
    """4 addresses × 4 connections asking for players' and leaderboard pages as fast as answered."""
    rng = random.Random(9)
    todo = [p for _ in range(300) for p in paths(players, pages, busiest, rng)]
    statuses: Counter[int] = Counter()
    deadline = time.monotonic() + seconds

    async def all_of_them() -> None:
        await asyncio.gather(
            *(
                _keep_asking(port, f"127.0.4.{1 + a}", todo[w::WORKERS], deadline, statuses)
                for a in range(ADDRESSES)
                for w in range(WORKERS)
            )
        )

    try:
        asyncio.run(all_of_them())
    except Exception as err:  # reported in the figures; the benchmark goes on
        out.send({"flood_error": repr(err)})
        return
    answered = sum(n for s, n in statuses.items() if s)
    out.send(
        {
            "answers": answered,
            "answers_per_s": round(answered / seconds, 1),
            "statuses": {str(s): n for s, n in sorted(statuses.items())},
        }
    )
