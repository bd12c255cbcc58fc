"""Nothing a player was told has happened is lost: SIGKILL the server mid-match, restart it.

A real server process (python -m app serve) on SQLite and on Postgres. Players take turns through the
protocol; at random moments the server is killed with SIGKILL, started again on the same
database, and every seat reconnects with its token. Each seat's view must be exactly the
one it held before the kill — the table, its hand, the scores — and play carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live import Client, OnLoopback, choose, create_room, seat_players, start_game
from tests.server_process import start_listening

pytestmark = pytest.mark.slow  # real processes and waits: not in the quick subset


class NoAudit:
    """The subprocess server has no in-process frame observer; clients skip that check."""

    def view_digest(self, code: str, seat: int, seq: int) -> None:
        return None


class ProcessServer(OnLoopback):
    """``python -m app serve`` in a child process, as a self-hoster runs it."""

    def __init__(self, database_url: str, data_dir: Path) -> None:
        # The production garbage-collector policy too (tests/conftest.py turns it off in-process).
        self.env = {**os.environ, "DATABASE_URL": database_url, "UNO_DATA_DIR": str(data_dir),
                    "UNO_BETWEEN_ROUNDS_SECONDS": "600", "UNO_GC_FULL_SECONDS": "900"}
        self.port = 0
        self.log = data_dir / "server.log"  # each start's, shown when one fails
        self.proc: subprocess.Popen[bytes] | None = None
        self.audit = NoAudit()
        self.audits_views = False

    def start(self) -> ProcessServer:
        def on(port: int) -> tuple[list[str], dict[str, str]]:
            return [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port),
                    "--log-level", "warning"], self.env

        # A minute and a half: a loaded machine can take that long to import and migrate.
        self.proc, self.port = start_listening(on, self.log, seconds=90)
        return self

    def terminate(self) -> None:
        """SIGTERM: what a deploy or `docker compose stop` sends."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(20)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def durable(view: dict[str, Any]) -> dict[str, Any]:
    """What must survive a crash: the game, the scores, the seats, the room, the chat.

    Presence and ready flags, the clock of the next round and the narrated log are rebuilt,
    not restored.
    """
    room = {k: v for k, v in view["room"].items() if k != "next_round_at"}
    players = [{k: p[k] for k in ("seat", "name", "host")} for p in view["players"]]
    chat = [(c["seat"], c["text"]) for c in view["chat"]]
    return {"room": room, "players": players, "game": view["game"], "summary": view["summary"], "chat": chat}


async def settle(clients: list[Client]) -> None:
    for c in clients:
        await c.drain(0.05)


async def play_some(clients: list[Client], rng: random.Random, steps: int) -> int:
    """Acknowledged actions, one at a time, each seen by every seat before the next."""
    done = 0
    for _ in range(steps * 4):
        if done >= steps or clients[0].status == "over":
            break
        if clients[0].status == "between":
            for c in clients:
                await c.request({"type": "ready"})
            await settle(clients)
            continue
        movers = [(c, a) for c in clients if (a := choose(c, rng, uno_chatter=0.2)) is not None]
        if not movers:
            await settle(clients)
            continue
        client, action = rng.choice(movers)
        reply = await client.request({"type": "action", "action": action})
        await settle(clients)
        if reply["type"] == "ack":
            done += 1
    return done


async def reconnect(server: ProcessServer, clients: list[Client]) -> None:
    for c in clients:
        c.server = server  # type: ignore[assignment]
        c.view, c.seq = None, 0
        await c.connect()
        await c.recv()  # a fresh snapshot


async def after_restart(server: ProcessServer, code: str, seats: list[tuple[str, int]],
                        before: dict[int, dict[str, Any]], rng: random.Random, life: int) -> dict[int, dict[str, Any]]:
    """Every seat reconnects and finds its view unchanged; then the game goes on."""
    clients = [Client(server, code, token, seat) for token, seat in seats]  # type: ignore[arg-type]
    await reconnect(server, clients)
    after = {c.seat or 0: durable(c.view) for c in clients}
    for seat, view in before.items():
        assert after[seat] == view, f"seat {seat}'s view changed across the crash (life {life})"
    await play_some(clients, rng, rng.randint(3, 25))
    await settle(clients)
    snapshot = {c.seat or 0: durable(c.view) for c in clients}
    for c in clients:
        await c.close()
    return snapshot


def crash_and_recover(database_url: str, data_dir: Path, edition: str, seed: int) -> None:
    rng = random.Random(seed)
    server = ProcessServer(database_url, data_dir).start()
    try:
        async def first_life() -> tuple[str, list[tuple[str, int]], dict[int, dict[str, Any]]]:
            code = await create_room(server, edition, 3, target=60)  # type: ignore[arg-type]
            clients = await seat_players(server, code, 3)  # type: ignore[arg-type]
            await start_game(clients)
            await clients[1].request({"type": "chat", "text": "good luck"})
            await play_some(clients, rng, rng.randint(5, 40))
            await settle(clients)
            return code, [(c.token or "", c.seat or 0) for c in clients], {
                c.seat or 0: durable(c.view) for c in clients}

        code, seats, before = asyncio.run(first_life())
        for life in range(2):
            server.kill()
            server = ProcessServer(database_url, data_dir).start()
            before = asyncio.run(after_restart(server, code, seats, before, rng, life))
    finally:
        server.stop()


@pytest.mark.parametrize(("edition", "seed"), [("classic", 1), ("mario_kart", 2), ("pocket_pizza", 3)])
def test_sigkill_loses_nothing_on_sqlite(tmp_path: Path, edition: str, seed: int) -> None:
    crash_and_recover(f"sqlite:///{tmp_path / 'uno.sqlite3'}", tmp_path, edition, seed)


@pytest.mark.parametrize(("edition", "seed"), [("classic", 4), ("all_wild", 5)])
def test_sigkill_loses_nothing_on_postgres(fresh_postgres_url: str, tmp_path: Path, edition: str, seed: int) -> None:
    crash_and_recover(fresh_postgres_url, tmp_path, edition, seed)


def test_match_history_is_served_after_a_restart(tmp_path: Path) -> None:
    server = ProcessServer(f"sqlite:///{tmp_path / 'uno.sqlite3'}", tmp_path).start()
    try:
        async def play() -> str:
            code = await create_room(server, "all_wild", 2, target=1)  # type: ignore[arg-type]
            clients = await seat_players(server, code, 2)  # type: ignore[arg-type]
            await start_game(clients)
            rng = random.Random(9)
            while clients[0].status != "over":
                await play_some(clients, rng, 5)
            match_id = clients[0].view["room"]["match_id"]
            assert isinstance(match_id, str)
            return match_id

        match_id = asyncio.run(play())
        server.kill()
        server = ProcessServer(f"sqlite:///{tmp_path / 'uno.sqlite3'}", tmp_path).start()
        body = httpx.get(f"{server.http}/api/matches/{match_id}").json()
        assert body["status"] == "over" and body["winner"] in (0, 1) and body["edition"] == "all_wild"
        assert body["rounds"] and body["totals"][body["winner"]] >= 1
        assert body["totals"] == [s["total"] for s in body["rounds"][-1]["scores"]]
        assert httpx.get(f"{server.http}/api/matches/nope").status_code == 404
    finally:
        server.stop()


def test_sigterm_closes_sockets_as_going_away_and_the_rooms_come_back(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'uno.sqlite3'}"
    server = ProcessServer(url, tmp_path).start()
    rng = random.Random(11)
    try:
        async def play() -> tuple[str, list[tuple[str, int]], dict[int, dict[str, Any]], list[Client]]:
            code = await create_room(server, "classic", 3, target=60)  # type: ignore[arg-type]
            clients = await seat_players(server, code, 3)  # type: ignore[arg-type]
            await start_game(clients)
            await play_some(clients, rng, 15)
            await settle(clients)
            views = {c.seat or 0: durable(c.view) for c in clients}
            return code, [(c.token or "", c.seat or 0) for c in clients], views, clients

        async def closed_with(clients: list[Client]) -> list[int | None]:
            codes = []
            for c in clients:
                assert c.ws is not None
                with contextlib.suppress(Exception):
                    while True:
                        await asyncio.wait_for(c.ws.recv(), 10)
                codes.append(c.ws.close_code)
            return codes

        async def scenario() -> tuple[str, list[tuple[str, int]], dict[int, dict[str, Any]]]:
            code, seats, views, clients = await play()
            assert server.proc is not None
            server.proc.send_signal(signal.SIGTERM)
            # "Going away" (1001), not uvicorn's own "service restart" (1012): app/transport/uvicorn_adapter.py.
            assert await closed_with(clients) == [1001] * len(clients)
            return code, seats, views

        code, seats, before = asyncio.run(scenario())
        # A clean exit (uvicorn re-raises the signal once its shutdown is complete).
        assert server.proc is not None and server.proc.wait(20) in (0, -signal.SIGTERM)
        server = ProcessServer(url, tmp_path).start()
        asyncio.run(after_restart(server, code, seats, before, rng, 0))
    finally:
        server.stop()
