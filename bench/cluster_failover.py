"""The cluster benchmark's failover and drain parts (bench/cluster.py says what each measures):
``events`` kills (SIGKILL) or stops (SIGTERM) the busiest of 3 nodes, times each of its rooms
until its client is acked again on another node, and checks every acknowledged action was
stored exactly once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import time
from collections import Counter
from typing import Any

import asyncpg

from bench.cluster_humans import Human, open_rooms
from bench.figures import log, med, pct
from bench.nodes import LocalCluster


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
