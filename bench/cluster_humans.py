"""The cluster benchmark's players (bench/cluster.py's failover and drain parts): rooms of two
server bots and one ``Human``, a protocol client that plays like a browser through nginx —
it reconnects after any close and resends its unanswered message — and records every ack.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench.load_workers import EDITIONS
from tests.live import Client, choose

# Close codes after which a browser would give up.
FATAL = {4000, 4401, 4403, 4404, 4410, 4429}


class Through:
    """What tests.live.Client needs of a server: nginx's addresses, no in-process audit."""

    audits_views = False

    def __init__(self, http: str, ws: str) -> None:
        self.http, self.ws = http, ws


@dataclass
class Human:
    """A player's browser: plays on its turn after a short think, and after any close
    reconnects every 200-500 ms and resends its unanswered message (or says it is back)."""

    client: Client
    rng: random.Random
    connected_at: float = 0.0
    node: str | None = None
    acks: list[tuple[str, float, float]] = field(default_factory=list)  # (client id, when, connection opened)
    actions: list[str] = field(default_factory=list)  # acknowledged actions' ids
    fatal: list[int] = field(default_factory=list)
    errors: int = 0
    stopping: bool = False

    async def connect(self) -> None:
        while not self.stopping:
            try:
                await self.client.connect()
                ws = self.client.ws
                assert ws is not None and ws.response is not None
                self.node = ws.response.headers.get("x-uno-node")
                await self.client.recv(5)
                self.connected_at = time.monotonic()
                return
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
                await asyncio.sleep(self.rng.uniform(0.2, 0.5))

    def new(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {**msg, "id": f"{self.client.code}-{self.client.new_id()}"}

    async def run(self) -> None:
        pending: dict[str, Any] | None = None
        while not self.stopping:
            try:
                if pending is not None:
                    await self.client.send(pending)
                    reply = await self.client.until_reply(pending["id"], 30)
                    if reply["type"] == "ack":
                        self.acks.append((pending["id"], time.monotonic(), self.connected_at))
                        if pending["type"] == "action":
                            self.actions.append(pending["id"])
                    else:
                        self.errors += 1
                    pending = None
                    continue
                c = self.client
                action = choose(c, self.rng, uno_chatter=0.0)
                if action is not None:
                    await asyncio.sleep(self.rng.uniform(0.1, 0.4))
                    pending = self.new({"type": "action", "action": action})
                elif c.status == "over":
                    pending = self.new({"type": "rematch"})
                elif c.status == "between" and not c.view["players"][c.seat]["ready"]:
                    pending = self.new({"type": "ready"})
                else:
                    with contextlib.suppress(TimeoutError):
                        await c.recv(0.5)
            except ConnectionClosed as err:
                code = err.rcvd.code if err.rcvd is not None else 1006
                if code in FATAL:
                    self.fatal.append(code)
                    return
                await asyncio.sleep(self.rng.uniform(0.2, 0.5))
                await self.connect()
                if pending is None:  # something the room must answer, to know it is back
                    pending = self.new({"type": "chat", "text": "back"})
            except TimeoutError:  # no answer in 30 s: ask again on a new socket, same id
                with contextlib.suppress(Exception):
                    await self.client.close()

    def first_ack_after(self, t: float) -> float | None:
        """Seconds from ``t`` to the first ack on a connection opened after ``t``."""
        return next((when - t for _, when, opened in self.acks if opened > t), None)


async def open_rooms(http: str, ws: str, rooms: int, rng: random.Random) -> list[Human]:
    server = Through(http, ws)
    humans = []
    async with httpx.AsyncClient(base_url=http, timeout=20) as h:
        for i in range(rooms):
            r = await h.post("/api/rooms", json={"variant": EDITIONS[i % 4], "max_seats": 3, "public": False,
                                                 "target_score": 1})
            r.raise_for_status()
            code = r.json()["code"]
            seat = (await h.post(f"/api/rooms/{code}/players", json={"name": f"Human{i}"})).json()
            for _ in range(2):
                r = await h.post(f"/api/rooms/{code}/bots", headers={"Authorization": f"Bearer {seat['token']}"})
                r.raise_for_status()
            client = Client(server, code, seat["token"], seat["seat"])  # type: ignore[arg-type]
            humans.append(Human(client, random.Random(rng.random())))
    for hu in humans:
        await hu.connect()
        reply = await hu.client.request({"type": "start"})
        assert reply["type"] == "ack", reply
    return humans
