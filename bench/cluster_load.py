"""The cluster benchmark's cpu and capacity parts (bench/cluster.py says what each measures):
bench/load.py's clients at human pace against one node alone (``SingleNode``) or nodes behind
nginx (bench/nodes.py), each load run on a database of its own (``loaded``), with the server
processes' CPU time, their own action-latency histogram and the cores left beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx

from bench.databases import fresh_database
from bench.figures import log, med
from bench.load_clients import run_clients
from bench.machine import children, cpu_seconds, postgres_pids
from bench.nodes import LocalCluster

# ---------------------------------------------------------------------- the servers


def server_pids(cluster: LocalCluster) -> list[int]:
    """The nodes, then nginx's master and workers."""
    pids = [p for p in cluster.pids() if p is not None]
    if cluster.nginx is not None:
        pids += [cluster.nginx.pid, *children(cluster.nginx.pid)]
    return pids


class SingleNode(LocalCluster):
    """One node, cluster mode off, reached directly (no nginx): the baseline."""

    def __init__(self, database_url: str) -> None:
        super().__init__(database_url, nodes=1)

    def env(self, i: int) -> dict[str, str]:
        env = super().env(i)
        for name in ("UNO_CLUSTER", "UNO_NODE_ID", "UNO_NODE_ADDRESS"):
            env.pop(name, None)
        return env

    def start(self) -> SingleNode:
        self.start_node(0)
        return self

    @property
    def http(self) -> str:
        return self.node_http(0)


# ---------------------------------------------------------------------- cpu and capacity


def load_args(args: argparse.Namespace, rooms: int, duration: float) -> argparse.Namespace:
    return argparse.Namespace(rooms=rooms, seats=4, pace="human", think=args.think, warmup=args.warmup,
                              duration=duration, workers=args.workers)


def idle_cpu(pids: list[int], seconds: float) -> list[float | None]:
    """Cores each process keeps busy with no room open: what a node costs before any action."""
    before = [cpu_seconds(p) for p in pids]
    time.sleep(seconds)
    after = [cpu_seconds(p) for p in pids]
    return [round((b - a) / seconds, 4) if a is not None and b is not None else None
            for a, b in zip(before, after, strict=True)]


def action_histogram(cluster: LocalCluster) -> Counter[float]:
    """The nodes' ``uno_action_seconds`` buckets, summed (cumulative counts by upper bound)."""
    total: Counter[float] = Counter()
    for i in range(cluster.count):
        text = httpx.get(f"{cluster.node_http(i)}/metrics", timeout=10).text
        for line in text.splitlines():
            if line.startswith("uno_action_seconds_bucket"):
                bound = line.split('le="', 1)[1].split('"', 1)[0]
                total[float("inf") if bound == "+Inf" else float(bound)] += int(line.rsplit(" ", 1)[1])
    return total


def server_latency(before: Counter[float], after: Counter[float]) -> dict[str, Any]:
    """From the nodes' own histogram (an action frame's arrival to its room having stored it and
    sent its frames), over the warm-up and the window: the bucket bound p99 falls under, and the
    share within 50 ms."""
    counts = {bound: after[bound] - before[bound] for bound in sorted(after)}
    total = counts.get(float("inf"), 0)
    if not total:
        return {"server_actions": 0}
    p99 = next(bound for bound, n in counts.items() if n >= 0.99 * total)
    return {"server_actions": total, "server_p99_ms_at_most": round(p99 * 1000, 1),
            "server_within_50ms": round(counts.get(0.05, 0) / total, 4)}


def loaded(make: Callable[[str], LocalCluster], args: argparse.Namespace, rooms: int,
           duration: float) -> dict[str, Any]:
    """One load run on a database of its own: an earlier run's rooms, restored, would play too."""
    with fresh_database() as url:
        cluster = make(url)
        try:
            cluster.start()
            pids = server_pids(cluster)
            idle = idle_cpu(pids, args.idle)
            before = action_histogram(cluster)
            after: list[Counter[float]] = []
            got = run_clients(cluster.http, load_args(args, rooms, duration), "game", server_pid=None, pids=pids,
                              after_window=lambda: after.append(action_histogram(cluster)),
                              beside={"postgres": postgres_pids})
            got.pop("first_over")  # bench/soak.py's; here a long list
            return {**got, "idle_cpu_by_process": idle, **server_latency(before, after[0])}
        except Exception:
            with contextlib.suppress(OSError):  # nginx's word on it, before its files go
                log("\n".join(["nginx error.log, last lines:",
                               *(cluster.prefix / "error.log").read_text().splitlines()[-10:]]))
            raise
        finally:
            cluster.stop()


ENV = {"UNO_BETWEEN_ROUNDS_SECONDS": "1"}


def cpu(args: argparse.Namespace) -> dict[str, Any]:
    """Server CPU per action: one process alone, against two nodes behind nginx; and, to tell the
    cluster's own costs (nginx's hop, the fencing) from those of splitting the rooms between two
    processes on two shared cores, one node in cluster mode behind nginx."""
    single: list[float] = []
    cluster: list[float] = []
    nodes_only: list[float] = []  # the cluster's nodes alone, without nginx
    nginx: list[float] = []
    one_node: list[float] = []  # one node behind nginx, nginx included
    one_node_alone: list[float] = []  # that node without nginx
    idle_single: list[float] = []
    idle_cluster: list[float] = []
    for n in range(args.repeats):
        a = loaded(SingleNode, args, args.cpu_rooms, args.duration)
        b = loaded(lambda url: LocalCluster(url, nodes=2, env=ENV), args, args.cpu_rooms, args.duration)
        one = loaded(lambda url: LocalCluster(url, nodes=1, env=ENV), args, args.cpu_rooms, args.duration)
        log(f"cpu {n + 1}: single {a['server_us_per_action']} us/action ({a['actions_per_s']}/s), "
            f"2 nodes + nginx {b['server_us_per_action']} us/action ({b['actions_per_s']}/s) {b['cpu_by_process']}, "
            f"1 node + nginx {one['server_us_per_action']} us/action {one['cpu_by_process']}")
        idle_single.append(sum(c or 0.0 for c in a["idle_cpu_by_process"]))
        idle_cluster.append(sum(c or 0.0 for c in b["idle_cpu_by_process"]))
        if a["server_us_per_action"] and b["server_us_per_action"] and one["server_us_per_action"]:
            single.append(a["server_us_per_action"])
            cluster.append(b["server_us_per_action"])
            per_action = 1e6 / b["actions_per_s"]
            nodes_only.append(sum(c or 0.0 for c in b["cpu_by_process"][:2]) * per_action)
            nginx.append(sum(c or 0.0 for c in b["cpu_by_process"][2:]) * per_action)
            one_node.append(one["server_us_per_action"])
            one_node_alone.append((one["cpu_by_process"][0] or 0.0) * 1e6 / one["actions_per_s"])
    ratios = [y / x for x, y in zip(single, cluster, strict=True)]
    # Each pair ran a minute apart: on a machine others share, a ratio within a pair moves less
    # with the machine's load than the ratio of the two medians, each from its own runs.
    nodes_ratios = [y / x for x, y in zip(single, nodes_only, strict=True)]

    def ratio(values: list[float]) -> float | None:
        return round(statistics.median(values) / statistics.median(single), 3) if single else None

    return {"rooms": args.cpu_rooms, "repeats": args.repeats, "single_us_per_action": med(single),
            "cluster_us_per_action": med(cluster), "ratio": ratio(cluster),
            "ratios": [round(r, 3) for r in ratios],
            # Where the difference goes: the two nodes' own CPU, and nginx's (its hop, both ways).
            "nodes_us_per_action": med(nodes_only), "nginx_us_per_action": med(nginx),
            "nodes_ratio": ratio(nodes_only), "nodes_ratios": [round(r, 3) for r in nodes_ratios],
            "nodes_ratio_of_pairs": med(nodes_ratios),
            # One node in cluster mode behind nginx: the cluster's machinery without the split.
            "one_node_us_per_action": med(one_node), "one_node_ratio": ratio(one_node),
            "one_node_alone_ratio": ratio(one_node_alone),
            # With no room open: the cores the server keeps busy anyway (leases, timers).
            "idle_cpu_single": med(idle_single), "idle_cpu_cluster": med(idle_cluster)}


def capacity(args: argparse.Namespace) -> dict[str, Any]:
    rooms = args.capacity_rooms
    # Each client socket is two files for nginx (the client's, the node's), and an nginx worker
    # may have ulimit -n of them: past that, more workers.
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    workers = 1 + (rooms * 4 * 2 + 1000) // limit
    got = loaded(lambda url: LocalCluster(url, nodes=2, env=ENV, nginx_workers=workers), args, rooms, args.duration)
    return {"rooms": rooms, "sockets": rooms * 4, "actions_per_s": got["actions_per_s"], "p50_ms": got["p50_ms"],
            "p99_ms": got["p99_ms"], "max_ms": got["max_ms"], "errors": got["errors"],
            "error_codes": got["error_codes"],
            "client_failures": got["client_failures"], "server_cpu": got["server_cpu"],
            "cpu_by_process": got["cpu_by_process"], "rss_mib_by_process": got["rss_mib_by_process"],
            "idle_cpu_by_process": got["idle_cpu_by_process"],
            # The clients and Postgres share this machine with the nodes: the cores they took.
            "cpu_beside": got["cpu_beside"],
            "server_p99_ms_at_most": got.get("server_p99_ms_at_most"),
            "server_within_50ms": got.get("server_within_50ms"),
            "nginx_workers": workers, "processes": "node 0, node 1, nginx master, nginx worker(s)",
            "held": (got["p99_ms"] or 1e9) < 50}
