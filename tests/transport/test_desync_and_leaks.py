"""Many random games over real sockets, every frame checked twice.

Desync: after every snapshot or patch, the client's patched view must equal the view the
server diffed for that seat at that seq (``Client.recv`` checks the digest), and at the
end the server's current view.  Leaks (C-16): ``FrameAudit`` scans every outbound frame
for a card another seat holds privately, and every frame a client receives must be one the
audit saw — so nothing reaches the wire unscanned.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from app.rooms.room_views import view_for
from tests.live import Client, LiveServer, create_room, play_bot, seat_players, start_game

EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")
GAMES = 40
PARALLEL = 4


async def one_game(server: LiveServer, n: int) -> tuple[list[Client], Client]:
    rng = random.Random(n)
    edition = EDITIONS[n % len(EDITIONS)]
    seats = rng.choice((2, 3, 4))
    code = await create_room(server, edition, seats, target=1 if n % 3 else 60)
    clients = await seat_players(server, code, seats)
    watcher = Client(server, code)  # a spectator: sees no hand at all
    await watcher.connect()
    await watcher.recv()
    await start_game(clients)

    async def watch() -> None:
        while watcher.status != "over" or watcher.view["summary"] is None:
            await watcher.recv(20)

    await asyncio.gather(watch(), *(play_bot(c, random.Random(f"{n}/{c.seat}"), 0.4) for c in clients))
    for c in (*clients, watcher):
        await c.drain(0.05)
    return clients, watcher


@pytest.mark.slow
def test_random_games_never_desync_or_leak(server: LiveServer) -> None:
    async def main() -> list[tuple[list[Client], Client]]:
        sem = asyncio.Semaphore(PARALLEL)

        async def guarded(n: int) -> tuple[list[Client], Client]:
            async with sem:
                return await asyncio.wait_for(one_game(server, n), 120)

        return await asyncio.gather(*(guarded(n) for n in range(GAMES)))

    games = asyncio.run(main())
    checks = frames = 0
    for clients, watcher in games:
        actor = server.registry.get(clients[0].code)
        for c in clients:
            assert c.view == view_for(actor.state, c.seat)
            checks += c.desync_checks
        assert watcher.view == view_for(actor.state, None)
        assert "private" not in watcher.view
        assert "hand" not in watcher.view["game"]["table"] or watcher.status == "over"
        for c in (*clients, watcher):
            for text in c.frames:
                assert server.audit.sent_to(c.code, c.seat, text), "a frame reached the wire unaudited"
                frames += 1
    assert server.audit.violations == []
    assert checks > GAMES * 20 and frames > checks
