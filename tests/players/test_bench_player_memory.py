"""The player-memory benchmark's smoke run (bench/player_memory.py --quick) on SQLite and Postgres:
it seeds, migrates, serves, floods and stops, and reports every figure docs/OPERATIONS.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app.cluster.run import ROOT
from tests.persistence.conftest import postgres_url  # noqa: F401  (the fixture: Postgres answers)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("postgres_url")]


def test_quick_run_reports_its_figures_on_both_databases() -> None:
    run = subprocess.run(
        [sys.executable, "bench/player_memory.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert [r["database"] for r in result["runs"]] == ["sqlite", "postgres"]
    for verdict in ("pages_targets_met", "flood_targets_met", "unlimited_flood_held"):
        assert isinstance(result[verdict], bool)
    for figures in result["runs"]:
        assert figures["lines"] == 800 and figures["migration_fill_s"] >= 0
        for kind in ("leaderboard", "player", "group"):
            assert 0 < figures["pages"][f"{kind}_p50_ms"] <= figures["pages"][f"{kind}_p99_ms"]
        for limits in ("limited", "unlimited"):
            got = figures[limits]
            assert got["control_p99_ms"] is not None and got["flood_p99_ms"] is not None
            assert 0 < got["rss_peak_mib"] < 2048
            assert (
                got["flood"]["answers"] > 0 and "0" not in got["flood"]["statuses"]
            )  # no connection dropped
        # Under the production limits a flood is answered or refused 429; lifted, every read is answered.
        assert set(figures["limited"]["flood"]["statuses"]) <= {"200", "429"}
        assert set(figures["unlimited"]["flood"]["statuses"]) == {"200"}
