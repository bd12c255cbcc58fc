"""Information (RULES.md §7.11) in a room: open hands (HR-31, HX-15) reach every seat and the
spectators and the frame audit accepts exactly them; blind draw (HR-33) hides face-down cards from
their holder too.  No hints (HR-32): a room takes it, and the strict preset that sets it (HR-34);
people's frames carry no legal actions, `why` is refused `no_hints`, and the bots still play from
the engine's legal actions."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.live import Client, LiveServer, puppet_step, seat_players, start_game, sync
from tests.waiting import until


def test_a_room_takes_no_hints_and_the_strict_preset_and_the_schema_offers_them__HR_32__HR_34(
        server: LiveServer) -> None:
    for rules in ({"no_hints": True}, {"preset": "strict"}):
        r = httpx.post(f"{server.http}/api/rooms", json={"variant": "classic", "max_seats": 2, "house_rules": rules})
        assert r.status_code == 201, r.text
        stored = httpx.get(f"{server.http}/api/rooms/{r.json()['code']}").json()["house_rules"]
        assert stored["no_hints"] is True, stored
    assert stored["strict_uno"] and stored["uno_penalty"] == 4 and stored["misplay_penalty"] and stored["forced_play"]
    schema = httpx.get(f"{server.http}/api/house-rules").json()
    options = {o["key"]: o for family in schema["families"] for o in family["options"]}
    assert options["no_hints"]["available"] is True
    assert next(p for p in schema["presets"] if p["key"] == "strict")["available"] is True


@pytest.fixture(scope="module")
def quick_bots() -> Iterator[LiveServer]:
    """A server whose bots move at once (their human-like pauses scaled down): a round against one is
    played in a second, not the better part of a minute."""
    live = LiveServer(bot_delay_scale=0.01).start()
    yield live
    live.stop()


def test_strict_frames_carry_no_legal_actions_why_is_refused_and_a_bot_still_plays__HR_32__HR_34(
        quick_bots: LiveServer) -> None:
    """Over real sockets, under the strict preset: no seat's frame ever holds ``legal`` (the
    spectator's never did), ``why`` is refused ``no_hints`` and changes nothing, a move is still
    judged by the engine, and a bot seat plays its turns (it decides on the engine's legal
    actions, server-side); the frame audit finds nothing."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=quick_bots.http) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "target_score": 500,
                                                    "house_rules": {"preset": "strict"}})
            assert r.status_code == 201, r.text
            code = str(r.json()["code"])
        [ana] = await seat_players(quick_bots, code, 1)
        bot = await ana.request({"type": "add_bot"})
        assert bot["type"] == "ack", bot
        await start_game([ana])
        frames_before = quick_bots.audit.frames

        def table() -> dict[str, Any]:
            return dict(ana.game["table"])

        for _ in range(40):
            if ana.status != "playing":
                break
            assert "legal" not in table(), table()
            pending = table()["pending"] or {}
            if pending.get("seat") != ana.seat:
                await until(lambda: _drained(ana, lambda: ana.status != "playing"
                                             or (table()["pending"] or {}).get("seat") == ana.seat),
                            what="the bot's move")
                continue
            why = await ana.request({"type": "why", "action": {"kind": "draw"}})
            assert why["type"] == "error" and why["code"] == "no_hints", why
            simple = {"challenge": {"kind": "accept"}, "stack": {"kind": "accept"},
                      "colour": {"kind": "choose_colour", "colour": "red"}, "drawn": {"kind": "keep"}}
            if pending["kind"] in simple:
                assert (await ana.request({"type": "action", "action": simple[pending["kind"]]}))["type"] == "ack"
                await ana.drain(0.05)
                continue
            assert pending["kind"] == "turn", pending
            # The table's move at a no-hints table: a draw, then keep whatever was drawn (HR-32
            # offers the drawn decision for any card); under forced play (HR-10) a draw may be
            # refused must_play, and then the player finds a matching card by looking (C-5).
            moved = await ana.request({"type": "action", "action": {"kind": "draw"}})
            if moved["type"] == "error":
                assert moved["code"] == "must_play", moved
                t = table()
                c = next(c for c in t["hand"] if c["colour"] in (None, t["colour"]) or c["face"] == t["top"]["face"])
                action = {"kind": "play", "card": c["id"], **({"colour": "red"} if c["colour"] is None else {})}
                assert (await ana.request({"type": "action", "action": action}))["type"] == "ack"
            await ana.drain(0.05)
            if ana.status == "playing" and table()["pending"] == {"kind": "drawn", "seat": ana.seat}:
                kept = await ana.request({"type": "action", "action": {"kind": "keep"}})
                assert kept["type"] in ("ack", "error"), kept
            await ana.drain(0.05)
        moves = {"play", "draw", "keep", "accept", "colour"}
        bot_moves = [e for e in ana.view["log"] if e["kind"] in moves and e.get("seat") not in (None, ana.seat)]
        assert bot_moves, "the bot never moved"
        assert quick_bots.audit.frames > frames_before and quick_bots.audit.violations == []
        await ana.close()

    asyncio.run(main())


async def _drained(client: Client, ready: Any) -> bool:
    await client.drain(0.05)
    return bool(ready())


def test_open_hands_reach_every_seat_and_the_delayed_spectator_and_the_audit_stays_clean__HR_31__HX_15(
        server: LiveServer) -> None:
    """Over real sockets: with ``reveal_hands_at`` 3 a hand of 3 cards or fewer is in every frame's
    ``open_hands``, the spectators' too (after their delay, D-6); the frame audit, which allows
    another seat's card only while that hand is open, finds nothing (C-16, HX-15)."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "target_score": 500,
                                                    "spectator_delay": 1, "house_rules": {"reveal_hands_at": 3}})
            assert r.status_code == 201, r.text
            code = str(r.json()["code"])
        players = await seat_players(server, code, 2)
        await start_game(players)
        eve = Client(server, code)
        await eve.connect()
        rng = random.Random(5)
        frames_before = server.audit.frames

        def small() -> int | None:
            sizes = players[0].game["table"]["hand_sizes"]
            return next((s for s, n in enumerate(sizes) if 1 <= n <= 3), None)

        while small() is None:
            assert players[0].status == "playing", "the round ended before any hand was down to 3"
            assert await puppet_step(players, rng, hurry=True)
        seat = small()
        assert seat is not None
        owner, other = players[seat], players[1 - seat]
        shown = owner.game["table"]["hand"]
        assert other.game["table"]["open_hands"][seat] == shown  # the other seat sees it face up
        table = other.game["table"]
        expected = {k: v for k, v in table.items() if k not in ("hand", "legal", "drawn", "revealed")}

        async def caught_up() -> bool:
            await eve.drain(0.05)
            return bool(eve.game is not None and eve.game["table"] == expected)

        await until(caught_up, what="the spectator seeing the open hand")
        assert eve.game["table"]["open_hands"][seat] == shown and "hand" not in eve.game["table"]
        assert server.audit.frames > frames_before and server.audit.violations == []
        for c in (*players, eve):
            await c.close()

    asyncio.run(main())


def test_face_down_cards_stay_hidden_from_their_holder_over_real_sockets__HR_33__HX_15(server: LiveServer) -> None:
    """A blind-draw room: a card drawn on a turn is counted in its holder's ``face_down``, shown to
    no one (its drawer's private log has no ``drew`` line for it) until that seat's next turn, when
    it turns up with a ``turned_up`` line; the frame audit, which flags a face-down card in any
    frame, its holder's included, finds nothing."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2,
                                                    "house_rules": {"blind_draw": True}})
            assert r.status_code == 201, r.text
            code = str(r.json()["code"])
        players = await seat_players(server, code, 2)
        await start_game(players)
        rng = random.Random(7)

        def blind_seat() -> int | None:
            return next((s for s, c in enumerate(players) if c.game["table"].get("face_down")), None)

        while blind_seat() is None:
            assert players[0].status == "playing", "the round ended before a face-down draw"
            assert await puppet_step(players, rng)
        seat = blind_seat()
        assert seat is not None
        table = players[seat].game["table"]
        assert len(table["hand"]) + table["face_down"] == table["hand_sizes"][seat]
        # In classic every draw is face down: no private line ever names a drawn card.
        assert not any(e["kind"] == "drew" for c in players for e in c.view["private"])
        assert "face_down" not in players[1 - seat].game["table"] or players[1 - seat].game["table"]["face_down"] == 0
        while players[seat].game["table"]["pending"]["seat"] != seat and players[0].status == "playing":
            assert await puppet_step(players, rng)
        if players[0].status == "playing":
            mine = players[seat].game["table"]
            assert mine["face_down"] == 0 and len(mine["hand"]) == mine["hand_sizes"][seat]
            assert any(e["kind"] == "turned_up" for e in players[seat].view["private"])
        assert server.audit.violations == []
        for c in players:
            await c.close()

    asyncio.run(main())


def test_an_open_hands_face_down_card_reaches_everyone_as_a_back_over_real_sockets__D_13__HR_31__HR_33(
        server: LiveServer) -> None:
    """A room with open hands at 3 and blind draw, played over real sockets until a hand of 3 or
    fewer holds a face-down card: every seat's frame, the holder's included, and the spectator's
    show that hand's face-up cards in ``open_hands`` and its face-down ones by count only in
    ``open_face_down`` (D-13); the frame audit, which flags a face-down card's face in any frame
    to anyone, finds nothing; once the card turns up the open hand shows it to all."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 3, "target_score": 500,
                                                    "house_rules": {"reveal_hands_at": 3, "blind_draw": True}})
            assert r.status_code == 201, r.text
            code = str(r.json()["code"])
        players = await seat_players(server, code, 3)
        await start_game(players)
        eve = Client(server, code)
        await eve.connect()
        rng = random.Random(11)

        def blind_open() -> int | None:
            table = players[0].game["table"]
            return next((s for s, n in enumerate(table["open_face_down"]) if n), None)

        while blind_open() is None:
            if players[0].status != "playing":
                for c in players:
                    await c.request({"type": "ready"})
                await sync(players)
                continue
            assert await puppet_step(players, rng, hurry=True)
        seat = blind_open()
        assert seat is not None
        holder = players[seat]
        mine = holder.game["table"]
        down = mine["face_down"]
        assert down >= 1 and mine["open_hands"][seat] == mine["hand"]  # the holder sees its face-up cards only
        for c in players:
            table = c.game["table"]
            assert table["open_hands"][seat] == mine["hand"] and table["open_face_down"][seat] == down
            assert len(table["open_hands"][seat]) + down == table["hand_sizes"][seat]

        async def caught_up() -> bool:
            await eve.drain(0.05)
            return bool(eve.game is not None and eve.game["table"]["open_face_down"][seat] == down)

        await until(caught_up, what="the spectator seeing the open hand with its face-down card")
        assert eve.game["table"]["open_hands"][seat] == mine["hand"]
        # Its next turn turns the card up: from then on the open hand shows it to all.
        while players[0].status == "playing" and holder.game["table"]["pending"]["seat"] != seat:
            assert await puppet_step(players, rng, hurry=True)
        if players[0].status == "playing" and 1 <= holder.game["table"]["hand_sizes"][seat] <= 3:
            table = players[(seat + 1) % 3].game["table"]
            assert table["open_face_down"][seat] == 0 and table["open_hands"][seat] == holder.game["table"]["hand"]
        assert server.audit.violations == []
        for c in (*players, eve):
            await c.close()

    asyncio.run(main())
