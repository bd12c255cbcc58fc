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
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is importable from the project root
from bench.modes import mode  # noqa: E402  (first: it reads --mode, which decides what importing app gives)

# isort: split
from bench.databases import drop_postgres_database, postgres_database  # noqa: E402
from bench.load_clients import run_clients  # noqa: E402
from bench.load_server import gc_figures, start_server  # noqa: E402
from bench.machine import end_on_signals, raise_open_files, rss_kib  # noqa: E402


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
        game.pop("first_over")
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
    end_on_signals()  # a SIGTERM stops what this run started, as Ctrl-C does
    raise_open_files()
    echo = args.pace == "full" and not args.no_baselines

    result: dict[str, Any] = {"rooms": args.rooms, "sockets": args.rooms * args.seats, "pace": args.pace,
                              "duration_s": args.duration}
    if args.url is not None:
        game = run_clients(args.url, args, "game", server_pid=None)
        game.pop("window")
        game.pop("first_over")
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
    print(json.dumps({"mode": mode(), **result}))  # the server's too: it inherits UNO_ENGINE


if __name__ == "__main__":
    main()
