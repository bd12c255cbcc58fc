"""Players who aren't there: bots, the turn clock, disconnect takeover, house-rule room options."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.engine import HouseRules, config_of
from app.rooms import records as rec
from app.rooms.clock import ManualClock
from app.rooms.memory_store import InMemoryStore
from app.rooms.registry import RoomRegistry
from app.rooms.restore import restore_state
from app.rooms.room_views import view_for
from tests.live import Client, LiveServer, choose, seat_players, start_game, sync
from tests.waiting import eventually


def fast_settings(**over: Any) -> Settings:
    values: dict[str, Any] = {
        "between_rounds_seconds": 0.5, "echo_endpoint": True, "_env_file": None, "bot_delay_scale": 0.01,
        "away_grace_seconds": 0.3, "create_rooms_per_minute": 100_000, "joins_per_minute": 100_000,
        "sockets_per_address": 100_000,
        "socket_rate_messages": 100_000,
    }
    values.update(over)
    return Settings(**values)


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    server = LiveServer(fast_settings()).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def clocked() -> Iterator[LiveServer]:
    """A server whose rooms' time moves only when the test says (the turn clock, the grace)."""
    server = LiveServer(fast_settings(), clock=ManualClock()).start()
    yield server
    server.stop()


async def new_room(server: LiveServer, variant: str, seats: int, target: int | None = 1,
                   **options: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": variant, "max_seats": seats, "target_score": target,
                                                **options})
        assert r.status_code == 201, r.text
        body: dict[str, Any] = r.json()
        return body


async def add_bot(server: LiveServer, code: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.post(f"/api/rooms/{code}/bots", headers=headers)


async def until(client: Client, check: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check(client.view):
        assert time.monotonic() < deadline, "condition never met"
        with contextlib.suppress(TimeoutError):
            await client.recv(max(0.01, deadline - time.monotonic()))


async def play_until_over(client: Client, rng: random.Random, timeout: float = 60) -> int:
    """A person playing through the protocol: decides on its turns; the bots do the rest."""
    sent = refused = 0
    deadline = time.monotonic() + timeout
    while client.status != "over":
        assert time.monotonic() < deadline, "the match never ended"
        action = choose(client, rng, uno_chatter=0.0)
        if action is None:
            if client.status == "between" and not client.view["players"][client.seat]["ready"]:
                await client.request({"type": "ready"})
                continue
            with contextlib.suppress(TimeoutError):
                await client.recv(5)
            continue
        reply = await client.request({"type": "action", "action": action})
        if reply["type"] == "ack":
            sent += 1
        else:  # the table moved on under us (a bot's move was on its way): choose again on the new view
            refused += 1
            assert refused < 10, reply
    return sent


# ---------------------------------------------------------------------- room options


def test_house_rules_and_clock_are_room_options(live: LiveServer) -> None:
    async def main() -> None:
        room = await new_room(live, "classic", 3, house_rules={"stacking": True, "seven_o": True},
                              turn_seconds=30, away_grace_seconds=45, public=True)
        assert room["house_rules"]["stacking"] is True and room["house_rules"]["jump_in"] is False
        assert room["turn_seconds"] == 30 and room["away_grace_seconds"] == 45
        async with httpx.AsyncClient(base_url=live.http) as http:
            listed = (await http.get("/api/rooms")).json()["rooms"]
            mine = next(r for r in listed if r["code"] == room["code"])
            assert mine["house_rules"]["seven_o"] is True and mine["turn_seconds"] == 30
            # Off by default.
            plain = (await http.post("/api/rooms", json={"variant": "classic"})).json()
            assert HouseRules.from_json(plain["house_rules"]).enabled == [] and plain["turn_seconds"] is None
            assert plain["public"] is False  # private unless asked for
            assert plain["away_grace_seconds"] == live.settings.away_grace_seconds
            bad_options: list[tuple[dict[str, Any], str]] = [
                ({"house_rules": {"stacking": "yes"}}, "bad_house_rules"),
                ({"house_rules": {"nonsense": True}}, "bad_house_rules"),
                ({"house_rules": {"single_round": True, "rounds": 3}}, "bad_house_rules"),
                ({"house_rules": {"rounds": 0}}, "bad_rounds"),
                ({"turn_seconds": 0}, "bad_turn_seconds"),
                ({"turn_seconds": 500}, "bad_turn_seconds"),
                ({"away_grace_seconds": 0}, "bad_away_grace")]
            for bad, code in bad_options:
                r = await http.post("/api/rooms", json={"variant": "classic", **bad})
                assert r.status_code == 422, (bad, r.text)
                assert r.json()["detail"]["code"] == code, (bad, r.text)
        clients = await seat_players(live, room["code"], 2)
        await start_game(clients)
        view = clients[0].view
        assert view["game"]["house_rules"]["stacking"] is True
        assert view["room"]["house_rules"]["seven_o"] is True and view["room"]["turn_seconds"] == 30
        actor = live.registry.get(room["code"])
        assert actor.state.match.config.to_json()["house"]["stacking"] is True
        for c in clients:
            await c.close()

    asyncio.run(main())


def test_options_and_bots_survive_a_restart() -> None:
    async def main() -> None:
        settings = fast_settings()
        store = InMemoryStore()
        registry = RoomRegistry(settings, store)
        actor = await registry.create("mario_kart", public=True, max_seats=3, target=None, name=None,
                                      house_rules={"jump_in": True, "draw_until_playable": True},
                                      turn_seconds=60, away_grace_seconds=20)
        seat = await actor.join("Ann")
        await actor.add_bot(seat["token"])
        opened = next(iter(store.rooms.values())).opened
        assert opened.options["house_rules"]["jump_in"] is True and opened.options["turn_seconds"] == 60
        [stored] = await store.unfinished_rooms()
        assert [s.is_bot for s in stored.seats] == [False, True]
        state = restore_state(stored, settings)
        assert state.house.jump_in and state.house.draw_until_playable and not state.house.stacking
        assert state.turn_seconds == 60 and state.away_grace_seconds == 20
        assert [p.bot for p in state.players] == [False, True]
        assert state.public_summary()["house_rules"]["jump_in"] is True
        assert view_for(state, 0)["players"][1]["bot"] is True
        await registry.stop()
        # A stored room with no options at all (older records) gets the defaults.
        bare = rec.StoredRoom("ABCDEFGH", "old", "classic", True, 4, None, {}, "waiting", 0, [], None)
        state = restore_state(bare, settings)
        assert not state.house.enabled and state.turn_seconds is None
        assert state.away_grace_seconds == settings.away_grace_seconds

    asyncio.run(main())


# ---------------------------------------------------------------------- bots


def test_host_adds_and_removes_bots(live: LiveServer) -> None:
    async def main() -> None:
        room = await new_room(live, "classic", 3)
        code = room["code"]
        host, guest = await seat_players(live, code, 2)
        assert (await add_bot(live, code, None)).status_code == 401
        assert (await add_bot(live, code, "not-a-token")).json()["detail"]["code"] == "bad_token"
        r = await add_bot(live, code, guest.token)
        assert r.status_code == 409 and r.json()["detail"]["code"] == "not_host"
        r = await add_bot(live, code, host.token)
        assert r.status_code == 201 and r.json()["seat"] == 2 and r.json()["name"] == "Bot 1"
        r = await add_bot(live, code, host.token)
        assert r.status_code == 409 and r.json()["detail"]["code"] == "room_full"
        await sync([host, guest])
        assert host.view["players"][2]["bot"] is True and not host.view["players"][0]["bot"]
        async with httpx.AsyncClient(base_url=live.http) as http:
            summary = (await http.get(f"/api/rooms/{code}")).json()
            assert summary["bots"] == 1 and summary["seats_free"] == 0
        # Removed with the host's kick, before the start.
        assert (await host.request({"type": "kick", "seat": 2}))["type"] == "ack"
        await sync([host, guest])
        assert [p["bot"] for p in host.view["players"]] == [False, False]
        # The same over the socket: only the host may, and the room fills.
        assert (await guest.request({"type": "add_bot"}))["code"] == "not_host"
        assert (await host.request({"type": "add_bot"}))["type"] == "ack"
        await sync([host, guest])
        assert [p["bot"] for p in host.view["players"]] == [False, False, True]
        for c in (host, guest):
            await c.close()

    asyncio.run(main())


@pytest.mark.parametrize("edition", ["classic", "mario_kart", "all_wild", "pocket_pizza"])
def test_one_person_and_two_bots_play_a_round(live: LiveServer, edition: str) -> None:
    async def main() -> None:
        room = await new_room(live, edition, 3)
        code = room["code"]
        [me] = await seat_players(live, code, 1)
        for _ in range(2):
            assert (await add_bot(live, code, me.token)).status_code == 201
        await start_game([me])
        assert me.status in ("playing", "over")
        sent = await play_until_over(me, random.Random(edition))
        await me.drain(0.05)
        view = me.view
        assert view["summary"]["final"] is True
        actor = live.registry.get(code)
        seats_that_acted = {e.seat for e in actor.state.match.log}
        assert {1, 2} <= seats_that_acted or sent == 0
        assert {1, 2} & seats_that_acted  # the bots played
        assert view == view_for(actor.state, 0)
        assert not live.audit.violations
        await me.close()

    asyncio.run(main())


# ---------------------------------------------------------------------- takeover


@pytest.mark.slow
def test_an_absent_seat_is_played_by_a_bot_until_its_owner_returns(clocked: LiveServer) -> None:
    live = clocked

    async def main() -> None:
        rng = random.Random(5)
        room = await new_room(live, "classic", 2, target=100_000, away_grace_seconds=1)
        code = room["code"]
        a, b = await seat_players(live, code, 2)
        await start_game([a, b])
        await b.close()
        await until(a, lambda v: not v["players"][1]["connected"])
        live.advance(0.9)
        await sync([a])
        assert not a.view["players"][1]["auto"], "within the grace the seat waits for its owner"
        live.advance(0.2)
        await until(a, lambda v: v["players"][1]["auto"], timeout=5)
        assert any(e["kind"] == "takeover" for e in a.view["log"])
        actor = live.registry.get(code)
        # The game never waits for B: A plays its turns, a bot plays B's (when its pause is over).
        deadline = time.monotonic() + 20
        # Until the bot has played or drawn for it (a catch or UNO! alone moves no card).
        while not any(e["kind"] in ("play", "draw") and e.get("seat") == 1 for e in a.view["log"]):
            assert time.monotonic() < deadline, "nobody played for the absent seat"
            action = choose(a, rng, uno_chatter=0.0)
            if action is not None:
                await a.request({"type": "action", "action": action})
            else:
                live.advance(0.1)  # the bots' pauses are 0.01 of a person's here
                with contextlib.suppress(TimeoutError):
                    await a.recv(1)
        # B comes back and has the seat again: no bot moves for it any more.
        back = Client(live, code, b.token, 1)
        await back.connect()
        await back.recv()
        await sync([a, back])
        assert back.view["players"][1]["auto"] is False
        returned = next(e for e in back.view["log"] if e["kind"] == "returned")
        # It says what the bot did: at least the move that was waited for above, counted by cards.
        away = returned["away"]
        assert away.get("played", 0) + away.get("drew", 0) + away.get("penalty", 0) >= 1, away
        # Play until B owes a decision; then it stays B's to make.
        deadline = time.monotonic() + 20
        while a.status == "playing" and a.game["table"]["pending"]["seat"] != 1:
            assert time.monotonic() < deadline, "B never got a turn"
            action = choose(a, rng, uno_chatter=0.0)
            if action is not None:
                await a.request({"type": "action", "action": action})
            await sync([a, back])
        if a.status == "playing":
            logged = len(actor.state.match.log)
            live.advance(5)  # far beyond any bot's pause: none moves for B
            await sync([a, back])
            assert back.game["table"]["pending"]["seat"] == 1
            assert len(actor.state.match.log) == logged
        assert not live.audit.violations
        for c in (a, back):
            await c.close()

    asyncio.run(main())


# ---------------------------------------------------------------------- the turn clock


def test_the_turn_clock_moves_for_an_idle_player(clocked: LiveServer) -> None:
    async def main() -> None:
        room = await new_room(clocked, "classic", 2, target=100_000, turn_seconds=5)
        code = room["code"]
        a, b = await seat_players(clocked, code, 2)
        await start_game([a, b])
        await sync([a, b])
        deadline = a.view["room"]["turn_deadline"]
        assert deadline == pytest.approx(clocked.clock.wall() + 5, abs=0.001)
        actor = clocked.registry.get(code)
        logged = len(actor.state.match.log)
        clocked.advance(4.9)
        await sync([a, b])
        assert len(actor.state.match.log) == logged and a.view["room"]["turn_deadline"] == deadline, "not yet"
        # Nobody moves: at the deadline the room moves for them (draw, then keep, or a forced choice).
        clocked.advance(0.1)
        await until(a, lambda v: any(e["kind"] == "timeout" for e in v["log"]), timeout=5)
        await sync([a, b])
        assert len(actor.state.match.log) > logged
        assert a.view["room"]["turn_deadline"] == pytest.approx(deadline + 5, abs=0.001)  # a fresh clock
        # Every frame stayed in sync; the clock is gone once nobody owes a decision.
        assert not clocked.audit.violations
        for c in (a, b):
            await c.close()

    asyncio.run(main())


@pytest.mark.slow
def test_after_a_restart_bots_and_absent_seats_carry_the_match_on() -> None:
    store = InMemoryStore()
    first = LiveServer(fast_settings(), store=store).start()
    try:
        async def setup() -> str:
            room = await new_room(first, "pocket_pizza", 2, house_rules={"single_round": True}, turn_seconds=60)
            [me] = await seat_players(first, room["code"], 1)
            assert (await add_bot(first, room["code"], me.token)).status_code == 201
            await start_game([me])
            await me.close()
            return str(room["code"])

        code = asyncio.run(setup())
    finally:
        first.stop()
    second = LiveServer(fast_settings(), store=store).start()
    try:
        actor = second.registry.get(code)
        assert actor is not None
        st = actor.state
        assert st.house.single_round and st.turn_seconds == 60 and [p.bot for p in st.players] == [False, True]
        assert st.match is not None and config_of(st.match).house.single_round
        # Nobody reconnects: after the grace a bot plays the person's seat too, and the match ends.
        eventually(lambda: actor.summary["status"] == "over", timeout=20, what="the restored match's end")
        assert st.players[0].away_since is not None
        assert any(e.seat == 0 for e in st.match.log) or st.match.winner == 1
    finally:
        second.stop()


# ---------------------------------------------------------------------- who hosts


def test_hosting_passes_to_a_person_when_the_host_leaves_or_stays_away(clocked: LiveServer) -> None:
    """Only people host: a host who leaves a bot behind, or is away past the grace, hands over."""
    live = clocked

    async def main() -> None:
        room = await new_room(live, "classic", 4)
        (host,) = await seat_players(live, room["code"], 1)
        assert (await host.request({"type": "add_bot"}))["type"] == "ack"
        # The host leaves the bot alone; the next person to join hosts (a bot never does).
        await host.request({"type": "leave"})
        async with httpx.AsyncClient(base_url=live.http) as http:
            seat = (await http.post(f"/api/rooms/{room['code']}/players", json={"name": "Guest"})).json()
        guest = Client(live, room["code"], seat["token"], seat["seat"])
        await guest.connect()
        await guest.recv()
        await until(guest, lambda v: v["players"][guest.seat]["host"])
        assert not any(p["host"] for p in guest.view["players"] if p["bot"])
        assert (await guest.request({"type": "start"}))["type"] == "ack"
        await guest.close()

        # Away past the grace (0.3 s here): hosting passes to the next person who is here.
        room2 = await new_room(live, "classic", 3)
        first, second = await seat_players(live, room2["code"], 2)
        await first.close()
        await until(second, lambda v: not v["players"][first.seat]["connected"])
        live.advance(0.29)
        await sync([second])
        assert not second.view["players"][second.seat]["host"], "within the grace, the host is still the host"
        live.advance(0.1)
        await until(second, lambda v: v["players"][second.seat]["host"])
        assert any(e["kind"] == "host" for e in second.view["log"])
        assert (await second.request({"type": "add_bot"}))["type"] == "ack"
        assert (await second.request({"type": "start"}))["type"] == "ack"
        await second.close()

    asyncio.run(main())
