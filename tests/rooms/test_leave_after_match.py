"""Leaving a finished match's room: the seats close up, and nobody is shown the leaver's private log (C-16)."""

from __future__ import annotations

import asyncio
import random

from app.rooms.restore import restore_state
from app.rooms.room_views import view_for
from tests.live import Client, LiveServer, choose, create_room, play_bot, seat_players, start_game, sync


def contents(entries: list[dict[str, object]]) -> list[dict[str, object]]:
    """Entries without their numbers (a rebuilt room numbers its log afresh)."""
    return [{k: v for k, v in e.items() if k != "n"} for e in entries]


async def draw_then_play(client: Client, rng: random.Random) -> None:
    """Draws on its first turn — so it holds private entries however the deal went — then plays on."""
    while client.status == "playing" and not client.view["private"]:
        table = client.game["table"] if client.game else {}
        mine = [a for a in table.get("legal", []) if a["kind"] not in ("declare_uno", "catch")]
        if not mine:
            await client.recv(20)
            continue
        action = next((a for a in mine if a["kind"] == "draw"), None) or choose(client, rng, 0.0)
        await client.request({"type": "action", "action": action})
    await play_bot(client, rng)


def test_c16_after_a_post_match_leave_no_seat_is_shown_the_leavers_private_log(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 3, target=1)
        clients = await seat_players(server, code, 3)
        await start_game(clients)
        await asyncio.gather(*(draw_then_play(c, random.Random(f"leave/{c.seat}")) for c in clients))
        await sync(clients)
        leaver, b, c = clients
        assert leaver.status == "over"
        mine = {cl.seat: contents(cl.view["private"]) for cl in clients}
        # Every seat drew: each holds private entries (else the test proves nothing).
        assert all(mine.values()), mine
        # While nobody has left, a restart (the room rebuilt from the store) keeps each seat's own.
        stored = await server.store.load_room(code)
        assert stored is not None
        restored = restore_state(stored, server.settings)
        assert {s: contents(view_for(restored, s)["private"]) for s in mine} == mine
        assert (await leaver.request({"type": "leave"}))["type"] == "ack"
        await sync([b, c])
        assert (b.view["you"], c.view["you"]) == (0, 1)  # seats closed up
        # The private entries name the match's seats, which the room's no longer are: they go.
        assert b.view["private"] == [] and c.view["private"] == []
        # A socket opened afresh gets a snapshot built anew: the same.
        again = Client(server, code, b.token, 0)
        await again.connect()
        await again.recv()
        assert again.view["private"] == []
        await again.close()
        # Rebuilt from the store (a restart): the private logs are replayed by the match's seat
        # numbers, which no longer match the room's, so they go too.
        stored = await server.store.load_room(code)
        assert stored is not None and len(stored.seats) == 2
        restored = restore_state(stored, server.settings)
        assert view_for(restored, 0)["private"] == [] and view_for(restored, 1)["private"] == []
        for cl in (b, c):
            await cl.close()

    asyncio.run(main())
