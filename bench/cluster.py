"""Cluster benchmark: nodes behind nginx on one Postgres, killed, drained and loaded.

    uv run python bench/cluster.py                       # every part, full size
    uv run python bench/cluster.py --part failover       # one part: failover, drain, cpu, capacity
    uv run python bench/cluster.py --quick               # every part, small (a smoke test, < 1 min each)
    uv run python bench/cluster.py --part cpu --mode compiled   # the nodes' engine: bench/modes.py
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
  medians; ``nodes_ratio`` the same for the nodes alone (``nodes_ratios`` each pair's, and
  ``nodes_ratio_of_pairs`` their median), ``nginx_us_per_action`` nginx's share.  With
  ``--mode both`` every run is made per mode, interpreted and compiled in turn (bench/modes.py).
- capacity: ``--capacity-rooms`` rooms of 4 (bench/load.py's clients) on 2 nodes behind nginx at
  human pace: action latency, each process's CPU and RSS.

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ and tests/ are importable from the project root
from bench.modes import mode  # noqa: E402  (first: it reads --mode, which the nodes inherit as UNO_ENGINE)

# isort: split
from bench.cluster_failover import events  # noqa: E402
from bench.cluster_load import capacity, cpu  # noqa: E402
from bench.databases import fresh_database  # noqa: E402
from bench.figures import log  # noqa: E402
from bench.machine import end_on_signals, raise_open_files  # noqa: E402
from bench.nodes import nginx_available  # noqa: E402


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
    end_on_signals()  # a SIGTERM stops what this run started, as Ctrl-C does
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
    print(json.dumps({"mode": mode(), **result}))


if __name__ == "__main__":
    main()
