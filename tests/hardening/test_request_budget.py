"""Every HTTP request from one address draws on a budget (app/web/budget.py): a burst, then a
steady rate; past it 429, held back a second so that a flood on few connections slows to a trickle."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from app.web.budget import HOLD_S, Buckets
from tests.live import LiveServer


def test_a_bucket_spends_its_burst_then_refills_at_its_rate() -> None:
    now = [0.0]
    buckets = Buckets(per_second=2.0, burst=3, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(0.5)  # empty: one more in half a second
    assert buckets.take("b") == 0.0  # another address has its own
    now[0] = 0.5
    assert buckets.take("a") == 0.0
    now[0] = 100.0  # refilled, but never past the burst
    assert [buckets.take("a") for _ in range(4)][-1] > 0


@pytest.fixture
def server() -> Iterator[LiveServer]:
    live = LiveServer(http_requests_per_minute=6, http_requests_burst=5).start()  # one more in 10 s
    yield live
    live.stop()


def _from(address: str, server: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=server.http, transport=httpx.HTTPTransport(local_address=address), timeout=30)


def test_past_its_budget_an_address_is_refused_after_a_hold_and_others_are_not(server: LiveServer) -> None:
    with _from("127.0.0.2", server) as flood, _from("127.0.0.3", server) as honest:
        assert [flood.get("/api/house-rules").status_code for _ in range(5)] == [200] * 5
        started = time.monotonic()
        refused = flood.get("/api/house-rules")
        held = time.monotonic() - started
        assert refused.status_code == 429 and refused.json()["detail"]["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        assert held >= HOLD_S * 0.9  # a lower bound: a loaded machine only makes it longer
        assert flood.get("/healthz").status_code == 200  # health checks are never counted
        assert honest.get("/api/house-rules").status_code == 200  # another address, its own budget
        assert flood.get("/").status_code == 429  # pages too: every request counts
    with httpx.Client(base_url=server.http) as local:
        metrics = local.get("/metrics").text
    assert 'uno_refused_total{reason="http_budget"}' in metrics


def test_a_budget_of_zero_is_off() -> None:
    live = LiveServer(http_requests_per_minute=0, http_requests_burst=1).start()
    try:
        with _from("127.0.0.4", live) as client:
            assert {client.get("/api/house-rules").status_code for _ in range(20)} == {200}
    finally:
        live.stop()
