"""One client process of the load benchmark (bench/load.py): ``worker`` runs a ``Plan``.

A plan's mode is "game" (its rooms of bots, bench/load_bots.py), "echo" (each socket in a closed
loop on ``/ws/echo``) or "relay" (groups of ``seats`` sockets on ``/ws/echo?group=``, one message
in flight per group).  Every worker lines up with the others on one wall clock (``measure``),
counts what happens inside the measured window and sends its figures back down its pipe.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy
from multiprocessing.connection import Connection
from typing import Any

import httpx

from bench.load_bots import Bot, Room, Stats, Window
from bench.machine import raise_open_files
from bench.wire import WireClient

PLAYER_COOKIE = "uno_player"  # app/web/identity.py

EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")


@dataclass
class Plan:
    """What one client worker does; ``first`` is the index of its first room overall."""
    http: str
    ws: str
    first: int
    rooms: int
    seats: int
    think: float
    warmup: float
    duration: float
    mode: str  # "game", "echo" or "relay"
    remembered: bool = False  # each seat a player of its own, its cookie sent as a browser sends it


async def setup_rooms(plan: Plan, stats: Stats) -> list[Room]:
    out: list[Room] = []
    limits = httpx.Limits(max_connections=8)
    # Remembered players: each seat's cookie is its own, sent by hand (the shared client keeps none).
    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[])) if plan.remembered else None
    async with httpx.AsyncClient(base_url=plan.http, timeout=60, limits=limits, cookies=jar) as client:

        async def one(i: int) -> Room:
            r = await client.post("/api/rooms", json={"variant": EDITIONS[i % len(EDITIONS)], "public": False,
                                                      "max_seats": plan.seats, "target_score": 1})
            r.raise_for_status()
            room = Room(r.json()["code"])
            for s in range(plan.seats):
                cookie = await player_cookie(client, f"bot{s}") if plan.remembered else None
                j = await client.post(f"/api/rooms/{room.code}/players", json={"name": f"bot{s}"},
                                      headers={"cookie": cookie} if cookie else None)
                j.raise_for_status()
                room.bots.append(Bot(room, s, j.json()["token"], f"{plan.ws}/ws/rooms/{room.code}", stats,
                                     random.Random(f"{i}/{s}"), plan.think, cookie))
            return room

        for batch in range(plan.first, plan.first + plan.rooms, 50):
            out += await asyncio.gather(*(one(i) for i in range(batch, min(batch + 50, plan.first + plan.rooms))))
    gate = asyncio.Semaphore(100)  # no connect storm bigger than the server's accept backlog

    async def opened(b: Bot) -> None:
        async with gate:
            await b.open()

    await asyncio.gather(*(opened(b) for room in out for b in room.bots))
    return out


async def player_cookie(client: httpx.AsyncClient, name: str) -> str:
    """A new player (``POST /api/me``, as the player page makes one): the cookie header its browser sends."""
    r = await client.post("/api/me", json={"name": name})
    r.raise_for_status()
    for line in r.headers.get_list("set-cookie"):
        if line.startswith(f"{PLAYER_COOKIE}="):
            return line.split(";", 1)[0]
    raise RuntimeError("POST /api/me set no player cookie")


async def until(t: float) -> None:
    await asyncio.sleep(max(0.0, t - time.time()))


async def game_clients(plan: Plan, pipe: Connection) -> dict[str, Any]:
    stats = Stats()
    rooms = await setup_rooms(plan, stats)
    bots = [b for room in rooms for b in room.bots]

    def kick_off() -> None:
        for room in rooms:
            # The first to join is the host, unless it connected last: the host is then whoever was there.
            host = next((b for b in room.bots if b.view is not None and b.view["players"][b.view["you"]]["host"]),
                        room.bots[0])
            host.send({"type": "start"}, "s")

    async def nudge() -> None:
        while True:  # in case a frame a bot waited for said nothing new
            await asyncio.sleep(1.0)
            for b in bots:
                b.decide()

    nudging = asyncio.create_task(nudge())
    await measure(plan, pipe, stats, kick_off)
    nudging.cancel()
    for b in bots:
        assert b.wire is not None
        b.wire.close()
    failures = [b.failure for b in bots if b.failure is not None]
    return {"actions": stats.actions, "latencies": stats.latencies, "errors": stats.errors,
            "error_codes": stats.error_codes, "failures": failures,
            "slowest": stats.slowest, "first_over": list(stats.first_over.values())}


async def measure(plan: Plan, pipe: Connection, window: Window, kick_off: Callable[[], None]) -> None:
    """Line up with the other workers on one wall clock, start the traffic, open the window."""
    quiet_collector()
    pipe.send("ready")
    t0 = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    await until(t0)
    kick_off()
    await until(t0 + plan.warmup)
    window.on = True
    await until(t0 + plan.warmup + plan.duration)
    window.on = False
    pipe.send("measured")
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # until the server's RSS is read


async def echo_clients(plan: Plan, pipe: Connection) -> dict[str, Any]:
    """Closed loop on ``/ws/echo``: each socket sends again as soon as its message comes back."""
    count = 0
    window = Window()
    payload = json.dumps({"type": "action", "id": "a1", "action": {"kind": "play", "card": 12, "colour": "red"}})
    wires: list[WireClient] = []

    def echoed(i: int) -> Callable[[str], None]:
        def on_text(_: str) -> None:
            nonlocal count
            if window.on:
                count += 1
            wires[i].send(payload)
        return on_text

    gate = asyncio.Semaphore(100)

    async def opened(i: int) -> WireClient:
        async with gate:
            return await WireClient.connect(f"{plan.ws}/ws/echo", echoed(i))

    wires += await asyncio.gather(*(opened(i) for i in range(plan.rooms * plan.seats)))

    def kick_off() -> None:
        for w in wires:
            w.send(payload)

    await measure(plan, pipe, window, kick_off)
    for w in wires:
        w.close()
    return {"messages": count}


async def relay_clients(plan: Plan, pipe: Connection) -> dict[str, Any]:
    """Rooms without a game: groups of ``seats`` sockets on ``/ws/echo?group=``.  As in a room, one
    message is in flight per group — a member sends, the server relays it to all of them, and
    once all have it the next member sends."""
    count = 0
    window = Window()
    payload = json.dumps({"type": "action", "id": "a1", "action": {"kind": "play", "card": 12, "colour": "red"}})
    groups: list[list[WireClient]] = []
    waiting: list[int] = []
    turn: list[int] = []

    def relayed(g: int) -> Callable[[str], None]:
        def on_text(_: str) -> None:
            nonlocal count
            waiting[g] -= 1
            if waiting[g] == 0:  # the whole group has it: the next member's move
                if window.on:
                    count += 1
                turn[g] = (turn[g] + 1) % plan.seats
                waiting[g] = plan.seats
                groups[g][turn[g]].send(payload)
        return on_text

    gate = asyncio.Semaphore(100)

    async def opened(g: int) -> WireClient:
        async with gate:
            return await WireClient.connect(f"{plan.ws}/ws/echo?group=r{plan.first + g}", relayed(g))

    for g in range(plan.rooms):
        waiting.append(plan.seats)
        turn.append(0)
        groups.append(list(await asyncio.gather(*(opened(g) for _ in range(plan.seats)))))

    def kick_off() -> None:
        for group in groups:
            group[0].send(payload)

    await measure(plan, pipe, window, kick_off)
    for group in groups:
        for w in group:
            w.close()
    return {"messages": count}


def quiet_collector() -> None:
    """Thousands of clients in one process make a big heap, and garbage collection passes over
    it stall every one of them for tens to hundreds of milliseconds — time the latency figures
    would charge to the server.  As in the server (app/gc_policy.py): frozen once set up, then
    no automatic collection (a run is short; its cycles wait for the process to end)."""
    gc.collect()
    gc.freeze()
    gc.disable()


def worker(plan: Plan, pipe: Connection) -> None:
    raise_open_files()
    try:
        run = {"game": game_clients, "echo": echo_clients, "relay": relay_clients}[plan.mode]
        pipe.send(asyncio.run(run(plan, pipe)))
    except BaseException as err:  # the parent reports it instead of waiting forever
        pipe.send({"fatal": repr(err)})
        raise
