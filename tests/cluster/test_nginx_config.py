"""The nginx configurations in front of the nodes are ones nginx accepts (``nginx -t``), and
the one docker compose uses is the one app/cluster/nginx.py renders."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from app.cluster.nginx import compose_config, config
from bench.nodes import NGINX

ROOT = Path(__file__).resolve().parents[2]


def test_the_compose_configuration_is_the_rendered_one() -> None:
    assert (ROOT / "deploy/nginx/nginx.conf").read_text(encoding="utf-8") == compose_config()


def test_nginx_logs_no_request_lines() -> None:
    """Seat tokens travel in WebSocket URLs, and nginx adds the request line to what it logs
    about a request: at level "error", every refused or timed-out connection to a node while
    one fails over.  Both configurations (compose's, and scripts/cluster.sh's) keep nginx's log
    to worse than that."""
    for text in (compose_config(), config("127.0.0.1:8000", ["127.0.0.1:8001"], prefix="/tmp/uno")):
        levels = re.findall(r"^\s*error_log\s+\S+\s+(\w+);", text, re.MULTILINE)
        assert levels and all(level in ("crit", "alert", "emerg") for level in levels), levels


def test_the_compose_nginx_forgets_a_stopped_replica_within_a_second() -> None:
    """Until its lookup of the app service expires, nginx keeps trying a replica that is gone,
    each try waiting out the connect timeout (a failover's clients would wait with it)."""
    valid = re.search(r"^\s*resolver\s+\S+\s+valid=(\d+)s", compose_config(), re.MULTILINE)
    assert valid is not None and int(valid.group(1)) <= 1


@pytest.mark.usefixtures("nginx")
def test_nginx_accepts_both_configurations(tmp_path: Path) -> None:
    local = tmp_path / "local.conf"
    local.write_text(config("127.0.0.1:18000", ["127.0.0.1:18001", "127.0.0.1:18002"], prefix=str(tmp_path)))
    # The compose one names hosts of the compose network, resolved at request time only.
    composed = tmp_path / "compose.conf"
    composed.write_text(compose_config().replace("worker_processes auto;",
                                                 f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;"))
    for conf in (local, composed):
        result = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
