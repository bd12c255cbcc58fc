"""The load benchmark's client side as a whole (bench/load.py, bench/soak.py, bench/cluster_load.py):
``run_clients`` starts the worker processes (bench/load_workers.py), lines them up, measures the
server's CPU time and memory over their window and merges their figures.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.load_workers import Plan, worker
from bench.machine import cpu_seconds, rss_kib, rss_sum


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
        plan = Plan(http, ws, first, n, args.seats, think, args.warmup, args.duration, mode,
                    remembered=getattr(args, "remembered", False))
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
        "first_over": sorted(t for r in results for t in r["first_over"]),  # wall clock, a room's first match over
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
        **({"cpu_by_process": [round(c, 4) if c is not None else None for c in by_process],
            "rss_mib_by_process": [round(r / 1024, 1) if r else None for r in rss_by_process]}
           if pids is not None else {}),
    }
