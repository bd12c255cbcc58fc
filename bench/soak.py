"""Soak: 1,000 rooms × 4 bot clients at human pace for 45 minutes, the server's memory sampled.

    uv run python bench/soak.py                          # 1,000 rooms, 45 minutes, SQLite
    uv run python bench/soak.py --rooms 50 --minutes 3 --warmup-minutes 1 --every 5   # a quick look
    uv run python bench/soak.py --database postgres --remembered --rooms 200 --minutes 30 --warmup-minutes 10

The server and the clients are bench/load.py's (the same bots, the same server settings, the
server started through bench/gc_trace.py), with its garbage-collector policy as it ships
(app/gc_policy.py: no automatic collection; at 4,000 sockets no timed full pass either, unless
memory passes ``UNO_GC_CEILING_MIB``).  The store is SQLite, as a server starts by default: the
in-memory store keeps every match ever played, by design, and would grow for that alone.
``--database postgres`` runs on a database made for the run on ``BENCH_POSTGRES_URL``'s server
(bench/databases.py) and dropped after it, however the run ends (SIGTERM included).
``--remembered``: each seat is a player of its own (``POST /api/me``, as the player page makes
one) and sends that player's cookie on joining and on connecting, as a browser does, so every
finished match settles into the players' histories and ratings.  With each RSS sample the sizes
of the server's caches are read from /metrics (app/web/cache_sizes.py): ``caches_flat`` is true
when none grew from the first sample after the warm-up to the last.

Every ``--every`` seconds the server's resident memory is read from /proc.  Once the warm-up is
over, the series should be flat: ``flat`` is true when its highest and lowest samples are within
``--tolerance`` (5 %) of their median.  The warm-up lasts ``--warmup-minutes`` (15), and at
least until ``--settled`` (90 %) of the rooms have finished their first match (a match in play
keeps its every action and round).  Measured: the rooms' first matches ended 1.4-8.7 min in
(``first_match_over_min``), yet memory climbed until 15-25 min; one run rose about 1 MiB a
minute after that, the next (with censuses) stayed within 1.4 % (docs/OPERATIONS.md, "memory
over a long run"); ``rss_mib_halves`` shows a rise even when the spread is within the
tolerance.  After the run, with every socket still open, one full collection is timed and what
it found reported (``gc_probe.full_pass_found``: the cyclic garbage the run left, which no pass
had collected).  ``--census-every`` minutes the server takes a census (bench/gc_trace.py):
CPython's allocated blocks, glibc's heap (in use, free but kept) and the tracked objects by
type; ``census_growth`` gives the types that grew most after the warm-up, to tell memory still
referenced from memory the allocator keeps.  The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is importable from the project root
from bench.databases import fresh_database  # noqa: E402
from bench.load_clients import run_clients  # noqa: E402
from bench.load_server import gc_figures, start_server  # noqa: E402
from bench.machine import end_on_signals, raise_open_files, rss_kib  # noqa: E402


def read_caches(url: str) -> dict[str, float]:
    """The server's caches by entries (``uno_cache_entries``, app/web/cache_sizes.py) and the
    matches it has settled into players' histories and ratings, from ``GET /metrics``."""
    try:
        text = httpx.get(f"{url}/metrics", timeout=10).text
    except httpx.HTTPError:
        return {}
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("uno_cache_entries{cache=\""):
            name, _, value = line[len("uno_cache_entries{cache=\""):].partition("\"} ")
            out[name] = float(value)
        elif line.startswith("uno_matches_settled_total "):
            out["matches_settled"] = float(line.split()[1])
    return out


class Sampler(threading.Thread):
    """The server's RSS every ``every`` seconds, with the seconds since the run started, and the
    sizes of its caches (from ``url``'s /metrics); a census asked for (``SIGUSR2``,
    bench/gc_trace.py) every ``census_every`` seconds (0: never)."""

    def __init__(self, pid: int, every: float, census_every: float = 0.0, url: str | None = None) -> None:
        super().__init__(daemon=True)
        self.pid, self.every, self.census_every, self.url = pid, every, census_every, url
        self.census_at = census_every
        self.samples: list[tuple[float, float]] = []  # (seconds, MiB)
        self.caches: list[tuple[float, dict[str, float]]] = []  # (seconds, entries by cache)
        self.started = time.monotonic()
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            kib = rss_kib(self.pid)
            if kib is not None:
                self.samples.append((round(time.monotonic() - self.started, 1), round(kib / 1024, 1)))
                print(f"rss at {self.samples[-1][0]:.0f} s: {self.samples[-1][1]} MiB", file=sys.stderr, flush=True)
            if self.url is not None:
                sizes = read_caches(self.url)
                if sizes:
                    self.caches.append((round(time.monotonic() - self.started, 1), sizes))
            if self.census_every and time.monotonic() - self.started >= self.census_at:
                self.census_at += self.census_every
                os.kill(self.pid, signal.SIGUSR2)
            self.stopped.wait(self.every)


def flatness(samples: list[tuple[float, float]], warmup_s: float, tolerance: float) -> dict[str, Any]:
    """How far the samples after the warm-up stray from their median."""
    after = [mib for at, mib in samples if at >= warmup_s]
    if len(after) < 2:
        return {"flat": None, "samples_after_warmup": len(after)}
    median = statistics.median(after)
    spread = max(max(after) - median, median - min(after)) / median
    half = len(after) // 2
    return {
        "samples_after_warmup": len(after),
        "rss_mib_after_warmup": {"first": after[0], "last": after[-1], "min": min(after), "max": max(after),
                                 "median": median},
        # The two halves' medians: a slow leak shows as a later half above the earlier one.
        "rss_mib_halves": [statistics.median(after[:half]), statistics.median(after[half:])],
        "spread_pct": round(spread * 100, 2),
        "flat": spread <= tolerance,
    }


def cache_growth(taken: list[tuple[float, dict[str, float]]], warmup_s: float) -> dict[str, Any]:
    """Each cache's entries at the first and last sample after the warm-up (and its highest);
    ``caches_flat``: none of them grew from the one to the other (the settled matches are a count,
    not a cache, and are left out of the judgement)."""
    after = [sizes for at, sizes in taken if at >= warmup_s]
    if len(after) < 2:
        return {"caches_flat": None}
    first, last = after[0], after[-1]
    names = sorted(first.keys() | last.keys())
    sizes = {name: {"first": first.get(name), "last": last.get(name),
                    "max": max(s.get(name, 0) for s in after)} for name in names}
    grew = [name for name in names if name != "matches_settled" and last.get(name, 0) > first.get(name, 0)]
    return {"cache_entries_after_warmup": sizes, "caches_grown": grew, "caches_flat": not grew}


def first_matches(overs: list[float], enough: int, settled: float) -> dict[str, Any]:
    """When the rooms' first matches ended (minutes after the server started; ``overs`` sorted)."""
    if not overs:
        return {"rooms": 0}
    return {"rooms": len(overs), "first": round(overs[0] / 60, 1), "median": round(statistics.median(overs) / 60, 1),
            f"p{round(settled * 100)}": round(overs[enough - 1] / 60, 1) if enough <= len(overs) else None,
            "last": round(overs[-1] / 60, 1)}


def censuses(taken: list[dict[str, Any]], ready: float, judged_from: float, top: int = 12) -> dict[str, Any]:
    """The censuses (minutes since the server was ready): the allocator's figures at each, and
    the object types that grew most from the first after the warm-up to the last."""
    if not taken:
        return {}
    series = [{"min": round((c["at"] - ready) / 60, 1), "blocks": c["blocks"], "malloc_mib": c["malloc"],
               "tracked": sum(c["types"].values())} for c in taken]
    judged = [c for c in taken if c["at"] - ready >= judged_from] or taken
    first, last = judged[0]["types"], judged[-1]["types"]
    growth = sorted(((kind, last.get(kind, 0) - first.get(kind, 0)) for kind in first.keys() | last.keys()),
                    key=lambda kv: -abs(kv[1]))
    return {"census": series, "census_growth": {
        "from_min": round((judged[0]["at"] - ready) / 60, 1), "to_min": round((judged[-1]["at"] - ready) / 60, 1),
        "blocks": judged[-1]["blocks"] - judged[0]["blocks"], "types": growth[:top]}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", type=int, default=1000)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--think", type=float, default=2.0, help="mean seconds before each move")
    ap.add_argument("--minutes", type=float, default=45.0, help="the whole run, warm-up included")
    ap.add_argument("--warmup-minutes", type=float, default=15.0, help="samples before this are not judged")
    ap.add_argument("--settled", type=float, default=0.9,
                    help="... nor those before this share of the rooms had finished a match")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between RSS samples")
    ap.add_argument("--tolerance", type=float, default=0.05, help="how far from the median is still flat")
    ap.add_argument("--workers", type=int, default=2, help="client processes")
    ap.add_argument("--census-every", type=float, default=0.0,
                    help="minutes between censuses of the server's objects and allocator (0: none)")
    ap.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite",
                    help="postgres: a database made for the run on BENCH_POSTGRES_URL's server, dropped after it")
    ap.add_argument("--remembered", action="store_true",
                    help="each seat a player of its own (POST /api/me), its cookie sent on joining and "
                         "connecting, as a browser does: the matches settle into histories and ratings")
    args = ap.parse_args()
    end_on_signals()  # a SIGTERM stops what this run started, as Ctrl-C does
    raise_open_files()
    # Rooms are all made before any socket opens; on a busy machine that takes minutes, past the
    # sweep of waiting rooms nobody is connected to (and the lookups of swept ones count as misses).
    os.environ.setdefault("UNO_WAITING_ROOM_IDLE_SECONDS", "36000")
    os.environ.setdefault("UNO_ROOM_MISSES_PER_MINUTE", "1000000")
    # What run_clients (bench/load_clients.py) reads: its measured window is the run after the warm-up.
    plan = argparse.Namespace(rooms=args.rooms, seats=args.seats, think=args.think, pace="human",
                              workers=args.workers, warmup=args.warmup_minutes * 60,
                              duration=(args.minutes - args.warmup_minutes) * 60, remembered=args.remembered)
    with tempfile.TemporaryDirectory() as tmp, (
            fresh_database() if args.database == "postgres" else contextlib.nullcontext(None)) as made:
        trace = f"{tmp}/gc.json"
        database_url = made or f"sqlite:///{tmp}/soak.sqlite3"
        print(f"database: {database_url}", file=sys.stderr, flush=True)
        proc, url = start_server(database_url, trace, start_within=120)  # a busy machine
        ready = time.time()
        sampler = Sampler(proc.pid, args.every, args.census_every * 60, url)
        sampler.start()

        def probe() -> None:  # with every socket still open: the garbage a full pass finds now
            sampler.stopped.set()
            os.kill(proc.pid, signal.SIGUSR1)
            time.sleep(10)

        try:
            game = run_clients(url, plan, "game", server_pid=proc.pid, after_window=probe)
        finally:
            sampler.stopped.set()
            proc.terminate()
            try:
                proc.wait(120)  # it writes the collections it timed as it ends
            except subprocess.TimeoutExpired:
                print("the server did not stop within 120 s: killed", file=sys.stderr)
                proc.kill()
                proc.wait()
        window = game.pop("window")
        try:
            traced = json.loads(Path(trace).read_text())
            gc = gc_figures(traced, ready, *window)
        except (OSError, ValueError):
            traced, gc = {}, {}
    # The sampler's clock started with the server; the warm-up ends when the measured window opens,
    # or later, once the share of rooms asked for has finished a match (if it has before the end).
    warmup_s = window[0] - ready
    overs = [at - ready for at in game.pop("first_over")]
    enough = math.ceil(args.settled * args.rooms)
    if 0 < enough <= len(overs):
        warmup_s = max(warmup_s, overs[enough - 1])
    series = sampler.samples
    print("rss series (seconds, MiB): " + " ".join(f"{at:.0f}:{mib}" for at, mib in series), file=sys.stderr)
    result = {"database": args.database, "remembered": args.remembered,
              "rooms": args.rooms, "sockets": args.rooms * args.seats, "minutes": args.minutes,
              "warmup_minutes": args.warmup_minutes, "every_s": args.every,
              "judged_from_min": round(warmup_s / 60, 1),
              "first_match_over_min": first_matches(overs, enough, args.settled),
              **flatness(series, warmup_s, args.tolerance),
              "rss_series_mib": [mib for _, mib in series],
              "actions_per_s": game["actions_per_s"], "p50_ms": game["p50_ms"], "p99_ms": game["p99_ms"],
              "errors": game["errors"], "client_failures": game["client_failures"],
              "gc_collections": gc.get("gc_collections"), "gc_max_pause_ms": gc.get("gc_max_pause_ms"),
              **cache_growth(sampler.caches, warmup_s),
              "gc_probe": gc.get("gc_probe"), **censuses(traced.get("census") or [], ready, warmup_s)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
