"""In cluster mode ``/metrics`` is refused to everyone outside UNO_METRICS_ALLOW, at nginx (the
one front door) and at each node (which sees the client's address nginx forwards)."""

from __future__ import annotations

import httpx
import pytest

from bench.nodes import LocalCluster


def get(url: str, source: str) -> httpx.Response:
    with httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=10) as http:
        return http.get(url)


@pytest.mark.slow
@pytest.mark.usefixtures("nginx")
def test_metrics_are_refused_at_nginx_and_at_the_node(fresh_postgres_url: str) -> None:
    # nginx lets .1 and .2 through; the node itself serves .1 and .3: each refuses on its own.
    cluster = LocalCluster(fresh_postgres_url, nodes=1, env={"UNO_METRICS_ALLOW": "127.0.0.1,127.0.0.3"},
                           metrics_allow="127.0.0.1,127.0.0.2").start()
    try:
        front = f"{cluster.http}/metrics"
        assert get(front, "127.0.0.1").status_code == 200
        by_node = get(front, "127.0.0.2")  # passed by nginx, refused by the node (forwarded address)
        assert by_node.status_code == 403 and by_node.json()["detail"]["code"] == "forbidden"
        by_nginx = get(front, "127.0.0.3")  # the node would serve it: nginx refuses it
        assert by_nginx.status_code == 403 and by_nginx.json()["detail"]["code"] == "forbidden"
        assert "uno_rooms" not in by_nginx.text
        node = f"{cluster.node_http(0)}/metrics"
        assert get(node, "127.0.0.3").status_code == 200
        assert get(node, "127.0.0.2").status_code == 403
        # The rest of the site is not affected.
        assert get(f"{cluster.http}/healthz", "127.0.0.3").status_code == 200
    finally:
        cluster.stop()
