"""No hints (RULES.md §7.11 HR-32) in the room: frames to people carry no ``legal`` list, ``why``
is refused ``no_hints``, and bots still play on the engine's legal actions."""

from __future__ import annotations

import asyncio
import contextlib
import time

from tests.live import LiveServer, seat_players, start_game, sync

from .test_players_away import add_bot, new_room, until


def test_no_hints_frames_carry_no_legal_actions_and_why_is_refused__HR_32(server: LiveServer) -> None:
    async def main() -> None:
        room = await new_room(server, "classic", 2, target=100_000, house_rules={"no_hints": True})
        a, b = await seat_players(server, room["code"], 2)
        await start_game([a, b])
        await sync([a, b])
        for c in (a, b):
            assert "hand" in c.view["game"]["table"] and "legal" not in c.view["game"]["table"]
        mover = a if a.view["game"]["table"]["pending"]["seat"] == a.view["you"] else b
        hand = mover.view["game"]["table"]["hand"]
        refused = await mover.request({"type": "why", "action": {"kind": "play", "card": hand[0]["id"]}})
        assert refused["type"] == "error" and refused["code"] == "no_hints", refused
        for c in (a, b):
            await c.close()

    asyncio.run(main())


def test_bots_still_play_on_the_engines_legal_actions_under_no_hints__HR_32__HX_8(server: LiveServer) -> None:
    """The person only draws and keeps (always legal here); the bot, deciding on the engine's legal
    actions that people are not shown, plays cards."""

    async def main() -> None:
        room = await new_room(server, "classic", 2, target=1, house_rules={"no_hints": True})
        (a,) = await seat_players(server, room["code"], 1)
        r = await add_bot(server, room["code"], a.token)
        assert r.status_code in (200, 201), r.text
        await until(a, lambda v: len(v["players"]) == 2)
        await a.request({"type": "start"})
        deadline = time.monotonic() + 120

        def bot_plays() -> int:
            return sum(1 for e in a.view["log"] if e.get("kind") == "play" and e.get("seat") == 1)

        while bot_plays() < 3 and a.status != "between":
            assert time.monotonic() < deadline, "the bot never played"
            table = a.view["game"]["table"] if a.view["game"] else None
            pending = table["pending"] if table else None
            assert table is None or "legal" not in table
            if pending and pending["seat"] == a.seat and pending["kind"] in ("turn", "drawn"):
                kind = "draw" if pending["kind"] == "turn" else "keep"
                reply = await a.request({"type": "action", "action": {"kind": kind}})
                assert reply["type"] == "ack", reply
            else:
                with contextlib.suppress(TimeoutError):
                    await a.recv(1)
        assert bot_plays() >= 3 or a.view["summary"]["winner"] == 1
        await a.close()

    asyncio.run(main())
