"""Abuse benchmark: each attack of an abuse report for a few seconds, beside one honest 4-seat room.

    uv run python bench/abuse.py                       # every attack, 5 s each, on SQLite as run.sh
    uv run python bench/abuse.py --seconds 3 --attacks ping_flood,idle_connections

The server is started as scripts/run.sh starts it (``python -m app serve``, its embedded SQLite
in a temporary directory, the production limits: nothing is lifted).  The honest room is four
bots of bench/load.py on 127.0.0.1, a move about every 0.1 s (each seat within its message
rate); an action's latency is from sending it to the last of the room's four sockets receiving
the patch it caused.  Each attack runs in a process of its own, from other loopback addresses
(127.0.0.2 and up) as other clients would, so the per-address limits tell them apart:

- ``ping_flood``: one socket at a time, no token, floods WebSocket pings and reads nothing;
  when it is closed it connects again (the report: 2,000,000 pings in 22 s on one socket);
- ``idle_connections``: up to 12,000 TCP connections from 40 addresses that never send a byte
  (the report: 20,200 took every file descriptor);
- ``never_reading_spectators``: 45 spectators of the honest room that never read (send queues);
- ``late_uno``: a seat of the attacker's own room repeats a late UNO! catch as fast as it may,
  reconnecting with its token each time it is closed;
- ``spectator_pile``: 300 spectator sockets pile into the honest room, again and again;
- ``rooms_list_flood``: ``GET /api/rooms`` from 4 connections as fast as they go, over 2,000
  public rooms (made beforehand, not timed);
- ``qr_flood``, ``nul_id_storm``, ``http_flood``: see bench/abuse_edges.py (``--postgres``: the server on Postgres).

Each attack is followed by a second with no attack.  Sampled meanwhile: the server's RSS and
open file descriptors (``/proc``), and ``/healthz`` on a fresh connection every quarter of a
second or so (the server is up if it answered every time); ``server_cpu_s`` is the server's CPU
time over the attack, ``refused`` what its limits refused (``uno_refused_total``).  One JSON
line per attack, the last line one object.
Targets: honest p99 < 50 ms and RSS < 512 MiB under every attack, ``/healthz`` always answering.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: bench/ is importable from the project root
from bench.abuse_edges import http_flood, nul_id_storm, postgres_database, qr_flood  # noqa: E402, F401  (attacks)
from bench.abuse_matches import MATCH_ATTACKS, export_flood, replay_flood, store_big_match  # noqa: E402, F401
from bench.abuse_sockets import (  # noqa: E402, F401  (attacks, by name)
    idle_connections,
    late_uno,
    never_reading_spectators,
    ping_flood,
    rooms_list_flood,
    spectator_pile,
)
from bench.abuse_spectators import spectator_squat  # noqa: E402, F401  (an attack, found by name)
from bench.load_bots import Bot, Room, Stats  # noqa: E402
from bench.machine import cpu_seconds, end_on_signals, free_port, raise_open_files, rss_kib  # noqa: E402

ATTACKS = ("none", "ping_flood", "idle_connections", "never_reading_spectators", "late_uno", "spectator_pile",
           "rooms_list_flood", "spectator_squat", "qr_flood", "nul_id_storm", "http_flood", *MATCH_ATTACKS)


def attack_process(name: str, port: int, code: str, seconds: float, out: Any, apart: bool) -> None:
    if apart:  # an attacker's machine is not the honest players': theirs come first on the clients' CPUs
        os.nice(10)
    try:
        out.send(globals()[name](port, code, seconds))
    except Exception as err:  # reported in the figures; the benchmark goes on
        out.send({"attacker_error": repr(err)})


# ---------------------------------------------------------------------- the server, the honest room, the samples


def split_cpus() -> tuple[set[int], set[int]] | None:
    """The server's CPUs and the clients' (half each), or None on a machine of one CPU."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None
    half = len(cpus) // 2
    return set(cpus[:half]), set(cpus[half:])


def start_server(data_dir: str, database_url: str | None = None, cpus: set[int] | None = None,
                 settings: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """As scripts/run.sh starts it: its flags, its SQLite (or ``database_url``), the default limits
    (but for ``settings``: UNO_* variables a bench sets on purpose)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_") and k != "DATABASE_URL"}
    env["UNO_DATA_DIR"] = data_dir
    if database_url:
        env["DATABASE_URL"] = database_url
    env.update(settings or {})
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--log-level", "warning"], cwd=ROOT, env=env,
                            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
    deadline = time.monotonic() + 90  # a busy machine's start (migrations, imports) may take a while
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                return proc, port
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


async def honest_room(port: int, stats: Stats) -> list[Bot]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "public": True, "max_seats": 4,
                                                "target_score": 1})
        room = Room(r.json()["code"])
        for s in range(4):
            j = (await http.post(f"/api/rooms/{room.code}/players", json={"name": f"honest{s}"})).json()
            room.bots.append(Bot(room, s, j["token"], f"ws://127.0.0.1:{port}/ws/rooms/{room.code}", stats,
                                 random.Random(s), think=0.1))
    for b in room.bots:
        await b.open()
    stats.on = True
    room.bots[0].send({"type": "start"}, "s")
    return room.bots


def open_fds(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def counters(port: int) -> tuple[Counter[str], int, dict[str, Counter[float]]]:
    """The server's refusals by reason, the control frames it has read, and its loop-lag histograms
    (cumulative counts by upper bound, seconds) from /metrics."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    refused = Counter({m.group(1): int(m.group(2))
                       for m in re.finditer(r'^uno_refused_total\{reason="([^"]+)"\} (\d+)', text, re.M)})
    control = sum(int(m.group(1)) for m in re.finditer(r'^uno_messages_total\{type="control_\w+"\} (\d+)', text, re.M))
    lags = {name: Counter({float(m.group(1)): int(m.group(2)) for m in
                           re.finditer(rf'^uno_{name}_seconds_bucket\{{le="([^"]+)"\}} (\d+)', text, re.M)})
            for name in ("action", "loop_lag", "loop_busy_lag")}
    return refused, control, lags


def bucket_quantile(cumulative: Counter[float], q: float) -> float | None:
    """The upper bound of the bucket holding quantile ``q`` (a histogram's own resolution)."""
    total = max(cumulative.values(), default=0)
    if total == 0:
        return None
    return next(bound for bound in sorted(cumulative) if cumulative[bound] >= q * total)


async def healthz(port: int) -> float | None:
    """Seconds for /healthz on a fresh connection, from the honest address; None if it failed."""
    start = time.perf_counter()
    try:
        async with httpx.AsyncClient(timeout=2) as http:
            ok = (await http.get(f"http://127.0.0.1:{port}/healthz")).status_code == 200
    except httpx.HTTPError:
        return None
    return time.perf_counter() - start if ok else None


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_attack(name: str, seconds: float, port: int, proc: subprocess.Popen[bytes], code: str,
                     stats: Stats, bots: list[Bot], apart: bool) -> dict[str, Any]:
    before, control_before, lags_before = await asyncio.to_thread(counters, port)
    stats.latencies = []
    ctx = mp.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    attacker = None
    if name != "none":
        attacker = ctx.Process(target=attack_process, args=(name, port, code, seconds, sender, apart),
                               daemon=True)
        attacker.start()
    start = time.monotonic()
    cpu_before = cpu_seconds(proc.pid) or 0.0
    rss_peak, fds_peak, checks, failures = 0, 0, [], 0
    while time.monotonic() - start < seconds + (0.5 if name != "none" else 0):
        # In a thread: listing 10,000 descriptors would hold up the honest bots' loop, and be measured.
        rss, fds = await asyncio.to_thread(lambda: (rss_kib(proc.pid) or 0, open_fds(proc.pid) or 0))
        rss_peak, fds_peak = max(rss_peak, rss), max(fds_peak, fds)
        took = await healthz(port)
        if took is None:
            failures += 1
        else:
            checks.append(took)
        for b in bots:
            b.decide()  # in case a frame a bot waited for said nothing new
        await asyncio.sleep(0.25)
    figures: dict[str, Any] = {}
    if attacker is not None:
        if await asyncio.to_thread(receiver.poll, 30):
            figures = receiver.recv()
        attacker.join(5)
        if attacker.is_alive():
            attacker.kill()
    cpu = (cpu_seconds(proc.pid) or 0.0) - cpu_before
    latencies = list(stats.latencies)
    up = proc.poll() is None and await healthz(port) is not None
    after, control_after, lags_after = await asyncio.to_thread(counters, port) if up else (Counter(), control_before,
                                                                                          lags_before)
    lags = {name: lags_after[name] - lags_before[name] for name in lags_after}
    p99 = percentile(latencies, 0.99)
    result = {
        "attack": name, "seconds": seconds, "honest_actions": len(latencies),
        "honest_p50_ms": round((statistics.median(latencies) if latencies else 0) * 1000, 1),
        "honest_p99_ms": round(p99 * 1000, 1) if p99 is not None else None,
        "honest_max_ms": round(max(latencies) * 1000, 1) if latencies else None,
        "server_cpu_s": round(cpu, 2), "server_rss_peak_mib": round(rss_peak / 1024, 1), "server_fds_peak": fds_peak,
        "healthz_answered": f"{len(checks)}/{len(checks) + failures}",
        "healthz_max_ms": round(max(checks) * 1000, 1) if checks else None,
        # From the server's own histograms over the attack, to their buckets' bounds: an action from its
        # frame's arrival to stored and sent (every room's), how late the loop ran a timer, and of that the
        # part the server's thread could have spent busy (app/transport/loop_lag.py).
        **{f"server_{name}_p99_ms": None if (v := bucket_quantile(lags[name], 0.99)) is None
           else (math.inf if v == math.inf else round(v * 1000, 1)) for name in lags},
        "server_up": up, "refused": dict(after - before), "control_frames_read": control_after - control_before,
        "attacker": figures,
    }
    await asyncio.sleep(1.0)  # a quiet second before the next attack
    return result


async def make_public_rooms(port: int, n: int) -> None:
    """``n`` public rooms from as many addresses as the per-address creation rate needs (20 a minute each)."""
    async def from_address(k: int, count: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.2.{1 + k}")
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport) as http:
            for _ in range(count):
                await http.post("/api/rooms", json={"variant": "classic", "public": True, "max_seats": 4})

    per = 20
    await asyncio.gather(*(from_address(k, min(per, n - k * per)) for k in range((n + per - 1) // per)))


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        cpus = split_cpus() if args.placement == "apart" else None
        if cpus is not None:
            os.sched_setaffinity(0, cpus[1])  # the honest players, and the attackers spawned from here
        proc, port = start_server(tmp, args.database_url, cpus[0] if cpus else None)
        try:
            stats = Stats()
            bots = await honest_room(port, stats)
            code = bots[0].room.code
            await asyncio.sleep(2)  # the first round under way
            results = []
            for name in args.attacks.split(","):
                if name not in ATTACKS:
                    raise SystemExit(f"unknown attack {name!r}; one of {', '.join(ATTACKS)}")
                if name == "rooms_list_flood":
                    await make_public_rooms(port, args.public_rooms)
                if name in MATCH_ATTACKS:  # one finished big match, stored beforehand (bench/abuse_matches.py)
                    await store_big_match(tmp)
                result = await run_attack(name, args.seconds, port, proc, code, stats, bots, cpus is not None)
                print(json.dumps(result), flush=True)
                results.append(result)
                if not result["server_up"]:
                    break
            failures = [b.failure for b in bots if b.failure]
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(20)
    under = [r for r in results if r["attack"] != "none"]
    return {
        "placement": "apart" if cpus is not None else "shared",
        "attacks": {r["attack"]: {k: r[k] for k in (
            "honest_p99_ms", "server_loop_busy_lag_p99_ms", "server_rss_peak_mib", "server_fds_peak",
                                                    "healthz_answered", "server_up")} for r in results},
        "targets_met": all(r["server_up"] and r["honest_p99_ms"] is not None and r["honest_p99_ms"] < 50
                           and r["server_rss_peak_mib"] < 512 and r["healthz_answered"].split("/")[0]
                           == r["healthz_answered"].split("/")[1] for r in under),
        "honest_client_failures": failures,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="how long each attack lasts")
    ap.add_argument("--attacks", default=",".join(ATTACKS), help="which, in order (none: no attack, a baseline)")
    ap.add_argument("--public-rooms", type=int, default=2000, help="rooms listed during rooms_list_flood")
    ap.add_argument("--placement", choices=("apart", "shared"), default="apart",
                    help="apart: the server on half the CPUs, the clients on the others, attackers niced "
                         "(as if on other machines); shared: all on every CPU")
    ap.add_argument("--postgres", action="store_true", help="on a Postgres database made for the run (default: SQLite)")
    args = ap.parse_args()
    end_on_signals()  # a SIGTERM stops what this run started, as Ctrl-C does
    raise_open_files()  # and in the attacker that needs it
    with postgres_database() if args.postgres else contextlib.nullcontext(None) as args.database_url:
        print(json.dumps(asyncio.run(main_async(args))))


if __name__ == "__main__":
    main()
