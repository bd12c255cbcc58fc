"""Run a cluster on one machine: N nodes and nginx in front (``bash scripts/cluster.sh``).

    python -m app cluster [--nodes N] [--port 8000] [--first-node-port 8001]

Needs a Postgres ``DATABASE_URL`` and nginx.  Each node is ``python -m app serve``, the same
server as ``scripts/run.sh`` starts, with ``UNO_CLUSTER=1`` and nginx as its trusted proxy;
nginx listens on ``--port``.  SIGTERM or
Ctrl-C stops nginx, then the nodes (each hands its rooms over as it goes).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .nginx import METRICS_ALLOW, config

ROOT = Path(__file__).resolve().parents[2]


def node_command(port: int, host: str = "127.0.0.1") -> list[str]:
    """The command line of one node: the server's own entry point (as scripts/run.sh starts it)."""
    return [sys.executable, "-m", "app", "serve", "--host", host, "--port", str(port),
            "--timeout-graceful-shutdown", "10"]


def node_env(port: int, index: int) -> dict[str, str]:
    # nginx, on this machine, is the proxy whose X-Forwarded-For the nodes believe.
    return {**os.environ, "UNO_CLUSTER": "1", "UNO_NODE_ID": f"node-{index}-{port}",
            "UNO_NODE_ADDRESS": f"127.0.0.1:{port}", "PORT": str(port), "UNO_TRUSTED_PROXIES": "127.0.0.1"}


def start_node(port: int, index: int) -> subprocess.Popen[bytes]:
    # A session of its own: a signal meant for the launcher's terminal reaches the nodes only
    # as the launcher forwards it (SIGTERM, after nginx has stopped taking requests).
    return subprocess.Popen(node_command(port), env=node_env(port, index), cwd=ROOT, start_new_session=True)


def start_nginx(listen: str, nodes: list[str], prefix: Path) -> subprocess.Popen[bytes]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    prefix.mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(config(listen, nodes, prefix=str(prefix),
                           metrics_allow=os.environ.get("UNO_METRICS_ALLOW") or METRICS_ALLOW))
    return subprocess.Popen([nginx, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"], start_new_session=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app cluster", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--first-node-port", type=int, default=None)
    args = parser.parse_args(argv)
    if not (os.environ.get("DATABASE_URL") or os.environ.get("UNO_DATABASE_URL") or "").startswith("postgres"):
        print("A cluster needs a Postgres DATABASE_URL (postgresql://...): its nodes share it.", file=sys.stderr)
        return 2
    first = args.first_node_port or args.port + 1
    ports = [first + i for i in range(args.nodes)]
    nodes = [start_node(port, i) for i, port in enumerate(ports)]
    prefix = Path(tempfile.mkdtemp(prefix="uno-nginx-"))
    proxy = start_nginx(f"{args.host}:{args.port}", [f"127.0.0.1:{p}" for p in ports], prefix)
    print(f"UNO cluster: http://{args.host}:{args.port}  ({args.nodes} nodes on ports {ports[0]}-{ports[-1]})",
          flush=True)
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping and proxy.poll() is None:
        time.sleep(0.5)
        for i, node in enumerate(nodes):  # a node that died comes back (its rooms meanwhile live on)
            if node.poll() is not None and not stopping:
                print(f"node {i} exited ({node.returncode}); starting it again", file=sys.stderr, flush=True)
                nodes[i] = start_node(ports[i], i)
    proxy.terminate()
    for node in nodes:
        node.send_signal(signal.SIGTERM)
    for node in nodes:
        try:
            node.wait(timeout=20)
        except subprocess.TimeoutExpired:
            node.kill()
    shutil.rmtree(prefix, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
