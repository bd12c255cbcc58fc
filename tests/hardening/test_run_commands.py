"""The server as ``scripts/run.sh`` and the Docker image's command start it, in a process of its own.

X-Forwarded-For is believed only from ``UNO_TRUSTED_PROXIES`` (anyone can send the header:
believed, it hands each request an address of the sender's choosing and the per-address
limits count nothing); and the app's own log lines, the ones docs/OPERATIONS.md says to
alert on, reach stderr.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.server_process import start_listening, stop_group
from tests.waiting import eventually

pytestmark = pytest.mark.slow  # real processes and waits: not in the quick subset

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def running(command: list[str], log: Path, data: Path, **env: str) -> Iterator[str]:
    """Start ``command`` with ``env`` (and no other UNO_ setting), its SQLite file in ``data``;
    yield its base URL once it answers."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("UNO_", "FORWARDED_ALLOW_IPS"))
             and k != "DATABASE_URL"}

    def on(port: int) -> tuple[list[str], dict[str, str]]:
        # UNO_ENGINE=interpreted: run.sh would first compile the engine (a minute or more on a busy
        # machine, docs/ENGINE.md); these tests are about how the server starts, not the build.
        return command, {**clean, "HOST": "127.0.0.1", "PORT": str(port), "UNO_DATA_DIR": str(data),
                         "UNO_CREATE_ROOMS_PER_MINUTE": "2", "UNO_ENGINE": "interpreted", **env}

    proc, port = start_listening(on, log, seconds=60)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_group(proc, signal.SIGTERM)


def create_rooms(base: str, forwarded: list[str]) -> list[int]:
    return [httpx.post(base + "/api/rooms", json={"variant": "classic"}, headers={"X-Forwarded-For": xff}).status_code
            for xff in forwarded]


def image_command() -> list[str]:
    """The Dockerfile's CMD, to run here: the venv's tools on PATH, loopback instead of 0.0.0.0."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    cmd = next(line for line in text.splitlines() if line.startswith("CMD "))
    argv = json.loads(cmd[4:])
    assert argv[:2] == ["sh", "-c"]
    script = argv[2].replace("--host 0.0.0.0", "--host 127.0.0.1")
    assert "--host 127.0.0.1" in script
    return ["sh", "-c", f"PATH={shlex.quote(str(Path(sys.executable).parent))}:$PATH; {script}"]


COMMANDS = {"run.sh": ["bash", "scripts/run.sh"], "image": image_command()}


@pytest.mark.parametrize("name", COMMANDS)
def test_forwarded_for_is_ignored_unless_the_proxy_is_trusted(name: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with running(COMMANDS[name], log, tmp_path) as base:
        # Each request claims another address: all of them are 127.0.0.1's.
        assert create_rooms(base, ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) == [201, 201, 429]
    assert "10.0.0.1" not in log.read_text()
    with running(COMMANDS[name], log, tmp_path, UNO_TRUSTED_PROXIES="127.0.0.1") as base:
        # Behind a trusted proxy, the address it forwards is the client's.
        assert create_rooms(base, ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) == [201, 201, 201]
        assert create_rooms(base, ["10.0.0.9"] * 3) == [201, 201, 429]
    assert "10.0.0.9" in log.read_text()


def test_the_apps_log_lines_reach_stderr(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with running(COMMANDS["run.sh"], log, tmp_path) as base:
        assert create_rooms(base, ["", "", ""])[-1] == 429

        async def hijack() -> None:
            with pytest.raises(InvalidStatus):
                async with connect(base.replace("http", "ws") + "/ws/rooms/ABCD2345",
                                   origin="https://evil.example"):  # type: ignore[arg-type]
                    pass

        asyncio.run(hijack())
        eventually(lambda: "refused a WebSocket from origin" in log.read_text(), what="the refusal logged")
    text = log.read_text()
    assert "INFO app.web: refusing POST /api/rooms from 127.0.0.1" in text, text
    assert "INFO app.transport: refused a WebSocket from origin 'https://evil.example'" in text, text


def lan_addresses() -> list[str]:
    out = subprocess.run([sys.executable, "scripts/lan_addresses.py"], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return out.stdout.split()


def test_run_sh_prints_the_network_addresses_when_listening_beyond_loopback(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with running(COMMANDS["run.sh"], log, tmp_path):
        pass
    assert "on your network" not in log.read_text()  # loopback only: nobody else can open it
    with running(COMMANDS["run.sh"], log, tmp_path, HOST="0.0.0.0",
                 UNO_PUBLIC_URL="https://uno.example.org/") as base:
        port = base.rsplit(":", 1)[1]
    text = log.read_text()
    assert f"UNO server: http://127.0.0.1:{port}" in text
    for address in lan_addresses():
        assert f"on your network: http://{address}:{port}" in text, text
    assert "invite links: https://uno.example.org/r/CODE" in text


def test_lan_addresses_are_reachable_ones() -> None:
    for address in lan_addresses():
        ip = ipaddress.ip_address(address)
        assert ip.version == 4 and not ip.is_loopback and not ip.is_link_local
