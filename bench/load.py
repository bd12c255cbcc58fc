"""Load benchmark: N rooms × 4 bot clients playing real games over loopback WebSockets.

    uv run python bench/load.py --rooms 1000 --pace human --stores memory  # 4,000 players, ~2 s a turn
    uv run python bench/load.py --rooms 1000 --pace full --stores memory   # as fast as they can, + echo
    uv run python bench/load.py --rooms 50                                  # memory, SQLite and Postgres
    uv run python bench/load.py --url http://127.0.0.1:8000 ...             # a running server
                                                                            # (started with UNO_ECHO_ENDPOINT=1)

The server is one ``python -m app serve`` process, started as scripts/run.sh starts it.  The
clients run in ``--workers`` separate processes (each owns whole rooms), so they do not share
the server's interpreter.  Bots keep a view from snapshot + patches exactly like a real client,
act on their own turn (a random legal move, saying UNO! with the play when they can), say
ready between rounds, and the host starts a rematch when a match ends, so rooms play for the
whole run.  ``--pace human`` waits a think time (uniform, mean ``--think`` seconds) before each
move; ``--pace full`` moves as soon as the turn comes.

Latency is from sending an action to the last of the room's 4 sockets receiving the patch it
caused.  ``rss_kib_per_player`` is the server's whole resident memory over the players
connected.  ``server_us_per_action`` is the server process's CPU time per action.

At full speed two baselines follow on the same server, with the same sockets:
- echo: each socket in a closed loop on ``/ws/echo`` (one frame in, one back):
  ``echo_ratio`` = game actions/s over echo messages/s;
- relay: the sockets in groups of ``--seats`` on ``/ws/echo?group=``, one message in flight
  per group, relayed to every member — a room's traffic with no game behind it:
  ``relay_ratio`` = game actions/s over relayed messages/s.
The ``*_cost_ratio`` figures are the same ratios from the server's CPU time alone.
``echo_ratio_ceiling`` = relayed messages/s over echo messages/s: the ``echo_ratio`` a room
that cost nothing would score, its traffic alone (a game sends more: the mover's answer too).
The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is importable from the project root
from bench.wire import WireClient  # noqa: E402

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
class Window:
    """Whether the measured seconds are running (read by the clients' callbacks)."""
    on: bool = False


@dataclass
class Stats(Window):
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    slowest: list[tuple[float, float]] = field(default_factory=list)  # (wall clock, seconds) past 50 ms
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    frames: int = 0


class Bot:
    """One seat's client: synchronous callbacks on a ``WireClient``."""

    def __init__(self, room: Room, index: int, token: str, ws_url: str, stats: Stats, rng: random.Random,
                 think: float) -> None:
        self.room, self.index, self.token, self.ws_url = room, index, token, ws_url
        self.stats, self.rng, self.think = stats, rng, think
        self.view: Any = None
        self.seq = 0
        self.busy = False  # a message of ours is unanswered, or a move is being thought about
        self.next_id = 0
        self.wire: WireClient | None = None
        self.failure: str | None = None

    async def open(self) -> None:
        self.wire = await WireClient.connect(f"{self.ws_url}?token={self.token}", self.on_text)

    def on_text(self, text: str) -> None:
        try:
            self.on_frame(orjson.loads(text))
        except Exception as err:  # reported at the end, the run goes on
            self.failure = self.failure or repr(err)

    def on_frame(self, frame: dict[str, Any]) -> None:
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
                    if self.stats.on:
                        took = time.perf_counter() - room.inflight
                        self.stats.latencies.append(took)
                        if took > 0.05:
                            self.stats.slowest.append((time.time(), took))
                    room.inflight = None
        elif t in ("ack", "error"):
            self.busy = False
            if t == "ack" and str(frame.get("id", "")).startswith("a") and self.stats.on:
                self.stats.actions += 1
            if t == "error":
                self.stats.errors += 1
                code = str(frame.get("code"))
                self.stats.error_codes[code] = self.stats.error_codes.get(code, 0) + 1
        self.decide()

    def send(self, msg: dict[str, Any], prefix: str) -> None:
        assert self.wire is not None
        self.next_id += 1
        self.busy = True
        self.wire.send(orjson.dumps({**msg, "id": f"{prefix}{self.next_id}"}).decode())

    def my_move(self) -> dict[str, Any] | None:
        v = self.view
        if v is None or v["room"]["status"] != "playing":
            return None
        table = v["game"]["table"]
        pending = table["pending"]
        if pending is None or pending["seat"] != v["you"]:
            return None
        legal = [a for a in table["legal"] if a["kind"] not in ("catch", "declare_uno")]
        if not legal:
            return None
        plays = [a for a in legal if a["kind"] not in ("draw", "keep")]
        pool = plays if plays and self.rng.random() < 0.9 else legal
        with_uno = [a for a in pool if a.get("uno")]
        move: dict[str, Any] = self.rng.choice(with_uno or pool)
        return move

    def decide(self) -> None:
        v = self.view
        if self.busy or v is None:
            return
        status = v["room"]["status"]
        me = v["you"]
        if status == "between" and not v["players"][me]["ready"]:
            self.send({"type": "ready"}, "r")
        elif status == "over" and v["players"][me]["host"]:
            self.send({"type": "rematch"}, "m")
        elif self.my_move() is not None:
            if self.think > 0:
                self.busy = True  # thinking: later frames start no second move
                asyncio.get_running_loop().call_later(self.rng.uniform(0.5, 1.5) * self.think, self.move_now)
            else:
                self.move()

    def move_now(self) -> None:
        self.busy = False
        self.move()

    def move(self) -> None:
        action = self.my_move()  # the table as it is now
        if action is None:
            return
        self.room.inflight = time.perf_counter()
        self.room.waiting = {b.index for b in self.room.bots}
        self.send({"type": "action", "action": action}, "a")


# ---------------------------------------------------------------------- one client process


@dataclass
class Plan:
    """What one client worker does; ``first`` is the index of its first room overall."""
    http: str
    ws: str
    first: int
    rooms: int
    seats: int
    think: float
    warmup: float
    duration: float
    mode: str  # "game", "echo" or "relay"


async def setup_rooms(plan: Plan, stats: Stats) -> list[Room]:
    out: list[Room] = []
    limits = httpx.Limits(max_connections=8)
    async with httpx.AsyncClient(base_url=plan.http, timeout=60, limits=limits) as client:

        async def one(i: int) -> Room:
            r = await client.post("/api/rooms", json={"variant": EDITIONS[i % len(EDITIONS)], "public": False,
                                                      "max_seats": plan.seats, "target_score": 1})
            r.raise_for_status()
            room = Room(r.json()["code"])
            for s in range(plan.seats):
                j = await client.post(f"/api/rooms/{room.code}/players", json={"name": f"bot{s}"})
                j.raise_for_status()
                room.bots.append(Bot(room, s, j.json()["token"], f"{plan.ws}/ws/rooms/{room.code}", stats,
                                     random.Random(f"{i}/{s}"), plan.think))
            return room

        for batch in range(plan.first, plan.first + plan.rooms, 50):
            out += await asyncio.gather(*(one(i) for i in range(batch, min(batch + 50, plan.first + plan.rooms))))
    gate = asyncio.Semaphore(100)  # no connect storm bigger than the server's accept backlog

    async def opened(b: Bot) -> None:
        async with gate:
            await b.open()

    await asyncio.gather(*(opened(b) for room in out for b in room.bots))
    return out


async def until(t: float) -> None:
    await asyncio.sleep(max(0.0, t - time.time()))


async def game_clients(plan: Plan, pipe: Connection) -> dict[str, Any]:
    stats = Stats()
    rooms = await setup_rooms(plan, stats)
    bots = [b for room in rooms for b in room.bots]

    def kick_off() -> None:
        for room in rooms:
            # The first to join is the host, unless it connected last: the host is then whoever was there.
            host = next((b for b in room.bots if b.view is not None and b.view["players"][b.view["you"]]["host"]),
                        room.bots[0])
            host.send({"type": "start"}, "s")

    async def nudge() -> None:
        while True:  # in case a frame a bot waited for said nothing new
            await asyncio.sleep(1.0)
            for b in bots:
                b.decide()

    nudging = asyncio.create_task(nudge())
    await measure(plan, pipe, stats, kick_off)
    nudging.cancel()
    for b in bots:
        assert b.wire is not None
        b.wire.close()
    failures = [b.failure for b in bots if b.failure is not None]
    return {"actions": stats.actions, "latencies": stats.latencies, "errors": stats.errors,
            "error_codes": stats.error_codes, "failures": failures,
            "slowest": stats.slowest}


async def measure(plan: Plan, pipe: Connection, window: Window, kick_off: Callable[[], None]) -> None:
    """Line up with the other workers on one wall clock, start the traffic, open the window."""
    quiet_collector()
    pipe.send("ready")
    t0 = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    await until(t0)
    kick_off()
    await until(t0 + plan.warmup)
    window.on = True
    await until(t0 + plan.warmup + plan.duration)
    window.on = False
    pipe.send("measured")
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # until the server's RSS is read


async def echo_clients(plan: Plan, pipe: Connection) -> dict[str, Any]:
    """Closed loop on ``/ws/echo``: each socket sends again as soon as its message comes back."""
    count = 0
    window = Window()
    payload = json.dumps({"type": "action", "id": "a1", "action": {"kind": "play", "card": 12, "colour": "red"}})
    wires: list[WireClient] = []

    def echoed(i: int) -> Callable[[str], None]:
        def on_text(_: str) -> None:
            nonlocal count
            if window.on:
                count += 1
            wires[i].send(payload)
        return on_text

    gate = asyncio.Semaphore(100)

    async def opened(i: int) -> WireClient:
        async with gate:
            return await WireClient.connect(f"{plan.ws}/ws/echo", echoed(i))

    wires += await asyncio.gather(*(opened(i) for i in range(plan.rooms * plan.seats)))

    def kick_off() -> None:
        for w in wires:
            w.send(payload)

    await measure(plan, pipe, window, kick_off)
    for w in wires:
        w.close()
    return {"messages": count}


async def relay_clients(plan: Plan, pipe: Connection) -> dict[str, Any]:
    """Rooms without a game: groups of ``seats`` sockets on ``/ws/echo?group=``.  As in a room, one
    message is in flight per group — a member sends, the server relays it to all of them, and
    once all have it the next member sends."""
    count = 0
    window = Window()
    payload = json.dumps({"type": "action", "id": "a1", "action": {"kind": "play", "card": 12, "colour": "red"}})
    groups: list[list[WireClient]] = []
    waiting: list[int] = []
    turn: list[int] = []

    def relayed(g: int) -> Callable[[str], None]:
        def on_text(_: str) -> None:
            nonlocal count
            waiting[g] -= 1
            if waiting[g] == 0:  # the whole group has it: the next member's move
                if window.on:
                    count += 1
                turn[g] = (turn[g] + 1) % plan.seats
                waiting[g] = plan.seats
                groups[g][turn[g]].send(payload)
        return on_text

    gate = asyncio.Semaphore(100)

    async def opened(g: int) -> WireClient:
        async with gate:
            return await WireClient.connect(f"{plan.ws}/ws/echo?group=r{plan.first + g}", relayed(g))

    for g in range(plan.rooms):
        waiting.append(plan.seats)
        turn.append(0)
        groups.append(list(await asyncio.gather(*(opened(g) for _ in range(plan.seats)))))

    def kick_off() -> None:
        for group in groups:
            group[0].send(payload)

    await measure(plan, pipe, window, kick_off)
    for group in groups:
        for w in group:
            w.close()
    return {"messages": count}


def quiet_collector() -> None:
    """Thousands of clients in one process make a big heap, and garbage collection passes over
    it stall every one of them for tens to hundreds of milliseconds — time the latency figures
    would charge to the server.  As in the server (app/gc_policy.py): frozen once set up, then
    no automatic collection (a run is short; its cycles wait for the process to end)."""
    gc.collect()
    gc.freeze()
    gc.disable()


def worker(plan: Plan, pipe: Connection) -> None:
    raise_open_files()
    try:
        run = {"game": game_clients, "echo": echo_clients, "relay": relay_clients}[plan.mode]
        pipe.send(asyncio.run(run(plan, pipe)))
    except BaseException as err:  # the parent reports it instead of waiting forever
        pipe.send({"fatal": repr(err)})
        raise


def run_clients(http: str, args: argparse.Namespace, mode: str, server_pid: int | None,
                after_window: Callable[[], None] | None = None, pids: list[int] | None = None,
                beside: dict[str, Callable[[], list[int]]] | None = None) -> dict[str, Any]:
    """Start the worker processes, line them up, measure; the game or echo figures, merged.
    ``pids``: the server's processes when it is several (cluster nodes and nginx, bench/cluster.py):
    its CPU time and RSS are their sums, and ``cpu_by_process`` each one's share.
    ``beside``: other groups of processes on this machine (Postgres, say) whose CPU over the
    window is reported too (``cpu_beside``, cores), with the clients' own: on a machine the
    clients share with the server, a latency figure is only as good as the cores left to it."""
    watched = pids if pids is not None else [server_pid] if server_pid is not None else []
    ws = http.replace("http", "ws", 1)
    ctx = mp.get_context("spawn")
    share = [args.rooms // args.workers + (1 if w < args.rooms % args.workers else 0) for w in range(args.workers)]
    think = args.think if args.pace == "human" else 0.0
    pipes, procs, first = [], [], 0
    for n in share:
        parent, child = ctx.Pipe()
        plan = Plan(http, ws, first, n, args.seats, think, args.warmup, args.duration, mode)
        proc = ctx.Process(target=worker, args=(plan, child), daemon=True)
        proc.start()
        pipes.append(parent)
        procs.append(proc)
        first += n

    def each(expected: str | None) -> list[Any]:
        got = [p.recv() for p in pipes]
        for g in got:
            if isinstance(g, dict) and "fatal" in g:
                raise RuntimeError(f"a client worker failed: {g['fatal']}")
            if expected is not None and g != expected:
                raise RuntimeError(f"a client worker said {g!r}, not {expected!r}")
        return got

    each("ready")
    rss_ready = rss_sum(watched)  # everyone connected, no game yet
    t0 = time.time() + 0.5
    for p in pipes:
        p.send(t0)
    # The server's own CPU time over the measured window: what an action costs it, whatever the clients cost.
    time.sleep(max(0.0, t0 + args.warmup - time.time()))
    groups = {"clients": [p.pid for p in procs if p.pid is not None],
              **{name: find() for name, find in (beside or {}).items()}}
    cpu0 = [cpu_seconds(p) for p in watched]
    beside0 = {name: [cpu_seconds(p) for p in group] for name, group in groups.items()}
    each("measured")
    cpu1 = [cpu_seconds(p) for p in watched]
    cpu_beside = {name: round(sum(b - a for a, b in zip(beside0[name], [cpu_seconds(p) for p in group], strict=True)
                                  if a is not None and b is not None) / args.duration, 3)
                  for name, group in groups.items()}
    by_process = [(b - a) / args.duration if a is not None and b is not None else None
                  for a, b in zip(cpu0, cpu1, strict=True)]
    busy = sum(c for c in by_process if c is not None) if watched and None not in by_process else None
    rss = rss_sum(watched)
    rss_by_process = [rss_kib(p) for p in watched]
    if after_window is not None:
        after_window()
    for p in pipes:
        p.send("stop")
    results = each(None)
    for proc in procs:
        proc.join(20)
    if mode != "game":
        rate = sum(r["messages"] for r in results) / args.duration
        return {f"{mode}_msgs_per_s": round(rate, 1), f"{mode}_server_cpu": round(busy, 3) if busy else None,
                f"server_us_per_{mode}": round(busy / rate * 1e6, 1) if busy and rate else None}
    lat = sorted(x for r in results for x in r["latencies"])
    slow = sorted((round(t - t0 - args.warmup, 2), round(s * 1000)) for r in results for t, s in r["slowest"])
    if slow:  # when the slow ones happened (seconds into the measured window): bursts or spread out?
        per_second: dict[int, list[float]] = {}
        for at, ms in slow:
            per_second.setdefault(int(at), []).append(ms)
        print(f"{len(slow)} actions over 50 ms; by second of the window (count, worst ms): "
              f"{ {k: (len(v), max(v)) for k, v in sorted(per_second.items())} }", file=sys.stderr)
    failures = [f for r in results for f in r["failures"]]
    if failures:
        print(f"client failures: {failures[:5]}", file=sys.stderr)
    players = args.rooms * args.seats
    rate = sum(r["actions"] for r in results) / args.duration
    return {
        "window": (t0 + args.warmup, t0 + args.warmup + args.duration),  # wall clock, for the GC figures
        "actions_per_s": round(rate, 1),
        "server_cpu": round(busy, 3) if busy else None,  # cores the server kept busy (1.0: one core)
        "server_us_per_action": round(busy / rate * 1e6, 1) if busy and rate else None,
        "p50_ms": round(statistics.median(lat) * 1000, 2) if lat else None,
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2) if lat else None,
        "max_ms": round(lat[-1] * 1000, 2) if lat else None,
        "actions": sum(r["actions"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "error_codes": {code: sum(r["error_codes"].get(code, 0) for r in results)
                        for code in sorted({c for r in results for c in r["error_codes"]})},
        "client_failures": len(failures),
        "cpu_beside": cpu_beside,
        "server_rss_mib": round(rss / 1024, 1) if rss else None,
        "server_rss_connected_mib": round(rss_ready / 1024, 1) if rss_ready else None,
        "rss_kib_per_player": round(rss / players, 1) if rss else None,
        **({"cpu_by_process": [round(c, 3) if c is not None else None for c in by_process],
            "rss_mib_by_process": [round(r / 1024, 1) if r else None for r in rss_by_process]}
           if pids is not None else {}),
    }


# ---------------------------------------------------------------------- the server


def raise_open_files() -> None:
    """Each socket is a file: take the hard limit (4,000 players need 4,000 on each side)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of a process so far (from /proc)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def rss_sum(pids: list[int]) -> int | None:
    """The resident memory of these processes together (None if any is gone)."""
    sizes = [rss_kib(p) for p in pids]
    return sum(s for s in sizes if s is not None) if sizes and None not in sizes else None


def start_server(database_url: str, gc_trace: str, start_within: float = 60) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "UNO_BETWEEN_ROUNDS_SECONDS": "1", "UNO_MAX_ROOMS": "100000", "UNO_ECHO_ENDPOINT": "1",
           "DATABASE_URL": database_url,
           # Every bot is 127.0.0.1 and plays as fast as it can: lift the per-address and per-socket limits.
           "UNO_CREATE_ROOMS_PER_MINUTE": "1000000", "UNO_JOINS_PER_MINUTE": "1000000",
           "UNO_ROOMS_PER_ADDRESS": "1000000", "UNO_SOCKET_RATE_MESSAGES": "1000000",
           "UNO_SOCKETS_PER_ADDRESS": "1000000", "UNO_CONNECTIONS_PER_ADDRESS": "1000000",
           "UNO_MAX_CONNECTIONS": "1000000", "UNO_SOCKET_OPENS_PER_MINUTE": "1000000"}
    # As scripts/run.sh starts it (frame size, no per-message deflate), with a backlog for the connect burst.
    # Through bench/gc_trace.py, which times every garbage collection the server makes.
    proc = subprocess.Popen([sys.executable, "-m", "bench.gc_trace", gc_trace, "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning", "--backlog", "4096"],
                            cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + start_within
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


def gc_figures(trace: dict[str, Any], ready: float, start: float, end: float) -> dict[str, Any]:
    """The server's garbage collections between two wall-clock times: how many of each generation,
    the longest (every room waits that long) and the share of the time they took; the longest
    since the server was ready (rooms created, sockets connecting); then the probe made after the
    window (bench/gc_trace.py)."""
    inside = [(gen, took) for at, gen, took in trace["pauses"] if start <= at <= end]
    since_ready = [took for at, _, took in trace["pauses"] if ready <= at <= end]
    probe = trace.get("probe") or {}
    return {
        "gc_probe": probe,
        "gc_max_pause_ms_since_ready": round(max(since_ready, default=0.0) * 1000, 2),
        "gc_collections": [sum(1 for gen, _ in inside if gen == g) for g in (0, 1, 2)],
        "gc_max_pause_ms": round(max((took for _, took in inside), default=0.0) * 1000, 2),
        "gc_pause_ms_per_s": round(sum(took for _, took in inside) * 1000 / max(end - start, 1e-9), 2),
        "gc_pauses_over_50ms": sum(1 for _, took in inside if took > 0.05),
    }


def run_mode(database_url: str, args: argparse.Namespace, echo: bool) -> dict[str, Any]:
    """One server on this store: the game phase (and, optionally, the echo phase)."""
    with tempfile.TemporaryDirectory() as tmp:
        trace = f"{tmp}/gc.json"
        proc, url = start_server(database_url, trace)
        ready = time.time()
        print(f"server RSS at start: {(rss_kib(proc.pid) or 0) / 1024:.1f} MiB", file=sys.stderr)
        try:
            def probe() -> None:  # with every socket open: what a full pass would cost now
                os.kill(proc.pid, signal.SIGUSR1)
                time.sleep(4)

            game = run_clients(url, args, "game", server_pid=proc.pid, after_window=probe)
            if echo:
                game.update(run_clients(url, args, "echo", server_pid=proc.pid))
                game.update(run_clients(url, args, "relay", server_pid=proc.pid))
        finally:
            proc.terminate()
            proc.wait(20)
        window = game.pop("window")
        with contextlib.suppress(OSError, ValueError):
            game.update(gc_figures(json.loads(Path(trace).read_text()), ready, *window))
    return game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--pace", choices=("full", "human"), default="full")
    ap.add_argument("--think", type=float, default=2.0, help="mean seconds before each move at human pace")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds measured, per phase")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--workers", type=int, default=2, help="client processes")
    ap.add_argument("--stores", default="memory,sqlite,postgres",
                    help="which stores to run on, of memory, sqlite, postgres (durable ratios need memory)")
    ap.add_argument("--no-baselines", action="store_true", help="at full pace, skip the echo and relay phases")
    ap.add_argument("--url", help="target a running server (http://host:port) instead of starting one")
    args = ap.parse_args()
    raise_open_files()
    echo = args.pace == "full" and not args.no_baselines

    result: dict[str, Any] = {"rooms": args.rooms, "sockets": args.rooms * args.seats, "pace": args.pace,
                              "duration_s": args.duration}
    if args.url is not None:
        game = run_clients(args.url, args, "game", server_pid=None)
        game.pop("window")
        if echo:
            game.update(run_clients(args.url, args, "echo", server_pid=None))
            game.update(run_clients(args.url, args, "relay", server_pid=None))
        stores = {"url": game}
    else:
        stores = {}
        for store in args.stores.split(","):
            if store == "memory":
                stores[store] = run_mode("memory://", args, echo)
            elif store == "sqlite":
                with tempfile.TemporaryDirectory() as tmp:
                    stores[store] = run_mode(f"sqlite:///{tmp}/bench.sqlite3", args, echo=False)
            elif store == "postgres":
                pg = postgres_database()
                if pg is None:
                    continue
                admin, pg_url = pg
                try:
                    stores[store] = run_mode(pg_url, args, echo=False)
                finally:
                    drop_postgres_database(admin, pg_url)
            else:
                ap.error(f"unknown store {store!r}")
            print(f"{store}: {stores[store]}", file=sys.stderr)
    main_run = stores.get("memory") or stores.get("url") or next(iter(stores.values()))
    result.update(main_run)
    if main_run.get("echo_msgs_per_s"):
        result["echo_ratio"] = round(main_run["actions_per_s"] / main_run["echo_msgs_per_s"], 3)
        if main_run.get("server_us_per_action") and main_run.get("server_us_per_echo"):
            # The same ratio from the server's CPU cost alone: what it would be if the clients were free.
            result["echo_cost_ratio"] = round(main_run["server_us_per_echo"] / main_run["server_us_per_action"], 3)
    if main_run.get("relay_msgs_per_s"):
        # Like for like: a room's traffic (one message in, one out per player) with no game behind it.
        result["relay_ratio"] = round(main_run["actions_per_s"] / main_run["relay_msgs_per_s"], 3)
        if main_run.get("server_us_per_action") and main_run.get("server_us_per_relay"):
            result["relay_cost_ratio"] = round(main_run["server_us_per_relay"] / main_run["server_us_per_action"], 3)
        if main_run.get("echo_msgs_per_s"):
            # The echo_ratio of a room that costs nothing: its traffic alone, against the 1:1 echo.
            # No game, which must also answer the mover, can score above it.
            result["echo_ratio_ceiling"] = round(main_run["relay_msgs_per_s"] / main_run["echo_msgs_per_s"], 3)
    # Durable stores: every action is committed (group commit) before it is acknowledged.
    for store in ("sqlite", "postgres"):
        if store in stores and "memory" in stores:
            result[f"durable_ratio_{store}"] = round(stores[store]["actions_per_s"] / main_run["actions_per_s"], 3)
            result[f"p99_ms_{store}"] = stores[store]["p99_ms"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
