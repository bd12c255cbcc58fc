"""Player memory at scale: 20,000 players and 100,000 rated history lines, on SQLite and Postgres.

    uv run python bench/player_memory.py                      # both databases, the issue's sizes
    uv run python bench/player_memory.py --databases sqlite --quick         # a smoke run (the tests')

For each database: the history is written straight into the store's tables at migration 0009
(bench/player_seed.py; Postgres: a database of its own, dropped afterwards), then migrations 0010
and 0012 fill the leaderboard's tables from it (timed).  A real server (``python -m app serve``, as
bench/abuse.py starts it, on half the CPUs and the clients on the others) runs one honest 4-seat
room (its action→ack p99: from sending an action to the last of the room's sockets receiving
its patch) while, in turn:

- ``control``: nothing else;
- ``pages``: leaderboard pages (any page), players' pages and their groups asked one at a time
  (each from one of 200 addresses, so that no limit is met): their p50 and p99;
- ``flood``: 4 addresses × 4 keep-alive connections asking for them as fast as the server
  answers (bench/player_flood.py), under the production limits;

then the same server again with the limits on these reads lifted (``UNO_PLAYER_READS_PER_MINUTE``
huge, ``UNO_HTTP_REQUESTS_PER_MINUTE=0``): ``control_unlimited`` and ``flood_unlimited``, what
the reads themselves cost when every one is answered.  Sampled: the server's peak RSS.
Targets (the production server's): a leaderboard page and a player page p99 ≤ 20 ms; under the
flood the honest p99 < 50 ms or within 1.5× of the control of the same server; RSS < 512 MiB.
The flood with the limits lifted is held to the same figures in ``unlimited_flood_held``, reported.
One JSON line per phase, the last line one object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is importable from the project root
from alembic import command  # noqa: E402
from sqlalchemy import text  # noqa: E402

from app.persistence.db import alembic_config, create_engine, resolve_url, upgrade  # noqa: E402
from bench.abuse import honest_room, percentile, split_cpus, start_server  # noqa: E402
from bench.abuse_edges import postgres_database  # noqa: E402
from bench.load_bots import Stats  # noqa: E402
from bench.machine import end_on_signals, raise_open_files, rss_kib  # noqa: E402
from bench.player_flood import flood, sample  # noqa: E402
from bench.player_seed import seed  # noqa: E402

PAGE_SIZE = 20  # UNO_LEADERBOARD_SIZE's default
UNLIMITED = {"UNO_PLAYER_READS_PER_MINUTE": "100000000", "UNO_HTTP_REQUESTS_PER_MINUTE": "0"}


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


@contextlib.contextmanager
def database(kind: str, tmp: str) -> Iterator[tuple[str | None, str]]:
    """(DATABASE_URL for the server, the async URL to seed through); outside any event loop."""
    if kind == "sqlite":
        yield None, resolve_url(None, tmp)
        return
    with postgres_database() as url:
        yield url, resolve_url(url, tmp)


def one_database(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, database(kind, tmp) as (database_url, url):
        return asyncio.run(measure(kind, tmp, database_url, url, args))


async def prepare(url: str, players: int, lines: int) -> dict[str, Any]:
    await asyncio.to_thread(command.upgrade, alembic_config(url), "0009_bot_levels")
    engine = create_engine(url)
    started = time.perf_counter()
    made = await seed(engine, players, lines)
    if engine.dialect.name == "postgresql":
        # A server's history was written over months and autovacuum has long been through it; a
        # history written a moment ago has not (every first read of a page would set its hint bits).
        async with engine.connect() as conn:
            auto = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await auto.execute(text("VACUUM ANALYZE"))
    await engine.dispose()
    seeded = time.perf_counter() - started
    started = time.perf_counter()
    await asyncio.to_thread(upgrade, url)  # 0010 and 0012 fill the leaderboard's tables from the history
    return {**made, "seed_s": round(seeded, 1), "migration_fill_s": round(time.perf_counter() - started, 2)}


class Server:
    """One server process and its honest room, sampled phase by phase."""

    def __init__(self, tmp: str, database_url: str | None, env: dict[str, str], cpus: Any) -> None:
        self.proc, self.port = start_server(tmp, database_url, cpus, env)
        self.stats = Stats()
        self.rss_peak = 0

    async def start(self) -> None:
        self.bots = await honest_room(self.port, self.stats)
        await asyncio.sleep(2)  # the first round under way

    async def phase(self, name: str, seconds: float, job: Any = None) -> dict[str, Any]:
        self.stats.latencies = []
        task = asyncio.ensure_future(job) if job is not None else None
        start = time.monotonic()
        while time.monotonic() - start < seconds or (task is not None and not task.done()):
            self.rss_peak = max(self.rss_peak, rss_kib(self.proc.pid) or 0)
            for b in self.bots:
                b.decide()  # in case a frame a bot waited for said nothing new
            await asyncio.sleep(0.25)
        latencies = list(self.stats.latencies)
        out = {
            "phase": name,
            "honest_actions": len(latencies),
            "honest_p50_ms": ms(statistics.median(latencies)) if latencies else None,
            "honest_p99_ms": ms(percentile(latencies, 0.99)),
            "rss_peak_mib": round(self.rss_peak / 1024, 1),
        }
        if task is not None:
            out.update(await task)
        print(json.dumps(out), flush=True)
        return out

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except Exception:
            self.proc.kill()


async def pages(port: int, made: dict[str, Any], count: int) -> dict[str, Any]:
    pages = max(1, made["players"] // PAGE_SIZE // 2)
    took = await in_process(sample, (port, made["players"], pages, made["busiest"], count), 600)
    if "sample_error" in took:
        return took
    return {
        f"{kind}_{q}_ms": ms(percentile(values, p))
        for kind, values in took.items()
        for q, p in (("p50", 0.5), ("p99", 0.99))
    }


async def in_process(target: Any, args: tuple[Any, ...], timeout: float) -> dict[str, Any]:
    """``target(*args, pipe)`` in a process of its own; what it sent back."""
    ctx = mp.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=target, args=(*args, sender), daemon=True)
    proc.start()
    try:
        got: dict[str, Any] = (
            receiver.recv() if await asyncio.to_thread(receiver.poll, timeout) else {"error": "no answer"}
        )
    finally:
        proc.join(5)
        if proc.is_alive():
            proc.kill()
    return got


async def flooded(port: int, made: dict[str, Any], seconds: float) -> dict[str, Any]:
    pages = max(1, made["players"] // PAGE_SIZE // 2)
    return {
        "flood": await in_process(
            flood, (port, made["players"], pages, made["busiest"], seconds), seconds + 60
        )
    }


async def measure(
    kind: str, tmp: str, database_url: str | None, url: str, args: argparse.Namespace
) -> dict[str, Any]:
    made = await prepare(url, args.players, args.lines)
    print(json.dumps({"database": kind, **made}), flush=True)
    cpus = split_cpus()
    if cpus is not None:
        os.sched_setaffinity(0, cpus[1])  # the honest players and the clients; the server on the others
    figures: dict[str, Any] = {"database": kind, **made}
    for limits, env in (("limited", {}), ("unlimited", UNLIMITED)):
        server = Server(tmp, database_url, env, cpus[0] if cpus else None)
        try:
            await server.start()
            suffix = "" if limits == "limited" else "_unlimited"
            control = await server.phase(f"control{suffix}", args.seconds)
            if limits == "limited":
                figures["pages"] = await server.phase("pages", 0, pages(server.port, made, args.samples))
            flood_phase = await server.phase(
                f"flood{suffix}", args.seconds, flooded(server.port, made, args.seconds)
            )
            figures[limits] = {
                "control_p99_ms": control["honest_p99_ms"],
                "flood_p99_ms": flood_phase["honest_p99_ms"],
                "flood": flood_phase["flood"],
                "rss_peak_mib": server.rss_peak // 1024,
            }
        finally:
            server.stop()
    return figures


def _held(run: dict[str, Any]) -> bool:
    control, under = run["control_p99_ms"], run["flood_p99_ms"]
    return (
        under is not None
        and (under < 50 or (control is not None and under <= 1.5 * control))
        and run["rss_peak_mib"] < 512
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    runs = [one_database(kind, args) for kind in args.databases.split(",")]
    # The targets are the production server's; the flood with the limits lifted is reported beside them
    # (what the reads themselves cost when every one is answered), not held to them.
    return {
        "players": args.players,
        "lines": args.lines,
        "runs": runs,
        "pages_targets_met": all(
            r["pages"].get("leaderboard_p99_ms", 1e9) <= 20 and r["pages"].get("player_p99_ms", 1e9) <= 20
            for r in runs
        ),
        "flood_targets_met": all(_held(r["limited"]) for r in runs),
        "unlimited_flood_held": all(_held(r["unlimited"]) for r in runs),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--databases", default="sqlite,postgres", help="sqlite, postgres or both")
    ap.add_argument("--players", type=int, default=20_000)
    ap.add_argument("--lines", type=int, default=100_000, help="rated history lines (4 a match)")
    ap.add_argument("--seconds", type=float, default=20.0, help="how long the control and each flood last")
    ap.add_argument("--samples", type=int, default=300, help="pages of each kind asked one at a time")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 200 players, 800 lines, 1.5 s phases")
    args = ap.parse_args()
    if args.quick:
        args.players, args.lines, args.seconds, args.samples = 200, 800, 1.5, 5
    end_on_signals()  # a SIGTERM stops what this run started (its servers, its database), as Ctrl-C does
    raise_open_files()
    print(json.dumps(run(args)))


if __name__ == "__main__":
    main()
