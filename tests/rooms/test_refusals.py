"""``why``: the engine's reason a move would be refused now, asked without making the move
(the browser explains a tapped, dimmed card with it)."""

from __future__ import annotations

import asyncio
import random

from tests.live import LiveServer, create_room, pending_client, puppet_step, seat_players, start_game, sync


def test_why_names_the_engines_refusal_and_changes_nothing(server: LiveServer) -> None:
    """C-5: an unmatched card is refused as card_not_playable, a move out of turn as
    not_your_turn, a legal one is acknowledged — and none of them is played."""

    async def main() -> None:
        code = await create_room(server, "classic", 2, target=None)
        players = await seat_players(server, code, 2)
        await start_game(players)
        rng = random.Random(4)
        for _ in range(40):  # play on until the seat to move holds a card it may not play
            mover = pending_client(players)
            assert mover is not None
            table = mover.game["table"]
            playable = {a["card"] for a in table["legal"] if a["kind"] == "play"}
            stuck = [c["id"] for c in table["hand"] if c["id"] not in playable]
            if table["pending"]["kind"] == "turn" and stuck and playable:
                break
            assert await puppet_step(players, rng)
        else:
            raise AssertionError("no seat ever held an unplayable card")
        other = next(c for c in players if c is not mover)
        await sync(players)  # the last move's frames are all in before counting from here
        frames = [len(c.frames) for c in players]
        before = [c.view["game"]["table"]["hand_sizes"] for c in players]

        refused = await mover.request({"type": "why", "action": {"kind": "play", "card": stuck[0]}})
        assert refused["type"] == "error" and refused["code"] == "card_not_playable", refused
        theirs = other.game["table"]["hand"][0]["id"]
        late = await other.request({"type": "why", "action": {"kind": "play", "card": theirs}})
        assert late["type"] == "error" and late["code"] == "not_your_turn", late
        # A legal play as the view offers it: a wild card's comes with its colour.
        legal = next(a for a in table["legal"] if a["kind"] == "play")
        fine = await mover.request({"type": "why", "action": legal})
        assert fine["type"] == "ack", fine
        await sync(players)
        # Nothing was played: no state frame went out, the hands are as they were.
        assert [c.view["game"]["table"]["hand_sizes"] for c in players] == before
        assert all(
            '"type":"patch"' not in text and '"type":"snapshot"' not in text
            for c, n in zip(players, frames, strict=True) for text in c.frames[n:]
        )
        for c in players:
            await c.close()

    asyncio.run(main())
