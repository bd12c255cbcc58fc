"""The HTTP request budget behind nginx (app/web/budget.py): each node counts it for the client's
own address, as nginx forwards it, so one flooding address is refused on every node while
another client of the same proxy is not; and each node counts on its own (docs/OPERATIONS.md)."""

from __future__ import annotations

from collections import Counter

import httpx
import pytest

from bench.nodes import LocalCluster

BURST = 5


@pytest.mark.slow
@pytest.mark.usefixtures("nginx")
def test_two_nodes_budget_the_forwarded_address_each_on_its_own(fresh_postgres_url: str) -> None:
    cluster = LocalCluster(fresh_postgres_url, nodes=2, env={
        "UNO_HTTP_REQUESTS_PER_MINUTE": "6", "UNO_HTTP_REQUESTS_BURST": str(BURST)}).start()
    try:
        flood = httpx.Client(base_url=cluster.http, timeout=30,
                             transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        other = httpx.Client(base_url=cluster.http, timeout=30,
                             transport=httpx.HTTPTransport(local_address="127.0.0.3"))
        with flood, other:
            answers = Counter(flood.get("/api/house-rules").status_code for _ in range(4 * BURST))
            # nginx takes turns: each node spends its own burst on the address, then refuses it
            # (a refill of 0.1 a second adds at most a couple while refusals are held a second each).
            assert BURST < answers[200] <= 2 * BURST + 4, answers
            assert answers[429] >= 2 * BURST - 4 and set(answers) == {200, 429}, answers
            refused = flood.get("/api/house-rules")
            if refused.status_code == 429:
                assert refused.json()["detail"]["code"] == "rate_limited"
            # The same proxy, another client: counted under its own address, not nginx's.
            assert [other.get("/api/house-rules").status_code for _ in range(BURST)] == [200] * BURST
            assert other.get("/healthz").status_code == 200
    finally:
        cluster.stop()
