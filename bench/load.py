"""Load benchmark: N rooms × 4 bot clients playing real games over loopback WebSockets.

    uv run python bench/load.py --rooms 50 --duration 20          # starts its own server
    uv run python bench/load.py --url http://127.0.0.1:8000 ...   # or targets a running one
                                                                   # (started with UNO_ECHO_ENDPOINT=1)

Bots keep a view from snapshot + patches exactly like a real client, act on their own turn
(a random legal move, saying UNO! with the play when they can), say ready between rounds,
and the host starts a rematch when a match ends, so rooms play for the whole run.

Latency is measured from sending an action to the last of the room's 4 sockets receiving
the patch it caused.  Then the same number of clients run a closed loop against the
trivial ``/ws/echo`` endpoint on the same server: ``echo_ratio`` is game actions/s over
echo messages/s.  The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")


# ---------------------------------------------------------------------- a small JSON Patch applier


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def apply_ops(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """add / remove / replace, which is all the server sends (docs/PROTOCOL.md)."""
    for op in ops:
        path = op["path"]
        if path == "":
            doc = op["value"]
            continue
        parts = [_unescape(p) for p in path[1:].split("/")]
        target = doc
        for p in parts[:-1]:
            target = target[int(p)] if isinstance(target, list) else target[p]
        last = parts[-1]
        kind = op["op"]
        if isinstance(target, list):
            i = len(target) if last == "-" else int(last)
            if kind == "add":
                target.insert(i, op["value"])
            elif kind == "remove":
                del target[i]
            else:
                target[i] = op["value"]
        elif kind == "remove":
            del target[last]
        else:
            target[last] = op["value"]
    return doc


# ---------------------------------------------------------------------- bots


@dataclass
class Room:
    code: str
    bots: list[Bot] = field(default_factory=list)
    inflight: float | None = None
    waiting: set[int] = field(default_factory=set)


@dataclass
class Stats:
    measuring: bool = False
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    frames: int = 0


class Bot:
    def __init__(self, room: Room, index: int, token: str, ws_url: str, stats: Stats, rng: random.Random) -> None:
        self.room, self.index, self.token, self.ws_url = room, index, token, ws_url
        self.stats, self.rng = stats, rng
        self.view: Any = None
        self.seq = 0
        self.busy = False
        self.next_id = 0
        self.ws: ClientConnection | None = None

    async def run(self, stop: asyncio.Event) -> None:
        async with connect(f"{self.ws_url}?token={self.token}", max_size=2**22) as ws:
            self.ws = ws
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    await self.decide()
                    continue
                await self.on_frame(json.loads(text))

    async def on_frame(self, frame: dict[str, Any]) -> None:
        t = frame["type"]
        self.stats.frames += 1
        if t == "snapshot":
            self.view, self.seq = frame["view"], frame["seq"]
        elif t == "patch":
            if frame["seq"] != self.seq + 1:
                raise RuntimeError(f"seq gap {self.seq} -> {frame['seq']}")
            self.view = apply_ops(self.view, frame["ops"])
            self.seq = frame["seq"]
            room = self.room
            if room.inflight is not None and self.index in room.waiting:
                room.waiting.discard(self.index)
                if not room.waiting:
                    if self.stats.measuring:
                        self.stats.latencies.append(time.perf_counter() - room.inflight)
                    room.inflight = None
        elif t in ("ack", "error"):
            self.busy = False
            if t == "ack" and str(frame.get("id", "")).startswith("a") and self.stats.measuring:
                self.stats.actions += 1
            if t == "error":
                self.stats.errors += 1
        await self.decide()

    async def send(self, msg: dict[str, Any], prefix: str) -> None:
        assert self.ws is not None
        self.next_id += 1
        self.busy = True
        await self.ws.send(json.dumps({**msg, "id": f"{prefix}{self.next_id}"}))

    async def decide(self) -> None:
        v = self.view
        if self.busy or v is None:
            return
        status = v["room"]["status"]
        me = v["you"]
        if status == "between" and not v["players"][me]["ready"]:
            await self.send({"type": "ready"}, "r")
        elif status == "over" and v["players"][me]["host"]:
            await self.send({"type": "rematch"}, "m")
        elif status == "playing":
            table = v["game"]["table"]
            pending = table["pending"]
            if pending is None or pending["seat"] != me:
                return
            legal = [a for a in table["legal"] if a["kind"] not in ("catch", "declare_uno")]
            if not legal:
                return
            plays = [a for a in legal if a["kind"] not in ("draw", "keep")]
            pool = plays if plays and self.rng.random() < 0.9 else legal
            with_uno = [a for a in pool if a.get("uno")]
            action = self.rng.choice(with_uno or pool)
            self.room.inflight = time.perf_counter()
            self.room.waiting = {b.index for b in self.room.bots}
            await self.send({"type": "action", "action": action}, "a")


async def setup_rooms(http: str, ws: str, rooms: int, seats: int, stats: Stats) -> list[Room]:
    out: list[Room] = []
    async with httpx.AsyncClient(base_url=http, timeout=30) as client:
        for i in range(rooms):
            r = await client.post("/api/rooms", json={"variant": EDITIONS[i % len(EDITIONS)], "public": False,
                                                      "max_seats": seats, "target_score": 1})
            r.raise_for_status()
            room = Room(r.json()["code"])
            for s in range(seats):
                j = await client.post(f"/api/rooms/{room.code}/players", json={"name": f"bot{s}"})
                j.raise_for_status()
                room.bots.append(Bot(room, s, j.json()["token"], f"{ws}/ws/rooms/{room.code}", stats,
                                     random.Random(f"{i}/{s}")))
            out.append(room)
    return out


async def game_phase(http: str, ws: str, rooms: int, seats: int, duration: float, warmup: float) -> dict[str, Any]:
    stats = Stats()
    room_list = await setup_rooms(http, ws, rooms, seats, stats)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(b.run(stop)) for room in room_list for b in room.bots]
    await asyncio.sleep(0.5)  # everyone connected and holding a snapshot
    for room in room_list:
        await room.bots[0].send({"type": "start"}, "s")
    await asyncio.sleep(warmup)
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    stop.set()
    done, _ = await asyncio.wait(tasks, timeout=10)
    failures = [t.exception() for t in done if t.exception() is not None]
    lat = sorted(stats.latencies)
    return {
        "actions_per_s": round(stats.actions / elapsed, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 2) if lat else None,
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2) if lat else None,
        "actions": stats.actions,
        "errors": stats.errors,
        "client_failures": len(failures),
    }


async def echo_phase(ws: str, sockets: int, duration: float, warmup: float) -> float:
    count = 0
    measuring = False
    stop = asyncio.Event()
    payload = json.dumps({"type": "action", "id": "a1", "action": {"kind": "play", "card": 12, "colour": "red"}})

    async def client() -> None:
        nonlocal count
        async with connect(f"{ws}/ws/echo") as conn:
            while not stop.is_set():
                await conn.send(payload)
                await conn.recv()
                if measuring:
                    count += 1

    tasks = [asyncio.create_task(client()) for _ in range(sockets)]
    await asyncio.sleep(warmup)
    measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(duration)
    measuring = False
    elapsed = time.perf_counter() - t0
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    return count / elapsed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def start_server(database_url: str = "memory://") -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "UNO_BETWEEN_ROUNDS_SECONDS": "1", "UNO_MAX_ROOMS": "100000", "UNO_ECHO_ENDPOINT": "1",
           "DATABASE_URL": database_url,
           # Every bot is 127.0.0.1 and plays as fast as it can: lift the per-address and per-socket limits.
           "UNO_CREATE_ROOMS_PER_MINUTE": "1000000", "UNO_JOINS_PER_MINUTE": "1000000",
           "UNO_SOCKET_RATE_MESSAGES": "1000000"}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port",
                             str(port), "--log-level", "warning"], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/healthz").status_code == 200:
                return proc, url
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def postgres_database() -> tuple[str, str] | None:
    """A fresh Postgres database for the durable run (admin URL, database URL), if one answers."""
    import asyncpg  # the app's own driver

    admin = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"uno_bench_{os.getpid()}"

    async def create() -> None:
        conn = await asyncpg.connect(admin, timeout=5)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    try:
        asyncio.run(create())
    except (OSError, asyncpg.PostgresError, TimeoutError) as err:
        print(f"no Postgres for the durable run: {err}", file=sys.stderr)
        return None
    return admin, admin.rsplit("/", 1)[0] + "/" + name


def drop_postgres_database(admin: str, url: str) -> None:
    import asyncpg

    async def drop() -> None:
        conn = await asyncpg.connect(admin, timeout=5)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
        finally:
            await conn.close()

    asyncio.run(drop())


def run_mode(database_url: str, args: argparse.Namespace, echo: bool) -> tuple[dict[str, Any], float | None,
                                                                             float | None]:
    """One server on this store: the game phase, its RSS, and (optionally) the echo phase."""
    proc, url = start_server(database_url)
    ws = url.replace("http", "ws", 1)
    try:
        game = asyncio.run(game_phase(url, ws, args.rooms, args.seats, args.duration, args.warmup))
        rss = rss_mib(proc.pid)
        echo_rate = asyncio.run(echo_phase(ws, args.rooms * args.seats, args.duration, args.warmup)) if echo else None
    finally:
        proc.terminate()
        proc.wait(10)
    return game, rss, echo_rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--duration", type=float, default=20.0, help="seconds measured, per phase")
    ap.add_argument("--warmup", type=float, default=2.0)
    ap.add_argument("--url", help="target a running server (http://host:port) instead of starting one")
    ap.add_argument("--no-durable", action="store_true", help="skip the SQLite and Postgres runs")
    args = ap.parse_args()

    echo: float | None
    rss: float | None
    if args.url is not None:
        ws = args.url.replace("http", "ws", 1)
        game = asyncio.run(game_phase(args.url, ws, args.rooms, args.seats, args.duration, args.warmup))
        echo = asyncio.run(echo_phase(ws, args.rooms * args.seats, args.duration, args.warmup))
        rss = None
    else:
        game, rss, echo = run_mode("memory://", args, echo=True)
    print(f"in memory: {game}", file=sys.stderr)
    result: dict[str, Any] = {
        "rooms": args.rooms,
        "sockets": args.rooms * args.seats,
        **game,
        "server_rss_mib": rss,
        "echo_msgs_per_s": round(echo, 1) if echo else None,
        "echo_ratio": round(game["actions_per_s"] / echo, 3) if echo else None,
        "duration_s": args.duration,
    }
    if args.url is None and not args.no_durable:
        # Durable modes: every action is committed (group commit) before it is acknowledged.
        with tempfile.TemporaryDirectory() as tmp:
            sqlite, _, _ = run_mode(f"sqlite:///{tmp}/bench.sqlite3", args, echo=False)
        print(f"sqlite: {sqlite}", file=sys.stderr)
        result["durable_ratio_sqlite"] = round(sqlite["actions_per_s"] / game["actions_per_s"], 3)
        result["p99_ms_sqlite"] = sqlite["p99_ms"]
        pg = postgres_database()
        if pg is not None:
            admin, pg_url = pg
            try:
                postgres, _, _ = run_mode(pg_url, args, echo=False)
            finally:
                drop_postgres_database(admin, pg_url)
            print(f"postgres: {postgres}", file=sys.stderr)
            result["durable_ratio_postgres"] = round(postgres["actions_per_s"] / game["actions_per_s"], 3)
            result["p99_ms_postgres"] = postgres["p99_ms"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
