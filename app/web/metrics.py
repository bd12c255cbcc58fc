"""``GET /metrics``: Prometheus text exposition (format 0.0.4), written by hand — no dependency.

What to watch is in docs/OPERATIONS.md.
"""

from __future__ import annotations

import ipaddress
import os
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from app.config import Settings, networks_of
from app.gc_policy import Passes, resident_bytes
from app.web.cache_sizes import cache_sizes
from app.web.limits import client_address

router = APIRouter(tags=["health"])

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
STARTED = time.time()


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class Exposition:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def metric(self, name: str, kind: str, help_text: str, samples: list[tuple[str, float]]) -> None:
        self.lines.append(f"# HELP {name} {help_text}")
        self.lines.append(f"# TYPE {name} {kind}")
        for labels, value in samples:
            self.lines.append(f"{name}{labels} {_number(value)}")

    def histogram(self, name: str, help_text: str, hist: Any) -> None:
        """``hist``: an app/transport/metrics.py Histogram (read, never imported: web sits beside transport)."""
        self.lines.append(f"# HELP {name} {help_text}")
        self.lines.append(f"# TYPE {name} histogram")
        for bound, count in hist.cumulative():
            self.lines.append(f'{name}_bucket{{le="{bound}"}} {count}')
        self.lines.append(f"{name}_sum {_number(hist.sum)}")
        self.lines.append(f"{name}_count {hist.count}")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def open_fds() -> int | None:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return None


def render(request: Request) -> str:
    state = request.app.state
    metrics = state.metrics  # app/transport/metrics.py's counters (web never imports transport)
    rooms = list(state.registry.rooms.values())
    store = state.store
    out = Exposition()
    out.metric("uno_rooms", "gauge", "Rooms open on this server.", [("", len(rooms))])
    statuses: dict[str, int] = {"waiting": 0, "playing": 0, "between": 0, "over": 0}
    for actor in rooms:
        status = str(actor.summary.get("status", "unknown"))
        statuses[status] = statuses.get(status, 0) + 1
    out.metric("uno_rooms_by_status", "gauge", "Rooms open, by status.",
               [(f'{{status="{_label(s)}"}}', n) for s, n in sorted(statuses.items())])
    out.metric("uno_sockets", "gauge", "Game WebSockets open now.", [("", metrics.sockets)])
    out.metric("uno_sockets_opened_total", "counter", "Game WebSockets accepted since start.",
               [("", metrics.sockets_opened)])
    out.metric("uno_messages_total", "counter", "Client messages received, by type (invalid: refused by the parser).",
               [(f'{{type="{_label(t)}"}}', n) for t, n in sorted(metrics.messages.items())])
    out.metric("uno_actions_total", "counter", "Game actions handled by rooms (rate() gives actions/s).",
               [("", metrics.actions)])
    out.histogram("uno_action_seconds", "Seconds from an action frame's arrival to its room having handled it "
                  "(stored and sent).", metrics.action_seconds)
    lag = state.loop_lag  # app/transport/loop_lag.py
    out.histogram("uno_loop_lag_seconds", "How late the event loop ran a timer (every room waits as long).", lag.lag)
    out.histogram("uno_loop_busy_lag_seconds", "Of each such lag, the part the loop's thread could have spent "
                  "running the server's own work (the rest: the process was not given the CPU).", lag.busy)
    out.metric("uno_loop_longest_lag_seconds", "gauge", "The longest loop lag since start.", [("", lag.longest)])
    out.metric("uno_loop_longest_busy_lag_seconds", "gauge", "The longest busy part of a loop lag since start.",
               [("", lag.longest_busy)])
    out.metric("uno_refused_total", "counter", "Requests and sockets refused by a limit, by reason.",
               [(f'{{reason="{_label(r)}"}}', n) for r, n in sorted(metrics.refused.items())])
    out.metric("uno_store_flushes_total", "counter", "Group commits written by the store.",
               [("", getattr(store, "flushes", 0))])
    out.metric("uno_store_one_statement_flushes_total", "counter",
               "Of those, batches of action rows alone committed in one statement (Postgres).",
               [("", getattr(store, "one_statement_flushes", 0))])
    out.metric("uno_store_flush_seconds_total", "counter", "Seconds spent writing group commits.",
               [("", float(getattr(store, "flush_seconds", 0.0)))])
    out.metric("uno_store_flushed_ops_total", "counter", "Writes carried by those group commits.",
               [("", getattr(store, "flushed_ops", 0))])
    out.metric("uno_store_failures_total", "counter", "Failed store writes (each is retried).",
               [("", getattr(store, "failures", 0))])
    node = getattr(state, "node", None)  # a cluster's node (app/cluster/node.py), set by create_app
    if node is not None:  # one node of several (docs/SCALING.md)
        out.metric("uno_cluster_serving", "gauge", "1 while this node's lease is fresh and it serves its rooms.",
                   [("", int(node.serving()))])
        out.metric("uno_cluster_rooms_taken_total", "counter", "Rooms this node took from dead or departed nodes.",
                   [("", node.taken_over)])
        out.metric("uno_cluster_rooms_dropped_total", "counter",
                   "Rooms this node stopped serving because another node took them (or its lease lapsed).",
                   [("", node.lost)])
    out.metric("uno_gc_passes_total", "counter", "Timed garbage collections (app/gc_policy.py).",
               [("", Passes.count)])
    out.metric("uno_gc_pause_seconds_total", "counter", "Seconds every room waited for those collections.",
               [("", Passes.seconds)])
    out.metric("uno_gc_last_pause_seconds", "gauge", "How long the last timed collection took.",
               [("", Passes.last_seconds)])
    out.metric("uno_gc_longest_pause_seconds", "gauge", "The longest timed collection so far.",
               [("", Passes.longest_seconds)])
    out.metric("uno_gc_skipped_total", "counter", "Timer ticks without a collection: the heap was too big "
               "for a short one.", [("", Passes.skipped)])
    out.metric("uno_gc_forced_total", "counter", "Collections made however long, memory being over the ceiling "
               "(UNO_GC_CEILING_MIB).", [("", Passes.forced)])
    sizes = cache_sizes(state)
    out.metric("uno_cache_entries", "gauge", "Entries held in memory, by cache (app/web/cache_sizes.py).",
               [(f'{{cache="{_label(name)}"}}', n) for name, (n, _) in sizes.items()])
    out.metric("uno_cache_bytes", "gauge", "Bytes those entries hold, by cache, where counted.",
               [(f'{{cache="{_label(name)}"}}', b) for name, (_, b) in sizes.items() if b is not None])
    players = getattr(state, "players", None)
    if players is not None:
        out.metric("uno_matches_settled_total", "counter", "Finished matches settled into players' histories "
                   "and ratings by this process.", [("", players.settler.settled)])
    out.metric("process_resident_memory_bytes", "gauge", "Resident memory of the server process.",
               [("", resident_bytes())])
    fds = open_fds()
    if fds is not None:
        out.metric("process_open_fds", "gauge", "Open file descriptors (sockets included).", [("", fds)])
    out.metric("process_start_time_seconds", "gauge", "Start time of the server, Unix seconds.", [("", STARTED)])
    return out.text()


def allowed(settings: Settings, address: str) -> bool:
    """Whether ``address`` may read the metrics (``UNO_METRICS_ALLOW``)."""
    networks = networks_of(settings.metrics_allow)
    if networks is None:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # "unknown", a Unix socket's peer: not an address that was allowed
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in networks)


@router.get("/metrics", summary="Prometheus metrics", response_class=PlainTextResponse,
            responses={403: {"description": "The client's address is not in UNO_METRICS_ALLOW"}})
async def metrics(request: Request) -> Response:
    # What they tell (rooms by status, refusals, memory) is for the operator, not for the public.
    settings: Settings = request.app.state.settings
    if not allowed(settings, client_address(request.scope)):
        return JSONResponse({"detail": {"code": "forbidden", "message": "The metrics are served only to the "
                                        "addresses in UNO_METRICS_ALLOW (loopback unless configured)."}},
                            status_code=403)
    return PlainTextResponse(render(request), media_type=CONTENT_TYPE)
