"""Rooms leave no cyclic garbage behind, whatever their life: the server never collects on
allocation, and a busy one skips its timed full pass (app/gc_policy.py), so anything that only
the cyclic collector could free would pile up until the memory ceiling forced a long pause.

Rooms are played over real sockets through their whole life — created, joined, refused a move,
played with a bot, chatted and reacted in, watched (with a spectator delay), left, reconnected to, swept once
idle, and restored by a second server from the first one's store — with automatic collection
off.  Then one collection that frees nothing (``gc.DEBUG_SAVEALL``) shows what it would have
had to free: none of it may be the project's.
"""

from __future__ import annotations

import asyncio
import gc
import random
import types
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.rooms.errors import CLOSE_RESTARTING
from app.rooms.memory_store import InMemoryStore
from app.rooms.registry import RoomRegistry
from tests.live import Client, LiveServer, create_room, play_bot, seat_players, start_game, sync
from tests.waiting import until

APP = str(Path(__file__).resolve().parents[2] / "app") + "/"


def settings() -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, bot_delay_scale=0.01, between_rounds_seconds=0.2, sweep_seconds=0.1,
        waiting_room_idle_seconds=3.0,
        room_idle_seconds=3.0, finished_room_seconds=3.0, rematch_countdown_seconds=0.2,
        watchers_coalesce_seconds=0.0, create_rooms_per_minute=100_000, joins_per_minute=100_000,
        socket_rate_messages=100_000, rooms_per_address=100_000, room_lists_per_minute=100_000,
        sockets_per_address=100_000, connections_per_address=100_000, socket_opens_per_minute=1_000_000,
        http_requests_per_minute=0,
        spectators_per_address=100_000, room_misses_per_minute=100_000)


def the_projects(obj: Any) -> str | None:
    """What an object of the project's is, or None: instances of app classes, and the frames,
    functions and coroutines of app code (an exception's traceback holds its frames)."""
    kind = type(obj)  # not isinstance: a weak proxy to a dead object is among the garbage too
    code = None
    if kind is types.FrameType:
        code = obj.f_code
    elif kind is types.FunctionType:
        code = obj.__code__
    elif kind is types.CoroutineType:
        code = obj.cr_code
    elif kind is types.GeneratorType:
        code = obj.gi_code
    if code is not None:
        return f"{kind.__name__} {code.co_qualname}" if code.co_filename.startswith(APP) else None
    module = getattr(kind, "__module__", "") or ""
    return f"{module}.{kind.__qualname__}" if module.startswith("app.") else None


def a_cycle(garbage: list[Any]) -> list[str]:
    """What holds the project's garbage (a room first, if one is there): from it back through
    what refers to it, within the garbage, until the path comes round — the kinds along it, for
    a failure to say where to look.  The cycle may well be in another library's objects."""
    ours = sorted((o for o in garbage if the_projects(o) is not None),
                  key=lambda o: the_projects(o) != "app.rooms.actor.RoomActor")
    if not ours:
        return []
    inside = {id(o) for o in garbage}
    path, seen, obj = [ours[0]], {id(ours[0])}, ours[0]
    while len(path) < 40:
        holders = [r for r in gc.get_referrers(obj) if id(r) in inside and r is not path and r is not garbage]
        if not holders:
            break
        obj = next((r for r in holders if id(r) not in seen), holders[0])
        path.append(obj)
        if id(obj) in seen:
            break  # round again: a cycle
        seen.add(id(obj))
    return [_kind(o) for o in path]


def _kind(obj: Any) -> str:
    if isinstance(obj, types.FrameType):
        return f"frame {obj.f_code.co_qualname}:{obj.f_lineno}"
    if isinstance(obj, dict):
        return f"dict {sorted(map(str, obj))[:6]}"
    return the_projects(obj) or type(obj).__qualname__


def cyclic_garbage() -> tuple[Counter[str], list[str]]:
    """The project's objects that only the cyclic collector would free now, by kind, and what
    holds them."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = Counter(name for name in map(the_projects, gc.garbage) if name is not None)
        cycle = a_cycle(gc.garbage) if found else []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()
    return found, cycle


async def a_full_life(server: LiveServer, rng: random.Random) -> str:
    """Every kind of room life on one server; the code of a room left in play, for a restart."""
    async with httpx.AsyncClient(base_url=server.http) as http:
        # A room with a bot, a spectator seeing the game late, chat and reactions, and a reconnect.
        r = await http.post("/api/rooms", json={"variant": "mario_kart", "public": True, "max_seats": 3,
                                                "target_score": 1, "spectator_delay": 1, "spectator_chat": True})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        people = await seat_players(server, code, 2)
        bot = await http.post(f"/api/rooms/{code}/bots", headers={"Authorization": f"Bearer {people[0].token}"})
        assert bot.status_code == 201, bot.text
        watcher = Client(server, code)
        await watcher.connect()
        await watcher.recv()
        await start_game(people)
        # Refused, by the engine: a move out of turn, and the question why it would be.
        await sync(people)
        idle = next(p for p in people if p.game is not None and p.game["table"]["pending"]["seat"] != p.seat)
        assert (await idle.request({"type": "action", "action": {"kind": "draw"}}))["type"] == "error"
        assert (await idle.request({"type": "why", "action": {"kind": "draw"}}))["type"] != "ack"
        assert (await people[1].request({"type": "chat", "text": "good luck"}))["type"] == "ack"
        assert (await watcher.request({"type": "react", "emote": "wow"}))["type"] == "ack"
        await people[1].close()
        back = Client(server, code, people[1].token, people[1].seat)
        back.view, back.seq = people[1].view, people[1].seq  # resumed: the missed patches are replayed
        await back.connect(last_seq=back.seq)
        await back.drain(0.05)
        people[1] = back
        await asyncio.gather(*(play_bot(p, rng) for p in people))
        await sync(people)
        assert (await people[1].request({"type": "leave"}))["type"] == "ack"  # after the match
        await watcher.close()
        for p in people:
            await p.close()

        # A room waiting for players that nobody comes back to, and a match abandoned mid-round:
        # both are swept.
        waiting = await create_room(server, "classic", 2)
        gone = await seat_players(server, waiting, 1)
        await gone[0].close()
        abandoned = await create_room(server, "all_wild", 2, target=None)
        players = await seat_players(server, abandoned, 2)
        await start_game(players)
        for p in players:
            await p.close()
        for swept in (waiting, abandoned):
            await until_gone(http, swept)

        # A match in play when the server stops: the next one restores it.
        kept = await create_room(server, "pocket_pizza", 2, target=None)
        players = await seat_players(server, kept, 2)
        await start_game(players)
        for p in players:
            await p.close()
        return kept


async def until_gone(http: httpx.AsyncClient, code: str, timeout: float = 30) -> None:
    async def gone() -> bool:
        return (await http.get(f"/api/rooms/{code}")).status_code == 404

    await until(gone, timeout, every=0.05, what=f"room {code}'s sweep")


async def restored_and_played(server: LiveServer, code: str, rng: random.Random) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.get(f"/api/rooms/{code}")).status_code == 200, "not restored"
        r = await http.post(f"/api/rooms/{code}/players", json={"name": "late"})
        assert r.status_code == 409  # started: watch only
    watcher = Client(server, code)
    await watcher.connect()
    snapshot = await watcher.recv()
    assert snapshot["view"]["room"]["status"] == "playing"
    await watcher.close()


@pytest.mark.slow
def test_a_rooms_whole_life_leaves_no_cyclic_garbage() -> None:
    store = InMemoryStore()
    first = LiveServer(settings(), store=store).start()
    gc.collect()
    gc.disable()
    try:
        kept = asyncio.run(a_full_life(first, random.Random(25)))
        first.stop()
        second = LiveServer(settings(), store=store).start()
        try:
            asyncio.run(restored_and_played(second, kept, random.Random(26)))
            garbage, cycle = cyclic_garbage()  # with the second server still running, as in production
        finally:
            second.stop()
    finally:
        gc.enable()
    assert not garbage, f"cyclic garbage of the project's: {garbage.most_common(20)}; held: {' ← '.join(cycle)}"


def test_a_room_halted_or_still_running_when_its_loop_ends_leaves_no_cyclic_garbage() -> None:
    # A room task that ends cancelled — halted when another node takes the room over, or still
    # running when its loop closes — must not keep the error whose traceback holds the room.
    async def two_rooms() -> None:
        registry = RoomRegistry(settings(), InMemoryStore())
        halted = await registry.create("classic", public=False, max_seats=2, target=None, name=None)
        await registry.create("mario_kart", public=False, max_seats=2, target=None, name=None)
        await halted.get_summary()
        halted.halt(CLOSE_RESTARTING, "room moved")
        assert halted.task is not None
        await asyncio.wait([halted.task])
        assert halted.task.cancelled()
        registry.rooms.clear()  # the other one is left running: asyncio.run cancels it

    gc.collect()
    gc.disable()
    try:
        asyncio.run(two_rooms())
        garbage, cycle = cyclic_garbage()
    finally:
        gc.enable()
    assert not garbage, f"cyclic garbage of the project's: {garbage.most_common(20)}; held: {' ← '.join(cycle)}"
