"""Faults from the outside: clients that vanish, and a flood of reconnects. The room goes on."""

from __future__ import annotations

import asyncio
import base64
import os
import random
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed

from app.config import Settings
from tests.live import Client, LiveServer, create_room, play_bot, seat_players, start_game

pytestmark = pytest.mark.slow  # real processes and waits: not in the quick subset


def test_a_client_that_vanishes_without_a_close_frame_is_marked_away(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 3, target=20)
        clients = await seat_players(server, code, 3)
        await start_game(clients)
        gone = clients[2]
        assert gone.ws is not None
        gone.ws.transport.abort()  # the TCP connection drops: no close frame, no goodbye
        watcher = clients[0]
        for _ in range(100):
            if not watcher.view["players"][2]["connected"]:
                break
            await watcher.recv(5)
        assert watcher.view["players"][2]["connected"] is False
        # The owner comes back with its token and its view is whole again.
        back = Client(server, code, gone.token, 2)
        await back.connect()
        await back.recv()
        assert back.view["you"] == 2 and back.view["game"]["table"]["hand"]
        await clients[1].drain(0.1)
        assert clients[1].view["players"][2]["connected"] is True
        for c in (*clients[:2], back):
            await c.close()
        assert server.audit.violations == []

    asyncio.run(main())


def test_a_flood_of_reconnects_leaves_one_live_connection_and_a_working_room(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "pocket_pizza", 2, target=30)
        clients = await seat_players(server, code, 2)
        await start_game(clients)
        token = clients[1].token
        # Fifty connections with the same token, as fast as they come: each replaces the last.
        flood = [Client(server, code, token, 1) for _ in range(50)]
        await asyncio.gather(*(c.connect() for c in flood))

        async def replaced(c: Client) -> bool:
            # Read until the room closes this connection, or it stays quiet for a second (the live one).
            try:
                await c.drain(1.0)
            except ConnectionClosed as err:
                assert err.rcvd is not None and err.rcvd.code == 4000  # replaced by a newer connection
                return True
            return False

        closed = sum(await asyncio.gather(*(replaced(c) for c in flood)))
        assert closed >= 49
        actor = server.registry.get(code)
        assert actor is not None and actor.connections <= 2
        last = Client(server, code, token, 1)
        await last.connect()
        await last.recv()
        # The match is still playable to its end by the first player and the last connection.
        rng = random.Random(3)
        await asyncio.gather(play_bot(clients[0], rng, 0.1), play_bot(last, rng, 0.1))
        assert clients[0].status == "over" and last.status == "over"
        for c in (*flood, clients[0], last):
            await c.close()
        assert server.audit.violations == []

    asyncio.run(main())


def cut_off_after(settings: Settings) -> int:
    """How many chat lines a seat that never reads lets pass before it is cut off."""
    server = LiveServer(settings).start()
    try:
        async def main() -> int:
            code = await create_room(server, "classic", 2)
            talker, stuck = await seat_players(server, code, 2)
            await stuck.close()
            # The stuck seat comes back on a raw socket with a tiny receive buffer, and never reads.
            raw = socket.socket()
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
            raw.connect(("127.0.0.1", server.port))
            key = base64.b64encode(os.urandom(16)).decode()
            raw.sendall((f"GET /ws/rooms/{code}?token={stuck.token} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                         f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n").encode())
            assert raw.recv(12) == b"HTTP/1.1 101"
            sent = 0
            worst = 0.0
            text = "x" * 290
            while sent < 50_000:
                started = time.monotonic()
                reply = await talker.request({"type": "chat", "text": f"{sent} {text}"})
                worst = max(worst, time.monotonic() - started)
                assert reply["type"] == "ack"
                sent += 1
                if sent % 50 == 0 and not talker.view["players"][1]["connected"]:
                    break
            assert not talker.view["players"][1]["connected"], "the stuck socket was never cut off"
            assert worst < 2.0, f"the room waited {worst:.2f}s on a stuck socket"
            raw.close()
            await talker.close()
            return sent

        return asyncio.run(main())
    finally:
        server.stop()


def test_a_reader_that_never_reads_is_cut_off_and_the_room_goes_on() -> None:
    """A seat whose socket stops reading fills its bounded queue and is closed; nobody waits on it."""
    settings = Settings(_env_file=None, send_queue_frames=16, socket_rate_messages=1_000_000,  # type: ignore[call-arg]
                        chat_kept=20)
    assert cut_off_after(settings) < 50_000


def test_the_send_queue_is_bounded_in_size_not_only_in_frames() -> None:
    """Frames differ in size a hundredfold: the queue of a socket that never reads is capped in
    characters too, so a few hundred large frames cannot hold the server's memory."""
    settings = Settings(_env_file=None, send_queue_frames=100_000, send_queue_chars=65_536,  # type: ignore[call-arg]
                        socket_rate_messages=1_000_000, chat_kept=20)
    # Loopback's kernel and transport buffers take a few thousand lines first (about 2 MB); the
    # frame cap alone would let 100,000 more queue up, past the 50,000 cut_off_after ever sends.
    assert cut_off_after(settings) < 20_000
