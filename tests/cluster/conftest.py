"""Cluster tests: real node processes and a real nginx on loopback, sharing this run's Postgres."""

from __future__ import annotations

import os

import pytest

from bench.nodes import nginx_available
from tests.persistence.conftest import fresh_postgres_url, postgres_url  # noqa: F401  (this run's Postgres)


@pytest.fixture(scope="session")
def nginx() -> None:
    if not nginx_available():
        if os.environ.get("UNO_REQUIRE_POSTGRES"):  # CI: scripts/test.sh installs nginx-light
            pytest.fail("nginx is required for the cluster tests (apt-get install nginx-light)")
        pytest.skip("no nginx (scripts/test.sh installs nginx-light)")
