"""The cluster benchmark's smoke run: one kill, and its figures in the shape the docs quote."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys

import pytest

from app.cluster.run import ROOT
from tests.persistence.conftest import _admin_dsn
from tests.waiting import eventually

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("nginx", "postgres_url")]


def test_quick_failover_run_reports_its_figures_and_loses_nothing() -> None:
    # The benchmark makes (and drops) a database of its own on the tests' Postgres server.
    env = {**os.environ, "BENCH_POSTGRES_URL": _admin_dsn()}
    run = subprocess.run([sys.executable, "bench/cluster.py", "--quick", "--part", "failover"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    failover = result["failover"]
    for key in ("rooms", "events", "rooms_affected", "rooms_stalled", "p50_s", "p99_s", "max_s", "acked_actions",
                "lost", "doubled", "fatal_closes"):
        assert key in failover, key
    assert failover["rooms_affected"] > 0
    assert failover["rooms_stalled"] == 0
    assert failover["acked_actions"] > 0
    assert failover["lost"] == failover["doubled"] == 0
    assert failover["fatal_closes"] == 0
    assert 0 < failover["p50_s"] <= failover["p99_s"] <= failover["max_s"] < 30


def _children(pid: int) -> set[int]:
    """Every process below ``pid`` (by parent, from /proc), whatever session it is in."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, todo = set(), [pid]
    while todo:
        above = todo.pop()
        below = [child for child, parent in parents.items() if parent == above]
        found.update(below)
        todo.extend(below)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except OSError:
        return False


def test_a_bench_ended_by_sigterm_stops_its_nodes_and_nginx() -> None:
    # Its nodes and nginx run in sessions of their own: SIGTERM to the bench reaches none of them,
    # so only the bench's own clean-up can end them.
    env = {**os.environ, "BENCH_POSTGRES_URL": _admin_dsn()}
    bench = subprocess.Popen([sys.executable, "bench/cluster.py", "--quick", "--part", "cpu"], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    started: set[int] = set()
    try:

        def cluster_up() -> bool:  # two nodes and nginx, at least
            assert bench.poll() is None, bench.stderr.read().decode()[-3000:] if bench.stderr else ""
            started.update(pid for pid in _children(bench.pid) if _alive(pid))
            return len(started) >= 3

        eventually(cluster_up, timeout=120, every=0.2, what="the bench's cluster started")
        bench.send_signal(signal.SIGTERM)
        bench.wait(60)
        assert bench.returncode != 0  # it was stopped, not finished
        eventually(lambda: not any(_alive(pid) for pid in started), timeout=60, every=0.2,
                   what="every process the bench started ended with it")
    finally:  # whatever the outcome, nothing of this test's outlives it
        left = _children(bench.pid) | started
        if bench.poll() is None:
            bench.kill()
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
