"""The cluster benchmark's smoke run: one kill, and its figures in the shape the docs quote."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from app.cluster.run import ROOT
from tests.persistence.conftest import _admin_dsn

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
