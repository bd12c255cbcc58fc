"""How the server is run: uvicorn's configuration, built here from ``Settings`` and nowhere else.

Every way of starting a server — ``python -m app serve`` (scripts/run.sh, the Docker image),
the cluster's nodes (``python -m app cluster``), the benchmarks and the test harnesses — goes
through ``uvicorn_config``, so none of them can leave a defence out.  What it always sets:

- ``http``: ``app.transport.uvicorn_adapter.HttpProtocol`` — the connection gate (per-address and
  global caps) and the request timeout;
- ``ws``: ``app.transport.uvicorn_adapter.WebSocketProtocol`` — control frames against the message
  rate, reading paused while a peer does not read, 1001 on shutdown, the parser freed;
- ``loop``: ``app.transport.accept:Loop`` — connections accepted a few per turn, the silent
  ones kept off the loop;
- ``ws_max_size`` (``UNO_WS_MAX_SIZE``) and no per-message deflate (tens to hundreds of KiB per
  socket for small JSON frames);
- ``proxy_headers`` only with ``UNO_TRUSTED_PROXIES``, and then for those proxies only: anyone
  can send X-Forwarded-For (uvicorn alone would believe it from 127.0.0.1).

``PROTECTIONS`` names each of these with the value it must have; tests/hardening/test_entry_point.py checks
a built configuration against it.  ``serve`` runs it with ``Server``, uvicorn's server whose own
tick wakes the process once a second instead of ten times.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from types import FrameType
from typing import Any

import uvicorn

from app.config import Settings, get_settings
from app.transport.uvicorn_adapter import HttpProtocol, WebSocketProtocol

LOOP = "app.transport.accept:Loop"

# uvicorn.Config's attribute -> the value every server of ours runs with.
PROTECTIONS: dict[str, object] = {
    "http": HttpProtocol,
    "ws": WebSocketProtocol,
    "loop": LOOP,
    "ws_per_message_deflate": False,
}


def uvicorn_config(settings: Settings | None = None, app: Any = None, *, port: int | None = None,
                   log_level: str | None = None, backlog: int = 2048,
                   graceful_shutdown_s: int | None = None, access_log: bool = True) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` (by default the game's, made from ``settings`` once
    uvicorn has set its logging up), with every protection in ``PROTECTIONS``."""
    settings = settings or get_settings()
    target: Any = app if app is not None else _factory(settings)
    proxies = [p.strip() for p in settings.trusted_proxies.split(",") if p.strip()]
    return uvicorn.Config(
        target, factory=app is None, host=settings.host, port=settings.port if port is None else port,
        log_level=log_level, access_log=access_log, backlog=backlog, lifespan="on",
        timeout_graceful_shutdown=graceful_shutdown_s,
        ws_max_size=settings.ws_max_size, **PROTECTIONS,  # type: ignore[arg-type]
        proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)


def _factory(settings: Settings) -> Callable[[], Any]:
    def make() -> Any:
        from app.main import create_app  # imported late: the routes and the rooms are the app's, not the config's

        return create_app(settings)

    return make


TICK_S = 1.0
TICKS_PER_WAKE = 10  # uvicorn counts its 100 ms ticks; each of ours stands for ten of them


class Server(uvicorn.Server):
    """uvicorn's server, its own tick once a second.

    uvicorn wakes every 100 ms to see whether it was told to stop and, every tenth time, to
    refresh its ``Date`` header.  On an idle server those ten wake-ups a second were half of its
    CPU (docs/OPERATIONS.md, "Measured: an idle server's CPU").  Here the tick comes once a
    second, each one a tenth tick to ``on_tick`` (the header as often as before), and a stop
    signal wakes the loop at once, so a SIGTERM starts the shutdown no later than before.
    tests/transport/test_uvicorn_internals.py checks what this leans on.
    """

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = asyncio.Event()

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()  # first: a signal from now on wakes the wait below
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + TICKS_PER_WAKE) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), TICK_S)
            should_exit = await self.on_tick(counter)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        if self._loop is not None:  # a signal handler: the loop is told through its thread-safe door
            self._loop.call_soon_threadsafe(self._stop.set)


def serve(settings: Settings | None = None, **options: Any) -> None:
    """Run the server until it is told to stop (SIGTERM, Ctrl-C)."""
    Server(uvicorn_config(settings, **options)).run()
