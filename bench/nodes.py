"""A cluster on this machine for the cluster tests and benchmark: N real node processes and a
real nginx in front (the configuration scripts/cluster.sh uses), on a Postgres database of
the caller's.  Nodes can be killed, paused, stopped and started again, as an operator or a
crash would.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

from app.cluster.nginx import METRICS_ALLOW, config
from app.cluster.run import ROOT, node_command
from bench.machine import free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# The per-address limits are for strangers; every client here is 127.0.0.1.
LIFTED = {"UNO_CREATE_ROOMS_PER_MINUTE": "1000000", "UNO_JOINS_PER_MINUTE": "1000000",
          "UNO_ROOMS_PER_ADDRESS": "1000000", "UNO_SOCKET_RATE_MESSAGES": "1000000",
          "UNO_SOCKETS_PER_ADDRESS": "1000000", "UNO_CONNECTIONS_PER_ADDRESS": "1000000",
          "UNO_MAX_CONNECTIONS": "1000000", "UNO_SOCKET_OPENS_PER_MINUTE": "1000000",
          "UNO_ROOM_LISTS_PER_MINUTE": "1000000", "UNO_ROOM_MISSES_PER_MINUTE": "1000000",
          "UNO_MAX_ROOMS": "1000000", "UNO_HTTP_REQUESTS_PER_MINUTE": "0",
          "UNO_NEW_PLAYERS_PER_HOUR": "1000000"}


def nginx_available() -> bool:
    return Path(NGINX).exists()


class LocalCluster:
    def __init__(self, database_url: str, nodes: int = 3, env: dict[str, str] | None = None,
                 per_address: int = 60_000, nginx_workers: int = 1, metrics_allow: str = METRICS_ALLOW) -> None:
        self.database_url = database_url
        self.count = nodes
        self.extra_env = env or {}
        self.per_address = per_address
        self.metrics_allow = metrics_allow  # who nginx lets read /metrics (each node has its own UNO_METRICS_ALLOW)
        # nginx's worker processes: each client socket is two files for nginx (the client's, the
        # node's), and each worker is held to ulimit -n; more sockets need more workers.
        self.nginx_workers = nginx_workers
        self.ports = [free_port() for _ in range(nodes)]
        self.port = free_port()
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * nodes
        self.prefix = Path(tempfile.mkdtemp(prefix="uno-cluster-"))
        self.nginx: subprocess.Popen[bytes] | None = None
        self.paused: set[int] = set()

    # ------------------------------------------------------------------ addresses

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def node_http(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def node_id(self, i: int) -> str:
        return f"node-{i}-{self.ports[i]}"

    def index_of(self, node_id: str) -> int | None:
        return next((i for i in range(self.count) if self.node_id(i) == node_id), None)

    # ------------------------------------------------------------------ processes

    def env(self, i: int) -> dict[str, str]:
        return {**os.environ, **LIFTED, "DATABASE_URL": self.database_url, "UNO_CLUSTER": "1",
                "UNO_NODE_ID": self.node_id(i), "UNO_NODE_ADDRESS": f"127.0.0.1:{self.ports[i]}",
                "PORT": str(self.ports[i]), "UNO_GC_FULL_SECONDS": "900",
                "UNO_TRUSTED_PROXIES": "127.0.0.1", **self.extra_env}  # nginx's X-Forwarded-For is believed

    def start(self) -> LocalCluster:
        for i in range(self.count):
            self.start_node(i, wait=False)
        for i in range(self.count):
            self.wait_healthy(i)
        conf = self.prefix / "nginx.conf"
        text = config(f"127.0.0.1:{self.port}", [f"127.0.0.1:{p}" for p in self.ports],
                      prefix=str(self.prefix), connections_per_address=self.per_address,
                      metrics_allow=self.metrics_allow)
        if self.nginx_workers > 1:  # the kernel shares new connections out among them (reuseport)
            text = text.replace("worker_processes 1;", f"worker_processes {self.nginx_workers};")
            text = text.replace(f"listen 127.0.0.1:{self.port};", f"listen 127.0.0.1:{self.port} reuseport;")
        conf.write_text(text)
        self.nginx = subprocess.Popen([NGINX, "-p", str(self.prefix), "-c", str(conf), "-g", "daemon off;"],
                                      start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("nginx did not come up")

    def start_node(self, i: int, wait: bool = True) -> None:
        self.procs[i] = subprocess.Popen([*node_command(self.ports[i]), "--log-level", "warning"], cwd=ROOT,
                                         env=self.env(i), start_new_session=True)
        if wait:
            self.wait_healthy(i)

    def wait_healthy(self, i: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        proc = self.procs[i]
        while time.monotonic() < deadline:
            assert proc is not None and proc.poll() is None, f"node {i} exited while starting"
            try:
                if httpx.get(f"{self.node_http(i)}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"node {i} did not come up")

    def kill(self, i: int) -> None:
        """SIGKILL: a crash."""
        proc = self.procs[i]
        assert proc is not None
        if i in self.paused:
            self.resume(i)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        self.procs[i] = None

    def terminate(self, i: int, timeout: float = 30) -> float:
        """SIGTERM, as a deploy sends: seconds until the node has handed over and exited."""
        proc = self.procs[i]
        assert proc is not None
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout)
        self.procs[i] = None
        return time.monotonic() - started

    def pause(self, i: int) -> None:
        proc = self.procs[i]
        assert proc is not None
        proc.send_signal(signal.SIGSTOP)
        self.paused.add(i)

    def resume(self, i: int) -> None:
        proc = self.procs[i]
        assert proc is not None
        proc.send_signal(signal.SIGCONT)
        self.paused.discard(i)

    def pids(self) -> list[int | None]:
        return [p.pid if p is not None else None for p in self.procs]

    def stop(self) -> None:
        for i in list(self.paused):
            self.resume(i)
        if self.nginx is not None:
            self.nginx.terminate()
            self.nginx.wait(10)
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for i, proc in enumerate(self.procs):
            if proc is not None:
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                self.procs[i] = None
        shutil.rmtree(self.prefix, ignore_errors=True)
