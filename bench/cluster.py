"""Cluster benchmark: nodes behind nginx on one Postgres, killed, drained and loaded.

    uv run python bench/cluster.py                       # every part, full size
    uv run python bench/cluster.py --part failover       # one part: failover, drain, cpu, capacity
    uv run python bench/cluster.py --quick               # every part, small (a smoke test, < 1 min each)
    uv run python bench/cluster.py --part capacity --capacity-rooms 1000

Each part (and each load run) makes a fresh Postgres database ``uno_bench_<random>``
(``BENCH_POSTGRES_URL``, by default postgresql://postgres@127.0.0.1:5432/postgres) and drops it
at the end, so that no run restores and plays an earlier one's rooms.

- failover: rooms of two server bots and one protocol client each, over 3 nodes behind
  nginx; the node owning most rooms is killed (SIGKILL) mid-round, ``--kills`` times (it is
  started again in between).  Per room it owned: seconds from the kill to the first ack its
  client gets after reconnecting through nginx (the client retries like a browser, every
  200-500 ms, and resends its unanswered message; with none unanswered it says something in
  the chat).  Then every acknowledged action's id must be in ``actions`` exactly once:
  ``lost`` and ``doubled`` count those that are not.
- drain: the same rooms; the busiest node is stopped with SIGTERM: seconds until it exits,
  and until every room it owned has acked its client again on another node.
- cpu: bench/load.py's human-pace rooms against one node with cluster mode off and against
  2 nodes behind nginx, on the same database, alternated ``--repeats`` times: server CPU
  seconds per acknowledged action (the nodes + nginx, from /proc); ``ratio`` = cluster / single,
  medians; ``nodes_ratio`` the same for the nodes alone, ``nginx_us_per_action`` nginx's share.
- capacity: ``--capacity-rooms`` rooms of 4 (bench/load.py's clients) on 2 nodes behind nginx at
  human pace: action latency, each process's CPU and RSS.

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ and tests/ are importable from the project root
from bench.load import cpu_seconds, raise_open_files, run_clients  # noqa: E402
from bench.nodes import LocalCluster, nginx_available  # noqa: E402
from tests.live import Client, choose  # noqa: E402

ADMIN = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")
# Close codes after which a browser would give up.
FATAL = {4000, 4401, 4403, 4404, 4410, 4429}


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(len(s) * q))], 3)


def med(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


# ---------------------------------------------------------------------- the database


@contextlib.contextmanager
def fresh_database() -> Any:
    """A new database for this run, dropped at the end whatever happens."""
    name = f"uno_bench_{secrets.token_hex(4)}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(ADMIN, timeout=5)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield ADMIN.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# ---------------------------------------------------------------------- processes


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def server_pids(cluster: LocalCluster) -> list[int]:
    """The nodes, then nginx's master and workers."""
    pids = [p for p in cluster.pids() if p is not None]
    if cluster.nginx is not None:
        pids += [cluster.nginx.pid, *children(cluster.nginx.pid)]
    return pids


class SingleNode(LocalCluster):
    """One node, cluster mode off, reached directly (no nginx): the baseline."""

    def __init__(self, database_url: str) -> None:
        super().__init__(database_url, nodes=1)

    def env(self, i: int) -> dict[str, str]:
        env = super().env(i)
        for name in ("UNO_CLUSTER", "UNO_NODE_ID", "UNO_NODE_ADDRESS"):
            env.pop(name, None)
        return env

    def start(self) -> SingleNode:
        self.start_node(0)
        return self

    @property
    def http(self) -> str:
        return self.node_http(0)


# ---------------------------------------------------------------------- one room's client


class Through:
    """What tests.live.Client needs of a server: nginx's addresses, no in-process audit."""

    audits_views = False

    def __init__(self, http: str, ws: str) -> None:
        self.http, self.ws = http, ws


@dataclass
class Human:
    """A player's browser: plays on its turn after a short think, and after any close
    reconnects every 200-500 ms and resends its unanswered message (or says it is back)."""

    client: Client
    rng: random.Random
    connected_at: float = 0.0
    node: str | None = None
    acks: list[tuple[str, float, float]] = field(default_factory=list)  # (client id, when, connection opened)
    actions: list[str] = field(default_factory=list)  # acknowledged actions' ids
    fatal: list[int] = field(default_factory=list)
    errors: int = 0
    stopping: bool = False

    async def connect(self) -> None:
        while not self.stopping:
            try:
                await self.client.connect()
                ws = self.client.ws
                assert ws is not None and ws.response is not None
                self.node = ws.response.headers.get("x-uno-node")
                await self.client.recv(5)
                self.connected_at = time.monotonic()
                return
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
                await asyncio.sleep(self.rng.uniform(0.2, 0.5))

    def new(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {**msg, "id": f"{self.client.code}-{self.client.new_id()}"}

    async def run(self) -> None:
        pending: dict[str, Any] | None = None
        while not self.stopping:
            try:
                if pending is not None:
                    await self.client.send(pending)
                    reply = await self.client.until_reply(pending["id"], 30)
                    if reply["type"] == "ack":
                        self.acks.append((pending["id"], time.monotonic(), self.connected_at))
                        if pending["type"] == "action":
                            self.actions.append(pending["id"])
                    else:
                        self.errors += 1
                    pending = None
                    continue
                c = self.client
                action = choose(c, self.rng, uno_chatter=0.0)
                if action is not None:
                    await asyncio.sleep(self.rng.uniform(0.1, 0.4))
                    pending = self.new({"type": "action", "action": action})
                elif c.status == "over":
                    pending = self.new({"type": "rematch"})
                elif c.status == "between" and not c.view["players"][c.seat]["ready"]:
                    pending = self.new({"type": "ready"})
                else:
                    with contextlib.suppress(TimeoutError):
                        await c.recv(0.5)
            except ConnectionClosed as err:
                code = err.rcvd.code if err.rcvd is not None else 1006
                if code in FATAL:
                    self.fatal.append(code)
                    return
                await asyncio.sleep(self.rng.uniform(0.2, 0.5))
                await self.connect()
                if pending is None:  # something the room must answer, to know it is back
                    pending = self.new({"type": "chat", "text": "back"})
            except TimeoutError:  # no answer in 30 s: ask again on a new socket, same id
                with contextlib.suppress(Exception):
                    await self.client.close()

    def first_ack_after(self, t: float) -> float | None:
        """Seconds from ``t`` to the first ack on a connection opened after ``t``."""
        return next((when - t for _, when, opened in self.acks if opened > t), None)


async def open_rooms(http: str, ws: str, rooms: int, rng: random.Random) -> list[Human]:
    server = Through(http, ws)
    humans = []
    async with httpx.AsyncClient(base_url=http, timeout=20) as h:
        for i in range(rooms):
            r = await h.post("/api/rooms", json={"variant": EDITIONS[i % 4], "max_seats": 3, "public": False,
                                                 "target_score": 1})
            r.raise_for_status()
            code = r.json()["code"]
            seat = (await h.post(f"/api/rooms/{code}/players", json={"name": f"Human{i}"})).json()
            for _ in range(2):
                r = await h.post(f"/api/rooms/{code}/bots", headers={"Authorization": f"Bearer {seat['token']}"})
                r.raise_for_status()
            client = Client(server, code, seat["token"], seat["seat"])  # type: ignore[arg-type]
            humans.append(Human(client, random.Random(rng.random())))
    for hu in humans:
        await hu.connect()
        reply = await hu.client.request({"type": "start"})
        assert reply["type"] == "ack", reply
    return humans


# ---------------------------------------------------------------------- failover and drain


def dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


async def owners(conn: asyncpg.Connection) -> dict[str, str]:
    rows = await conn.fetch("SELECT code, owner FROM rooms WHERE status != 'closed' AND owner IS NOT NULL")
    return {r["code"]: r["owner"] for r in rows}


async def stored_once(conn: asyncpg.Connection, humans: list[Human]) -> tuple[int, int, int]:
    """(acknowledged actions, lost: acknowledged but not stored, doubled: stored more than once)."""
    acked = [cid for h in humans for cid in h.actions]
    rows = await conn.fetch("SELECT client_id FROM actions WHERE client_id = ANY($1::text[])", acked)
    stored = Counter(r["client_id"] for r in rows)
    return len(acked), sum(1 for c in acked if c not in stored), sum(1 for n in stored.values() if n > 1)


async def events(database_url: str, args: argparse.Namespace, kind: str) -> dict[str, Any]:
    """``kind`` "kill" (failover) or "terminate" (drain), ``args.kills`` times, on 3 nodes."""
    rng = random.Random(20261130)
    cluster = LocalCluster(database_url, nodes=3, env={
        "UNO_BOT_DELAY_SCALE": "0.15", "UNO_BETWEEN_ROUNDS_SECONDS": "1", "UNO_AWAY_GRACE_SECONDS": "600"})
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, cluster.start)
    conn = await asyncpg.connect(dsn(database_url))
    tasks: list[asyncio.Task[None]] = []
    humans: list[Human] = []
    back: list[float] = []  # per affected room: seconds to its first ack on another node
    exits: list[float] = []  # drain: seconds from SIGTERM to the node's exit
    affected_total = 0
    stalled = 0
    try:
        humans = await open_rooms(cluster.http, cluster.ws, args.failover_rooms, rng)
        tasks = [asyncio.create_task(h.run()) for h in humans]
        for n in range(args.kills):
            await asyncio.sleep(args.settle)  # rooms mid-round
            own = await owners(conn)
            by_node = Counter(own.values())
            victim = max(range(3), key=lambda i: by_node.get(cluster.node_id(i), 0))
            affected = [h for h in humans if own.get(h.client.code) == cluster.node_id(victim)]
            t = time.monotonic()
            if kind == "kill":
                await loop.run_in_executor(None, cluster.kill, victim)
            else:
                exits.append(await loop.run_in_executor(None, cluster.terminate, victim))
            deadline = t + args.timeout
            while time.monotonic() < deadline and any(h.first_ack_after(t) is None for h in affected):
                await asyncio.sleep(0.05)
            got = [h.first_ack_after(t) for h in affected]
            stalled += sum(1 for g in got if g is None)
            back += [g for g in got if g is not None]
            affected_total += len(affected)
            exited = f" (exited after {exits[-1]:.2f} s)" if exits else ""
            log(f"{kind} {n + 1}: node {victim} had {len(affected)} room(s){exited}; back after "
                f"{sorted(round(g, 2) for g in got if g is not None)} s")
            await loop.run_in_executor(None, cluster.start_node, victim)
        await asyncio.sleep(1.0)
        acked, lost, doubled = await stored_once(conn, humans)
        fatal = sum(len(h.fatal) for h in humans)
    finally:
        for h in humans:
            h.stopping = True
        for task in tasks:
            task.cancel()
        # Not an await of each: Python 3.11's wait_for can swallow a cancellation that arrives as
        # it times out, and the client then plays on; ``stopping`` ends its loop at the next turn.
        if tasks:
            await asyncio.wait(tasks, timeout=10)
        for h in humans:
            with contextlib.suppress(Exception):
                await h.client.close()
        await conn.close()
        await loop.run_in_executor(None, cluster.stop)
    out: dict[str, Any] = {"rooms": args.failover_rooms, "events": args.kills, "rooms_affected": affected_total,
                           "rooms_stalled": stalled, "p50_s": med(back), "p99_s": pct(back, 0.99),
                           "max_s": round(max(back), 3) if back else None, "acked_actions": acked,
                           "lost": lost, "doubled": doubled, "fatal_closes": fatal}
    if kind == "terminate":
        out = {"exit_s": med(exits), "exit_max_s": round(max(exits), 3) if exits else None,
               "all_back_s": out.pop("max_s"), **out}
    return out


# ---------------------------------------------------------------------- cpu and capacity


def load_args(args: argparse.Namespace, rooms: int, duration: float) -> argparse.Namespace:
    return argparse.Namespace(rooms=rooms, seats=4, pace="human", think=args.think, warmup=args.warmup,
                              duration=duration, workers=args.workers)


def idle_cpu(pids: list[int], seconds: float) -> list[float | None]:
    """Cores each process keeps busy with no room open: what a node costs before any action."""
    before = [cpu_seconds(p) for p in pids]
    time.sleep(seconds)
    after = [cpu_seconds(p) for p in pids]
    return [round((b - a) / seconds, 4) if a is not None and b is not None else None
            for a, b in zip(before, after, strict=True)]


def postgres_pids() -> list[int]:
    """This machine's Postgres processes (the server and its backends)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == "postgres":
                    found.append(int(entry.name))
    return found


def action_histogram(cluster: LocalCluster) -> Counter[float]:
    """The nodes' ``uno_action_seconds`` buckets, summed (cumulative counts by upper bound)."""
    total: Counter[float] = Counter()
    for i in range(cluster.count):
        text = httpx.get(f"{cluster.node_http(i)}/metrics", timeout=10).text
        for line in text.splitlines():
            if line.startswith("uno_action_seconds_bucket"):
                bound = line.split('le="', 1)[1].split('"', 1)[0]
                total[float("inf") if bound == "+Inf" else float(bound)] += int(line.rsplit(" ", 1)[1])
    return total


def server_latency(before: Counter[float], after: Counter[float]) -> dict[str, Any]:
    """From the nodes' own histogram (an action frame's arrival to its room having stored it and
    sent its frames), over the warm-up and the window: the bucket bound p99 falls under, and the
    share within 50 ms."""
    counts = {bound: after[bound] - before[bound] for bound in sorted(after)}
    total = counts.get(float("inf"), 0)
    if not total:
        return {"server_actions": 0}
    p99 = next(bound for bound, n in counts.items() if n >= 0.99 * total)
    return {"server_actions": total, "server_p99_ms_at_most": round(p99 * 1000, 1),
            "server_within_50ms": round(counts.get(0.05, 0) / total, 4)}


def loaded(make: Callable[[str], LocalCluster], args: argparse.Namespace, rooms: int,
           duration: float) -> dict[str, Any]:
    """One load run on a database of its own: an earlier run's rooms, restored, would play too."""
    with fresh_database() as url:
        cluster = make(url)
        try:
            cluster.start()
            pids = server_pids(cluster)
            idle = idle_cpu(pids, args.idle)
            before = action_histogram(cluster)
            after: list[Counter[float]] = []
            got = run_clients(cluster.http, load_args(args, rooms, duration), "game", server_pid=None, pids=pids,
                              after_window=lambda: after.append(action_histogram(cluster)),
                              beside={"postgres": postgres_pids})
            return {**got, "idle_cpu_by_process": idle, **server_latency(before, after[0])}
        except Exception:
            with contextlib.suppress(OSError):  # nginx's word on it, before its files go
                log("\n".join(["nginx error.log, last lines:",
                               *(cluster.prefix / "error.log").read_text().splitlines()[-10:]]))
            raise
        finally:
            cluster.stop()


ENV = {"UNO_BETWEEN_ROUNDS_SECONDS": "1"}


def cpu(args: argparse.Namespace) -> dict[str, Any]:
    """Server CPU per action: one process alone, against two nodes behind nginx; and, to tell the
    cluster's own costs (nginx's hop, the fencing) from those of splitting the rooms between two
    processes on two shared cores, one node in cluster mode behind nginx."""
    single: list[float] = []
    cluster: list[float] = []
    nodes_only: list[float] = []  # the cluster's nodes alone, without nginx
    nginx: list[float] = []
    one_node: list[float] = []  # one node behind nginx, nginx included
    one_node_alone: list[float] = []  # that node without nginx
    idle_single: list[float] = []
    idle_cluster: list[float] = []
    for n in range(args.repeats):
        a = loaded(SingleNode, args, args.cpu_rooms, args.duration)
        b = loaded(lambda url: LocalCluster(url, nodes=2, env=ENV), args, args.cpu_rooms, args.duration)
        one = loaded(lambda url: LocalCluster(url, nodes=1, env=ENV), args, args.cpu_rooms, args.duration)
        log(f"cpu {n + 1}: single {a['server_us_per_action']} us/action ({a['actions_per_s']}/s), "
            f"2 nodes + nginx {b['server_us_per_action']} us/action ({b['actions_per_s']}/s) {b['cpu_by_process']}, "
            f"1 node + nginx {one['server_us_per_action']} us/action {one['cpu_by_process']}")
        idle_single.append(sum(c or 0.0 for c in a["idle_cpu_by_process"]))
        idle_cluster.append(sum(c or 0.0 for c in b["idle_cpu_by_process"]))
        if a["server_us_per_action"] and b["server_us_per_action"] and one["server_us_per_action"]:
            single.append(a["server_us_per_action"])
            cluster.append(b["server_us_per_action"])
            per_action = 1e6 / b["actions_per_s"]
            nodes_only.append(sum(c or 0.0 for c in b["cpu_by_process"][:2]) * per_action)
            nginx.append(sum(c or 0.0 for c in b["cpu_by_process"][2:]) * per_action)
            one_node.append(one["server_us_per_action"])
            one_node_alone.append((one["cpu_by_process"][0] or 0.0) * 1e6 / one["actions_per_s"])
    ratios = [y / x for x, y in zip(single, cluster, strict=True)]

    def ratio(values: list[float]) -> float | None:
        return round(statistics.median(values) / statistics.median(single), 3) if single else None

    return {"rooms": args.cpu_rooms, "repeats": args.repeats, "single_us_per_action": med(single),
            "cluster_us_per_action": med(cluster), "ratio": ratio(cluster),
            "ratios": [round(r, 3) for r in ratios],
            # Where the difference goes: the two nodes' own CPU, and nginx's (its hop, both ways).
            "nodes_us_per_action": med(nodes_only), "nginx_us_per_action": med(nginx),
            "nodes_ratio": ratio(nodes_only),
            # One node in cluster mode behind nginx: the cluster's machinery without the split.
            "one_node_us_per_action": med(one_node), "one_node_ratio": ratio(one_node),
            "one_node_alone_ratio": ratio(one_node_alone),
            # With no room open: the cores the server keeps busy anyway (leases, timers).
            "idle_cpu_single": med(idle_single), "idle_cpu_cluster": med(idle_cluster)}


def capacity(args: argparse.Namespace) -> dict[str, Any]:
    rooms = args.capacity_rooms
    # Each client socket is two files for nginx (the client's, the node's), and an nginx worker
    # may have ulimit -n of them: past that, more workers.
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    workers = 1 + (rooms * 4 * 2 + 1000) // limit
    got = loaded(lambda url: LocalCluster(url, nodes=2, env=ENV, nginx_workers=workers), args, rooms, args.duration)
    return {"rooms": rooms, "sockets": rooms * 4, "actions_per_s": got["actions_per_s"], "p50_ms": got["p50_ms"],
            "p99_ms": got["p99_ms"], "max_ms": got["max_ms"], "errors": got["errors"],
            "error_codes": got["error_codes"],
            "client_failures": got["client_failures"], "server_cpu": got["server_cpu"],
            "cpu_by_process": got["cpu_by_process"], "rss_mib_by_process": got["rss_mib_by_process"],
            "idle_cpu_by_process": got["idle_cpu_by_process"],
            # The clients and Postgres share this machine with the nodes: the cores they took.
            "cpu_beside": got["cpu_beside"],
            "server_p99_ms_at_most": got.get("server_p99_ms_at_most"),
            "server_within_50ms": got.get("server_within_50ms"),
            "nginx_workers": workers, "processes": "node 0, node 1, nginx master, nginx worker(s)",
            "held": (got["p99_ms"] or 1e9) < 50}


# ---------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=("failover", "drain", "cpu", "capacity", "all"), default="all")
    ap.add_argument("--quick", action="store_true", help="small and short: a smoke test")
    ap.add_argument("--failover-rooms", type=int, default=24)
    ap.add_argument("--kills", type=int, default=4, help="kills (failover) or stops (drain) in a run")
    ap.add_argument("--settle", type=float, default=4.0, help="seconds of play before each kill")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds a room may take to come back")
    ap.add_argument("--cpu-rooms", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3, help="cpu: single/cluster run pairs")
    ap.add_argument("--capacity-rooms", type=int, default=2500)
    ap.add_argument("--duration", type=float, default=20.0, help="seconds measured per load run")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=2.0, help="mean seconds before each move at human pace")
    ap.add_argument("--workers", type=int, default=2, help="client processes for the load runs")
    ap.add_argument("--idle", type=float, default=5.0, help="seconds the idle servers' CPU is sampled for")
    args = ap.parse_args()
    if args.quick:
        args.failover_rooms, args.kills, args.settle = 6, 1, 2.0
        args.cpu_rooms, args.repeats, args.capacity_rooms = 10, 1, 50
        args.duration, args.warmup, args.idle = 4.0, 2.0, 1.0
    if not nginx_available():
        sys.exit("bench/cluster.py needs nginx")
    raise_open_files()
    parts = ("failover", "drain", "cpu", "capacity") if args.part == "all" else (args.part,)
    result: dict[str, Any] = {"quick": args.quick}
    for part in parts:  # each on databases of its own
        started = time.monotonic()
        if part in ("failover", "drain"):
            with fresh_database() as url:
                result[part] = asyncio.run(events(url, args, "kill" if part == "failover" else "terminate"))
        elif part == "cpu":
            result[part] = cpu(args)
        else:
            result[part] = capacity(args)
        log(f"{part} ({time.monotonic() - started:.0f} s): {result[part]}")
    print(json.dumps(result))



if __name__ == "__main__":
    main()
