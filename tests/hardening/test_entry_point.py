"""One way to start the server (``python -m app serve``), and it carries every protection.

app/server.py builds uvicorn's configuration from the settings; every run command and test
harness goes through it (tests/hardening/test_operations_doc.py checks the commands).  Here: the
configuration it builds, a real server it starts refusing what the defences refuse, and a bare
``uvicorn app.main:app`` refusing to start at all (it would run without them).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.__main__ import parse
from app.config import Settings
from app.server import LOOP, PROTECTIONS, uvicorn_config
from app.transport.uvicorn_adapter import HttpProtocol, WebSocketProtocol
from tests.server_process import free_port, start_listening, stop_group

ROOT = Path(__file__).resolve().parents[2]


def settings(**kw: object) -> Settings:
    return Settings(_env_file=None, **kw)  # type: ignore[arg-type, call-arg]


def test_the_configuration_carries_every_protection() -> None:
    config = uvicorn_config(settings(ws_max_size=12_345, host="127.0.0.9", port=8123))
    assert (config.http, config.ws, config.loop) == (HttpProtocol, WebSocketProtocol, LOOP)
    for name, value in PROTECTIONS.items():
        assert getattr(config, name) == value, name
    assert config.ws_max_size == 12_345 and not config.ws_per_message_deflate
    assert (config.host, config.port, config.lifespan) == ("127.0.0.9", 8123, "on")
    # No proxy is believed unless named: uvicorn's own default would believe 127.0.0.1.
    assert config.proxy_headers is False
    behind = uvicorn_config(settings(trusted_proxies="10.0.0.0/8, 127.0.0.1"))
    assert behind.proxy_headers is True and behind.forwarded_allow_ips == ["10.0.0.0/8", "127.0.0.1"]


def test_bad_trusted_proxies_stop_the_server_at_start() -> None:
    with pytest.raises(ValueError):
        settings(trusted_proxies="10.0.0.0/8,not-an-address")


def test_the_command_line_has_the_subcommands() -> None:
    assert parse(["serve", "--port", "9000"]).port == 9000
    assert parse(["migrate"]).command == "migrate"
    assert parse(["cluster", "--nodes", "3"]).rest == ["--nodes", "3"]


@contextmanager
def served(tmp_path: Path, **env: str) -> Iterator[tuple[int, Path]]:
    log = tmp_path / "server.log"
    clean = {k: v for k, v in os.environ.items() if not k.startswith("UNO_") and k not in ("DATABASE_URL", "PORT")}

    def on(port: int) -> tuple[list[str], dict[str, str]]:
        argv = [sys.executable, "-m", "app", "serve", "--port", str(port)]
        return argv, {**clean, "UNO_DATA_DIR": str(tmp_path), **env}

    proc, port = start_listening(on, log, seconds=60)
    try:
        yield port, log
    finally:
        stop_group(proc, signal.SIGTERM)


def closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


@pytest.mark.slow
def test_a_server_started_by_the_entry_point_refuses_what_the_defences_refuse(tmp_path: Path) -> None:
    with served(tmp_path, UNO_HEADER_TIMEOUT_S="1", UNO_CONNECTIONS_PER_ADDRESS="5") as (port, log):
        # The accept loop and the gate: a connection that says nothing is closed after the timeout ...
        silent = socket.create_connection(("127.0.0.1", port))
        assert closed_by_server(silent, within=15)
        silent.close()
        # ... and no address holds more than its share of connections (a bare 503 past it).
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
        extra = socket.create_connection(("127.0.0.1", port))
        extra.settimeout(15)
        assert extra.recv(100).startswith(b"HTTP/1.1 503")
        for s in (*held, extra):
            s.close()
        # X-Forwarded-For is not believed: no proxy was named.
        code = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={"variant": "classic"},
                          headers={"X-Forwarded-For": "10.9.9.9"}).json()["code"]

        async def oversized() -> int | None:
            # Our WebSocket protocol, with the frame cap: a 20 KiB frame is refused before the app reads it.
            async with connect(f"ws://127.0.0.1:{port}/ws/rooms/{code}", max_size=None) as ws:
                await ws.recv()  # the spectator's snapshot
                with suppress(ConnectionClosed):
                    await ws.send("x" * 20_000)
                    await asyncio.wait_for(ws.recv(), 15)
                await ws.wait_closed()
                return ws.close_code if ws.close_code is not None else (ws.protocol.close_rcvd.code
                                                                       if ws.protocol.close_rcvd else None)

        assert asyncio.run(oversized()) == 1009
    text = log.read_text()
    assert "10.9.9.9" not in text
    assert "not started with its protections" not in text, text


@pytest.mark.slow
def test_a_bare_uvicorn_app_main_app_does_not_start(tmp_path: Path) -> None:
    """It would run without the protections: there is no module-level app for it to run."""
    out = subprocess.run([sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(free_port())], cwd=ROOT,
                         env={**os.environ, "UNO_DATA_DIR": str(tmp_path)}, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode != 0
    assert 'Attribute "app" not found in module "app.main"' in out.stderr, out.stderr


def test_an_app_run_outside_the_entry_point_says_it_is_unprotected(caplog: pytest.LogCaptureFixture) -> None:
    """``create_app()`` embedded elsewhere (here: asyncio's own loop) is not silent about what it lacks."""
    from app.main import create_app

    async def main() -> None:
        app = create_app(settings(database_url="memory://", gc_full_seconds=0))
        async with app.router.lifespan_context(app):
            pass

    with caplog.at_level(logging.WARNING, logger="app"):
        asyncio.run(main())
    assert any("not started with its protections" in r.getMessage() for r in caplog.records), caplog.text
