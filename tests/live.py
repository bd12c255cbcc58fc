"""A real server on a real port, and protocol-only clients, for the room and transport tests.

The server (uvicorn) runs in a background thread with its own event loop; tests talk to
it over loopback with ``httpx`` and the ``websockets`` client — no in-process shortcuts.
``FrameAudit`` (tests/frame_audit.py) observes every frame the server sends, for the
hidden-information rule (C-16) and for clients to check their patched views against the server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import threading
import time
from typing import Any, ClassVar

import httpx
import jsonpatch
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from app.config import Settings
from app.main import create_app
from app.rooms.clock import REAL_CLOCK, Clock, ManualClock
from app.rooms.memory_store import InMemoryStore
from app.rooms.ports import Store
from app.server import uvicorn_config
from tests.frame_audit import FrameAudit, digest
from tests.waiting import eventually


class OnLoopback:
    """A server on 127.0.0.1 and ``port``: its HTTP and WebSocket base URLs."""

    port: int

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


class LiveServer(OnLoopback):
    def __init__(self, settings: Settings | None = None, store: Store | None = None,
                 clock: Clock = REAL_CLOCK, **defaults: Any) -> None:
        """``settings``, or the tests' defaults below with ``defaults`` changed (e.g. ``bot_delay_scale``).
        ``clock``: the rooms' time; a ``ManualClock`` for a test that moves it itself (``advance``)."""
        self.clock = clock
        self.audit = FrameAudit()
        # The abuse limits are per address and every test client is 127.0.0.1: raised here; the
        # tests of the limits themselves (tests/hardening) bring their own settings.
        self.settings = settings or Settings(  # type: ignore[call-arg]
            between_rounds_seconds=0.5, echo_endpoint=True, _env_file=None, create_rooms_per_minute=100_000,
            joins_per_minute=100_000, socket_rate_messages=100_000, rooms_per_address=100_000,
            room_lists_per_minute=100_000, room_misses_per_minute=100_000, sockets_per_address=100_000,
            connections_per_address=100_000, socket_opens_per_minute=1_000_000, spectators_per_address=100_000,
            match_downloads_per_minute=100_000,
            # The watcher count follows a spectator's arrival at once (one message later), so that
            # tests comparing views after a game do not race the coalescing window; the window
            # itself is tested with settings of its own (tests/rooms/test_spectators.py).
            watchers_coalesce_seconds=0.0, **{"http_requests_per_minute": 0, **defaults})
        # In memory unless a test brings its own store: the persistence tests use real databases.
        self.store = store if store is not None else InMemoryStore()
        self.app = create_app(self.settings, store=self.store, observer=self.audit, clock=clock)
        # As every server is run (python -m app serve): app/server.py, on any free port.
        config = uvicorn_config(self.settings, self.app, port=0, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0

    def start(self) -> LiveServer:
        self.thread.start()
        # A loaded machine can take seconds to start the app; a thread that ended will never start it.
        eventually(lambda: self.server.started or not self.thread.is_alive(), 60, every=0.01,
                   what="the server's start")
        if not self.server.started:
            raise RuntimeError("server did not start")
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        Client.hang_up_abandoned(self)
        self.server.should_exit = True
        # A busy machine stops a server slowly; one that does not stop at all is a bug, and
        # would go on running (its rooms, its port) under the tests that follow.
        self.thread.join(60)
        if self.thread.is_alive():
            raise RuntimeError("the server did not stop within 60 s")

    @property
    def registry(self) -> Any:
        return self.app.state.registry

    def advance(self, seconds: float) -> None:
        """Move the rooms' clock on (a server started with a ``ManualClock``): every timer due by
        then is told to its room, in order; a test then waits for what it caused, as ever."""
        assert isinstance(self.clock, ManualClock), "this server's rooms run on the real clock"
        self.clock.advance(seconds)


class Client:
    """A protocol-only client: keeps a view by applying snapshots and patches, checks seq."""

    # Every client connected, until its server stops.  Held, not weakly: a connection that is
    # dropped unclosed sits in reference cycles, its socket open until a garbage collection.
    opened: ClassVar[list[Client]] = []

    @classmethod
    def hang_up_abandoned(cls, server: OnLoopback) -> None:
        """End the connections to ``server`` of clients whose event loop is gone (a test that
        ended without closing them): nobody is left to answer the server's closing handshake,
        which the server, stopping, would wait out for seconds (and a test stops many)."""
        for client in [c for c in cls.opened if c.server is server]:
            cls.opened.remove(client)
            ws = client.ws
            if ws is not None and ws.loop.is_closed():
                with contextlib.suppress(OSError):  # already gone
                    ws.transport.get_extra_info("socket").shutdown(socket.SHUT_RDWR)

    def __init__(self, server: LiveServer, code: str, token: str | None = None, seat: int | None = None) -> None:
        self.server, self.code, self.token, self.seat = server, code, token, seat
        self.ws: ClientConnection | None = None
        self.view: Any = None  # the JSON view; Any keeps test code readable
        self.seq = 0
        self.replies: dict[str, dict[str, Any]] = {}
        self.errors: list[dict[str, Any]] = []
        self.frames: list[str] = []
        self.desync_checks = 0
        # A server in another process has no frame audit to compare against.
        self.check_desync = getattr(server, "audits_views", True)
        self.next_id = 0
        self.acks_in_patch = False  # connect with ?acks=in_patch, as the browser does
        self.screen: str | None = None  # connect with ?screen=KEY: the host's big screen (D-14)

    async def connect(self, last_seq: int | None = None, header: bool = False) -> None:
        url = f"{self.server.ws}/ws/rooms/{self.code}"
        params = []
        headers = {}
        if self.token is not None:
            if header:
                headers["Authorization"] = f"Bearer {self.token}"
            else:
                params.append(f"token={self.token}")
        if last_seq is not None:
            params.append(f"last_seq={last_seq}")
        if self.acks_in_patch:
            params.append("acks=in_patch")
        if self.screen is not None:
            params.append(f"screen={self.screen}")
        if params:
            url += "?" + "&".join(params)
        # No flow control on the client's side: a test that stops reading (a socket it only
        # closes later) would otherwise stop hearing the server, close frame included, and wait
        # out the close timeout (10 s) on every close.
        self.ws = await connect(url, additional_headers=headers, max_size=2**22, max_queue=None)
        Client.opened.append(self)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def new_id(self) -> str:
        self.next_id += 1
        return f"c{self.seat}-{self.next_id}"

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(msg))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        assert self.ws is not None
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(text, str)
        self.frames.append(text)
        frame: dict[str, Any] = json.loads(text)
        t = frame["type"]
        if t == "snapshot":
            self.view = frame["view"]
            self.seq = frame["seq"]
        elif t == "patch":
            assert self.view is not None
            assert frame["seq"] == self.seq + 1, f"seq jumped from {self.seq} to {frame['seq']}"
            self.view = jsonpatch.apply_patch(self.view, frame["ops"], in_place=True)
            self.seq = frame["seq"]
            if "ack" in frame:  # the ack of a command of ours, in the patch it caused
                self.replies[frame["ack"]] = {"type": "ack", "id": frame["ack"], "seq": frame["seq"]}
        elif t in ("ack", "error", "pong") and frame.get("id") is not None:
            self.replies[frame["id"]] = frame
        if t == "error":
            self.errors.append(frame)
        if t in ("snapshot", "patch") and self.seat is not None:
            self.seat = self.view["you"]  # seats close up when someone leaves
        if t in ("snapshot", "patch") and self.seat is not None and self.check_desync:
            expected = self.server.audit.view_digest(self.code, self.seat, self.seq)
            assert expected == digest(self.view), f"seat {self.seat} desynced at seq {self.seq}"
            self.desync_checks += 1
        return frame

    async def request(self, msg: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send a message with a fresh id; read frames until its ack or error."""
        cid = msg.get("id") or self.new_id()
        await self.send({**msg, "id": cid})
        return await self.until_reply(cid, timeout)

    async def until_reply(self, cid: str, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while cid not in self.replies:
            await self.recv(max(0.01, deadline - time.monotonic()))
        return self.replies.pop(cid)

    async def drain(self, quiet: float = 0.15) -> None:
        """Read frames until none arrives for ``quiet`` seconds."""
        while True:
            try:
                await self.recv(quiet)
            except TimeoutError:
                return

    # Shortcuts into the view.
    @property
    def game(self) -> Any:
        return self.view["game"] if self.view else None

    @property
    def status(self) -> str:
        assert self.view is not None
        return str(self.view["room"]["status"])


async def connect_once(server: LiveServer, code: str, token: str | None, seat: int = 0) -> None:
    """Open a seat's socket, take the snapshot, and leave: enough to make the server log a connection
    (uvicorn logs it as it accepts the handshake, before anything is sent on the socket)."""
    c = Client(server, code, token, seat)
    await c.connect()
    await c.recv()
    await c.close()


async def create_room(server: LiveServer, variant: str, seats: int, target: int | None = 1,
                      public: bool = True) -> str:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": variant, "public": public, "max_seats": seats,
                                                "target_score": target})
        assert r.status_code == 201, r.text
        return str(r.json()["code"])


async def seat_players(server: LiveServer, code: str, n: int) -> list[Client]:
    clients = []
    async with httpx.AsyncClient(base_url=server.http) as http:
        for i in range(n):
            r = await http.post(f"/api/rooms/{code}/players", json={"name": f"P{i}"})
            assert r.status_code == 201, r.text
            body = r.json()
            clients.append(Client(server, code, body["token"], body["seat"]))
    for c in clients:
        await c.connect()
        await c.recv()  # the snapshot
    return clients


async def start_game(clients: list[Client]) -> None:
    reply = await clients[0].request({"type": "start"})
    assert reply["type"] == "ack", reply
    for c in clients:
        await c.drain(0.05)


def choose(client: Client, rng: random.Random, uno_chatter: float = 0.3) -> dict[str, Any] | None:
    """A random bot: a legal decision on its turn, and now and then a UNO! declaration or catch."""
    game = client.game
    if game is None or client.status != "playing":
        return None
    table = game["table"]
    legal = table.get("legal", [])
    if not legal:
        return None
    uno = [a for a in legal if a["kind"] in ("declare_uno", "catch")]
    mine = [a for a in legal if a["kind"] not in ("declare_uno", "catch")]
    if uno and rng.random() < uno_chatter:
        return dict(rng.choice(uno))
    pending = table.get("pending")
    if mine and pending and pending["seat"] == client.seat:
        # Mostly play rather than draw, or random games last a very long time.
        plays = [a for a in mine if a["kind"] not in ("draw", "keep")]
        return dict(rng.choice(plays if plays and rng.random() < 0.85 else mine))
    return None


async def play_bot(client: Client, rng: random.Random, uno_chatter: float = 0.3) -> int:
    """Play until the match is over; returns the number of actions this client sent."""
    sent = 0
    while client.status != "over":
        action = choose(client, rng, uno_chatter)
        if action is None:
            if client.status == "between" and not any(
                    p["ready"] for p in client.view["players"] if p["seat"] == client.seat):
                await client.request({"type": "ready"})
                continue
            await client.recv(20)
            continue
        await client.request({"type": "action", "action": action})
        sent += 1
    return sent


async def play_match(server: LiveServer, variant: str, seats: int, seed: int, target: int | None = 1) -> list[Client]:
    code = await create_room(server, variant, seats, target)
    clients = await seat_players(server, code, seats)
    await start_game(clients)
    await asyncio.gather(*(play_bot(c, random.Random(f"{seed}/{c.seat}")) for c in clients))
    for c in clients:
        await c.drain(0.05)
    return clients


async def sync(clients: list[Client]) -> None:
    """Bring every client up to date: a ping is answered after all earlier room messages."""
    await asyncio.gather(*(c.request({"type": "ping"}) for c in clients))


def pending_client(clients: list[Client]) -> Client | None:
    game = clients[0].game
    if game is None or clients[0].status != "playing" or game["table"]["pending"] is None:
        return None
    seat = game["table"]["pending"]["seat"]
    return next((c for c in clients if c.seat == seat), None)


async def puppet_step(clients: list[Client], rng: random.Random, hurry: bool = False) -> bool:
    """The seat to act makes a random decision, never saying UNO!; then everyone syncs.
    ``hurry``: a card whenever one may be played (drawing at random makes rounds long)."""
    actor = pending_client(clients)
    if actor is None:
        return False
    table = actor.game["table"]
    moves = [a for a in table["legal"] if a["kind"] not in ("declare_uno", "catch") and not a.get("uno")]
    plays = [a for a in moves if a["kind"] not in ("draw", "keep")]
    reply = await actor.request({"type": "action", "action": rng.choice(plays if hurry and plays else moves)})
    assert reply["type"] == "ack", reply
    await sync(clients)
    return True


async def next_round_or_over(clients: list[Client]) -> bool:
    """Between rounds everyone says ready; returns False once the match is over."""
    if clients[0].status == "over":
        return False
    if clients[0].status == "between":
        for c in clients:
            await c.request({"type": "ready"})
        await sync(clients)
    return clients[0].status != "over"
