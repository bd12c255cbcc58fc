"""Attacks on the server's edges, for bench/abuse.py (which runs each in a process of its own):

- ``qr_flood``: ``GET /rooms/{code}/qr.svg`` of the honest room from 4 connections on 4 addresses
  as fast as they go, two with a 2,200-character ``Host``, two with ordinary LAN hosts
  (``192.168.x.y:8000``), a new one each request so that no image is ever drawn twice
  (the report: 9 requests/s with a long Host made an honest action wait 3 s);
- ``nul_id_storm``: in the attacker's own room on the same server (two seats and a spectator),
  one seat sends actions and chat lines whose ``id`` holds a NUL (``"x\\u0000"``) as fast as its
  message rate allows (on Postgres each one once closed every socket of the room with 1012 and
  rebuilt it).  Counted: the answers it got (and the closes of its socket), and whether the
  other seat's and the spectator's sockets were closed (they must not be: each answers a ping
  at the end on the connection it opened).

- ``http_flood``: ``GET /api/house-rules`` (a cheap, cached answer: any page's request would do)
  from 8 keep-alive connections of ONE address, each sending its next request as soon as the
  last answer is in, as fast as a client written to flood can (raw sockets, not an HTTP library
  that would spend the attacker's CPU): the report's 300 to 1,400 requests/s from one address
  lifted an honest p99 from 16 to 43 ms on a quiet machine and from 45 to 146 ms on a busy one.

And ``postgres_database``: the throwaway Postgres database ``bench/abuse.py --postgres`` runs on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx

LONG_HOST = "h" * 2200
ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"


def qr_flood(port: int, code: str, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    statuses: Counter[str] = Counter()
    calls = 0

    async def one(k: int) -> None:
        nonlocal calls
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{20 + k}")
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=10) as http:
            n = 0
            while time.monotonic() < deadline:
                n += 1
                host = LONG_HOST if k < 2 else f"192.168.{k}.{n % 250 + 1}:{8000 + n // 250}"
                r = await http.get(f"/rooms/{code}/qr.svg", headers={"host": host})
                calls += 1
                statuses[f"{'long' if k < 2 else 'lan'} {r.status_code}"] += 1

    async def all_four() -> None:
        await asyncio.gather(*(one(k) for k in range(4)))

    asyncio.run(all_four())
    return {"calls": calls, "calls_per_s": round(calls / seconds, 1), "statuses": dict(statuses),
            "5xx": sum(n for s, n in statuses.items() if s.split()[1].startswith("5"))}


def nul_id_storm(port: int, code: str, seconds: float) -> dict[str, Any]:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from bench.abuse_sockets import Seat  # the late_uno attacker's blocking seat client

    deadline = time.monotonic() + seconds
    transport = httpx.HTTPTransport(local_address="127.0.0.30")
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport) as http:
        room = http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "public": False}).json()["code"]
        seats = [Seat(port, room, http.post(f"/api/rooms/{room}/players", json={"name": f"N{i}"}).json()["token"])
                 for i in range(2)]
    for s in seats:
        s.connect()
    seats[0].request({"type": "start"})
    watcher = connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}", source_address=("127.0.0.31", 0), max_size=2**22)
    attacker, victim = seats
    answers: Counter[str] = Counter()
    sent, closed_on_attacker, unanswered = 0, 0, 0
    # 100 messages per 20 s per seat (UNO_SOCKET_RATE_MESSAGES): one every 0.2 s and a little.
    pace = 20 / 100 * 1.05
    while time.monotonic() < deadline:
        sent += 1
        frame = ({"type": "action", "id": f"a{sent}\u0000", "action": {"kind": "draw"}} if sent % 2
                 else {"type": "chat", "id": f"c{sent}\u0000", "text": "hi"})
        try:
            attacker.ws.send(json.dumps(frame))
            reply = attacker.recv_until(lambda f: f["type"] in ("ack", "error"))
            answers[str(reply.get("code", reply["type"]))] += 1
        except TimeoutError:
            unanswered += 1
        except ConnectionClosed as err:
            closed_on_attacker += 1
            answers[f"closed {err.rcvd.code if err.rcvd else None}"] += 1
            with contextlib.suppress(Exception):
                attacker.connect()
        time.sleep(max(0.0, pace - 0.001))
    # The others' sockets: open, and answering on the connection they had all along.
    others_closed: Counter[str] = Counter()
    for ws in (victim.ws, watcher):
        try:
            ws.send(json.dumps({"type": "ping", "id": "still-here"}))
            while json.loads(ws.recv(timeout=5)).get("id") != "still-here":
                pass
        except TimeoutError:
            others_closed["unanswered"] += 1
        except ConnectionClosed as err:
            others_closed[str(err.rcvd.code if err.rcvd else None)] += 1
    for ws in (attacker.ws, victim.ws, watcher):
        with contextlib.suppress(Exception):
            ws.close()
    return {"sent": sent, "answers": dict(answers), "unanswered": unanswered, "attacker_closed": closed_on_attacker,
            "others_closed": sum(others_closed.values()), "others_close_codes": dict(others_closed)}


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh Postgres database on 127.0.0.1:5432 (DATABASE_URL for the server), dropped afterwards."""
    import asyncpg

    name = f"uno_bench_{uuid.uuid4().hex[:12]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(ADMIN_DSN, timeout=5)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _keep_asking(port: int, path: str, deadline: float, statuses: Counter[int]) -> None:
    """One keep-alive connection from 127.0.0.40 asking for ``path`` again and again until ``deadline``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.40", 0))
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    try:
        while time.monotonic() < deadline:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            statuses[status] += 1
            if b"connection: close" in head.lower():
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.40", 0))
    except (OSError, asyncio.IncompleteReadError):
        statuses[0] += 1  # the server closed the connection
    finally:
        writer.close()


def http_flood(port: int, code: str, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    statuses: Counter[int] = Counter()

    async def eight() -> None:
        await asyncio.gather(*(_keep_asking(port, "/api/house-rules", deadline, statuses) for _ in range(8)))

    asyncio.run(eight())
    calls = sum(n for s, n in statuses.items() if s)
    return {"calls": calls, "calls_per_s": round(calls / seconds, 1),
            "statuses": {str(s): n for s, n in statuses.items()}}
