"""The load benchmark's bot clients (bench/load.py; bench/abuse.py's honest room plays with them too).

A ``Bot`` is one seat's client on a ``WireClient``: it keeps a view from snapshot + patches
exactly like a real client, acts on its own turn (a random legal move, saying UNO! with the play
when it can), says ready between rounds, and as the host starts a rematch when a match ends.
``Stats`` gathers what the bots of one process measured: acknowledged actions, and each action's
latency (from sending it to the last of its room's sockets receiving the patch it caused).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from bench.wire import WireClient

# ---------------------------------------------------------------------- a small JSON Patch applier


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def apply_ops(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """add / remove / replace, which is all the server sends (docs/PROTOCOL.md)."""
    for op in ops:
        path = op["path"]
        if path == "":
            doc = op["value"]
            continue
        parts = [_unescape(p) for p in path[1:].split("/")]
        target = doc
        for p in parts[:-1]:
            target = target[int(p)] if isinstance(target, list) else target[p]
        last = parts[-1]
        kind = op["op"]
        if isinstance(target, list):
            i = len(target) if last == "-" else int(last)
            if kind == "add":
                target.insert(i, op["value"])
            elif kind == "remove":
                del target[i]
            else:
                target[i] = op["value"]
        elif kind == "remove":
            del target[last]
        else:
            target[last] = op["value"]
    return doc


# ---------------------------------------------------------------------- bots


@dataclass
class Room:
    code: str
    bots: list[Bot] = field(default_factory=list)
    inflight: float | None = None
    waiting: set[int] = field(default_factory=set)


@dataclass
class Window:
    """Whether the measured seconds are running (read by the clients' callbacks)."""
    on: bool = False


@dataclass
class Stats(Window):
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    slowest: list[tuple[float, float]] = field(default_factory=list)  # (wall clock, seconds) past 50 ms
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    frames: int = 0
    # Room code -> wall-clock time its first match was seen over (bench/soak.py judges memory
    # only once most rooms have been through a whole match).
    first_over: dict[str, float] = field(default_factory=dict)


class Bot:
    """One seat's client: synchronous callbacks on a ``WireClient``."""

    def __init__(self, room: Room, index: int, token: str, ws_url: str, stats: Stats, rng: random.Random,
                 think: float, cookie: str | None = None) -> None:
        self.room, self.index, self.token, self.ws_url = room, index, token, ws_url
        self.cookie = cookie  # the player's, sent on connecting as a browser sends it (None: no player)
        self.stats, self.rng, self.think = stats, rng, think
        self.view: Any = None
        self.seq = 0
        self.busy = False  # a message of ours is unanswered, or a move is being thought about
        self.next_id = 0
        self.wire: WireClient | None = None
        self.failure: str | None = None

    async def open(self) -> None:
        # As the browser does: a move's ack rides in the patch it caused (docs/PROTOCOL.md).
        self.wire = await WireClient.connect(f"{self.ws_url}?token={self.token}&acks=in_patch", self.on_text,
                                            headers={"Cookie": self.cookie} if self.cookie else None)

    def on_text(self, text: str) -> None:
        try:
            self.on_frame(orjson.loads(text))
        except Exception as err:  # reported at the end, the run goes on
            self.failure = self.failure or repr(err)

    def on_frame(self, frame: dict[str, Any]) -> None:
        t = frame["type"]
        self.stats.frames += 1
        if t == "snapshot":
            self.view, self.seq = frame["view"], frame["seq"]
        elif t == "patch":
            if frame["seq"] != self.seq + 1:
                raise RuntimeError(f"seq gap {self.seq} -> {frame['seq']}")
            self.view = apply_ops(self.view, frame["ops"])
            self.seq = frame["seq"]
            room = self.room
            if room.inflight is not None and self.index in room.waiting:
                room.waiting.discard(self.index)
                if not room.waiting:
                    if self.stats.on:
                        took = time.perf_counter() - room.inflight
                        self.stats.latencies.append(took)
                        if took > 0.05:
                            self.stats.slowest.append((time.time(), took))
                    room.inflight = None
            if "ack" in frame:
                self.answered("ack", frame["ack"])
        elif t in ("ack", "error"):
            self.answered(t, frame.get("id"))
            if t == "error":
                self.stats.errors += 1
                code = str(frame.get("code"))
                self.stats.error_codes[code] = self.stats.error_codes.get(code, 0) + 1
        self.decide()

    def answered(self, kind: str, cid: Any) -> None:
        self.busy = False
        if kind == "ack" and str(cid or "").startswith("a") and self.stats.on:
            self.stats.actions += 1

    def send(self, msg: dict[str, Any], prefix: str) -> None:
        assert self.wire is not None
        self.next_id += 1
        self.busy = True
        self.wire.send(orjson.dumps({**msg, "id": f"{prefix}{self.next_id}"}).decode())

    def my_move(self) -> dict[str, Any] | None:
        v = self.view
        if v is None or v["room"]["status"] != "playing":
            return None
        table = v["game"]["table"]
        pending = table["pending"]
        if pending is None or pending["seat"] != v["you"]:
            return None
        legal = [a for a in table["legal"] if a["kind"] not in ("catch", "declare_uno")]
        if not legal:
            return None
        plays = [a for a in legal if a["kind"] not in ("draw", "keep")]
        pool = plays if plays and self.rng.random() < 0.9 else legal
        with_uno = [a for a in pool if a.get("uno")]
        move: dict[str, Any] = self.rng.choice(with_uno or pool)
        return move

    def decide(self) -> None:
        v = self.view
        if self.busy or v is None:
            return
        status = v["room"]["status"]
        me = v["you"]
        if status == "between" and not v["players"][me]["ready"]:
            self.send({"type": "ready"}, "r")
        elif status == "over" and v["players"][me]["host"]:
            self.stats.first_over.setdefault(self.room.code, time.time())
            self.send({"type": "rematch"}, "m")
        elif self.my_move() is not None:
            if self.think > 0:
                self.busy = True  # thinking: later frames start no second move
                asyncio.get_running_loop().call_later(self.rng.uniform(0.5, 1.5) * self.think, self.move_now)
            else:
                self.move()

    def move_now(self) -> None:
        self.busy = False
        self.move()

    def move(self) -> None:
        action = self.my_move()  # the table as it is now
        if action is None:
            return
        self.room.inflight = time.perf_counter()
        self.room.waiting = {b.index for b in self.room.bots}
        self.send({"type": "action", "action": action}, "a")
