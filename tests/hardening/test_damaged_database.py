"""One damaged SQLite page loses the rooms stored on it, not the server: the others come back."""

from __future__ import annotations

import asyncio
import io
import logging
import sqlite3
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.persistence import open_store
from tests.live import LiveServer, create_room, seat_players

MARKER = "damaged-page-marker"


def sqlite_server(data: Path) -> LiveServer:
    settings = Settings(_env_file=None, data_dir=str(data), create_rooms_per_minute=1_000,  # type: ignore[call-arg]
                        joins_per_minute=1_000, socket_rate_messages=1_000)
    return LiveServer(settings, store=open_store(settings)).start()


def zero_a_page_holding(path: Path, marker: bytes) -> int:
    """Overwrite with zeros the first page of the database file that holds ``marker``."""
    with sqlite3.connect(path) as db:  # everything into the main file, the WAL emptied
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    page = next(i for i in range(len(data) // size) if marker in data[i * size:(i + 1) * size])
    assert page > 0  # never the header page: the whole file would be unreadable
    data[page * size:(page + 1) * size] = bytes(size)
    path.write_bytes(bytes(data))
    return page


@pytest.mark.slow
def test_a_room_on_a_zeroed_page_is_skipped_and_the_others_come_back(tmp_path: Path) -> None:
    server = sqlite_server(tmp_path)

    async def fill() -> tuple[str, str, str]:
        before = await create_room(server, "classic", 2)
        clients = await seat_players(server, before, 1)
        damaged = await create_room(server, "classic", 2)
        (talker,) = await seat_players(server, damaged, 1)
        for i in range(30):  # its chat fills pages of their own: no other room chats
            assert (await talker.request({"type": "chat", "text": f"{MARKER} {i:03d} " + "x" * 250}))["type"] == "ack"
        await talker.close()
        after = await create_room(server, "mario_kart", 3)
        clients += await seat_players(server, after, 2)
        for c in clients:
            await c.close()
        return before, damaged, after

    try:
        before, damaged, after = asyncio.run(fill())
    finally:
        server.stop()
    path = tmp_path / "uno.sqlite3"
    zero_a_page_holding(path, MARKER.encode())
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.DatabaseError):
        db.execute("SELECT text FROM chat WHERE room_code = ?", (damaged,)).fetchall()

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    app_log = logging.getLogger("app")
    app_log.addHandler(handler)
    try:
        server = sqlite_server(tmp_path)  # it starts
    finally:
        app_log.removeHandler(handler)
    try:
        with httpx.Client(base_url=server.http) as http:
            assert http.get(f"/api/rooms/{before}").json()["players"] == ["P0"]
            assert http.get(f"/api/rooms/{after}").json()["players"] == ["P0", "P1"]
            assert http.get(f"/api/rooms/{damaged}").status_code == 404
            assert http.post("/api/rooms", json={"variant": "classic"}).status_code == 201  # and serves on
        assert f"room {damaged} could not be read" in stream.getvalue(), stream.getvalue()
    finally:
        server.stop()
