"""The socket-level attacks of bench/abuse.py (which runs each in a process of its own, from other
loopback addresses than the honest room's): ``ping_flood``, ``idle_connections``,
``never_reading_spectators``, ``late_uno``, ``spectator_pile`` and ``rooms_list_flood`` (bench/abuse.py
says what each does), and ``Seat``, a blocking seat client the attackers share.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import select
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx

from bench.load_bots import apply_ops
from bench.machine import raise_open_files
from bench.wire import close_code_in

# ---------------------------------------------------------------------- raw sockets (the attackers')


def tcp(port: int, source: str, rcvbuf: int | None = None, timeout: float = 5) -> socket.socket:
    s = socket.socket()
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s


def raw_websocket(port: int, path: str, source: str, rcvbuf: int | None = None) -> tuple[socket.socket, bytes]:
    """A WebSocket handshake by hand: (the socket, the status line)."""
    s = tcp(port, source, rcvbuf)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            break
        head += chunk
    return s, head.split(b"\r\n", 1)[0]


def ping_frame(payload: bytes = b"") -> bytes:
    return bytes([0x89, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


def text_frame(text: str) -> bytes:
    data = text.encode()
    n = len(data)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    return head + b"\0\0\0\0" + data


def drain_close_code(s: socket.socket, timeout: float = 3) -> int | None:
    """Read until the server ends the connection; the code of its close frame, if it sent one."""
    s.settimeout(timeout)
    data = b""
    with contextlib.suppress(OSError):
        while chunk := s.recv(65536):
            data += chunk
    return close_code_in(data)


# ---------------------------------------------------------------------- the attacks (each in its own process)


def ping_flood(port: int, code: str, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    written, sockets, closes = 0, 0, Counter[str]()
    batch = ping_frame(b"x" * 4) * 6000  # 60 KB a write
    while time.monotonic() < deadline:
        s, status = raw_websocket(port, f"/ws/rooms/{code}", "127.0.0.2")
        sockets += 1
        if b" 101 " not in status:
            closes[status.decode(errors="replace")] += 1
            s.close()
            continue
        s.setblocking(False)
        try:
            while time.monotonic() < deadline:
                select.select([], [s], [], 0.2)
                try:
                    written += s.send(batch) // 10
                except BlockingIOError:
                    continue
        except OSError:
            pass
        closes[str(drain_close_code(s))] += 1
        s.close()
    # Written: into this side's socket buffer; what the server read is control_frames_read.
    return {"pings_written": written, "sockets": sockets, "closes": dict(closes)}


def idle_connections(port: int, code: str, seconds: float) -> dict[str, Any]:
    raise_open_files()
    deadline = time.monotonic() + seconds
    held: list[socket.socket] = []
    failed = 0
    for i in range(12_000):
        if time.monotonic() > deadline:
            break
        s = socket.socket()
        s.bind((f"127.0.1.{1 + i % 40}", 0))
        s.setblocking(False)
        if s.connect_ex(("127.0.0.1", port)) not in (0, 115):  # EINPROGRESS
            failed += 1
            s.close()
            continue
        held.append(s)
    opened = len(held)
    time.sleep(max(0.0, deadline - time.monotonic()))
    still_open = 0
    for s in held:
        try:
            s.recv(1, socket.MSG_PEEK)  # the server's 503 or its end of stream
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        s.close()
    return {"opened": opened, "connect_failed": failed, "still_open_at_end": still_open}


def never_reading_spectators(port: int, code: str, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    held, statuses = [], Counter[str]()
    for _ in range(45):
        s, status = raw_websocket(port, f"/ws/rooms/{code}", "127.0.0.3", rcvbuf=4096)
        statuses[status.decode(errors="replace")] += 1
        held.append(s)
    time.sleep(max(0.0, deadline - time.monotonic()))
    for s in held:
        s.close()
    return {"statuses": dict(statuses)}


class Seat:
    """A blocking client for one seat of the attacker's room: its view, and one reply at a time."""

    def __init__(self, port: int, code: str, token: str) -> None:
        self.port, self.code, self.token = port, code, token
        self.view: Any = None
        self.ws: Any = None
        self.n = 0

    def connect(self) -> None:
        from websockets.sync.client import connect

        self.ws = connect(f"ws://127.0.0.1:{self.port}/ws/rooms/{self.code}?token={self.token}",
                          max_size=2**22, source_address=("127.0.0.4", 0))
        self.recv_until(lambda f: f["type"] == "snapshot")

    def recv_until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=5))
            if frame["type"] == "snapshot":
                self.view = frame["view"]
            elif frame["type"] == "patch":
                self.view = apply_ops(self.view, frame["ops"])
            if done(frame):
                return frame

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        cid = f"x{self.n}"
        self.ws.send(json.dumps({**msg, "id": cid}))
        return self.recv_until(lambda f: f.get("id") == cid)


def late_uno(port: int, code: str, seconds: float) -> dict[str, Any]:
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + seconds
    transport = httpx.HTTPTransport(local_address="127.0.0.4")
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport) as http:
        room = http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "public": False}).json()["code"]
        seats = [Seat(port, room, http.post(f"/api/rooms/{room}/players", json={"name": f"L{i}"}).json()["token"])
                 for i in range(2)]
    for s in seats:
        s.connect()
    seats[0].request({"type": "start"})
    for s in seats:
        while s.view["game"] is None:  # the start's patch has not been read on this socket yet
            s.recv_until(lambda f: f["type"] == "patch")
    rng = random.Random(4)
    catch: tuple[Seat, dict[str, Any]] | None = None
    # Play both seats, never saying UNO!, until one of them can be caught; then catch, and go on catching.
    while catch is None and time.monotonic() < deadline - seconds / 2:
        for s in seats:
            found = [a for a in (s.view["game"] or {}).get("table", {}).get("legal", []) if a["kind"] == "catch"]
            if found:
                catch = (s, found[0])
                break
        if catch is not None or seats[0].view["room"]["status"] != "playing":
            break
        pending = seats[0].view["game"]["table"].get("pending")
        if pending is None:
            break
        mover = seats[pending["seat"]]
        moves = [a for a in mover.view["game"]["table"]["legal"]
                 if a["kind"] not in ("declare_uno", "catch") and not a.get("uno")]
        if not moves:
            break
        plays = [a for a in moves if a["kind"] not in ("draw", "keep")]
        mover.request({"type": "action", "action": rng.choice(plays or moves)})
        for s in seats:
            if s is not mover:
                s.request({"type": "ping"})  # brings its view up to date
    seat, action = catch if catch is not None else (seats[1], {"kind": "catch", "target": 0})
    answers, reconnects = Counter[str](), 0
    while time.monotonic() < deadline:
        try:
            reply = seat.request({"type": "action", "action": action})
            answers[str(reply.get("code", reply["type"]))] += 1
        except (ConnectionClosed, TimeoutError):
            reconnects += 1
            with contextlib.suppress(Exception):
                seat.connect()
    return {"caught_first": catch is not None, "answers": dict(answers), "reconnects": reconnects}


def spectator_pile(port: int, code: str, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    held: list[socket.socket] = []
    outcomes = Counter[str]()
    i = 0
    while time.monotonic() < deadline:
        if len(held) >= 300:
            old = held.pop(0)
            old.close()
        i += 1
        try:
            s, status = raw_websocket(port, f"/ws/rooms/{code}", f"127.0.0.{5 + i % 3}")
        except OSError as err:
            outcomes[type(err).__name__] += 1
            continue
        if b" 101 " not in status:
            outcomes[status.decode(errors="replace")] += 1
            s.close()
            continue
        s.settimeout(2)
        first = b""
        with contextlib.suppress(OSError):
            first = s.recv(65536)
        if b"too_many_spectators" in first or not first:
            outcomes["refused (4429)" if first else "closed"] += 1
            s.close()
        else:
            outcomes["watching"] += 1
            held.append(s)
    for s in held:
        s.close()
    return {"outcomes": dict(outcomes)}


def rooms_list_flood(port: int, code: str, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    calls, statuses, size = 0, Counter[int](), 0

    async def one(k: int) -> None:
        nonlocal calls, size
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{8 + k}")
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=10) as http:
            while time.monotonic() < deadline:
                r = await http.get("/api/rooms")
                calls += 1
                statuses[r.status_code] += 1
                size = max(size, len(r.content))

    async def all_four() -> None:
        await asyncio.gather(*(one(k) for k in range(4)))

    asyncio.run(all_four())
    return {"calls": calls, "calls_per_s": round(calls / seconds, 1), "statuses": dict(statuses),
            "largest_response_bytes": size}
