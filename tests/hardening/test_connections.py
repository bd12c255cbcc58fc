"""Connection-level abuse over raw loopback sockets: control-frame floods, a peer that never
reads, requests that never arrive, and too many connections from one address or in all.

Other loopback addresses (127.0.0.2, ...) stand for other clients: the per-address limits
keep them apart from the honest client on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from app.config import Settings
from app.transport.gate import ConnectionGate
from app.transport.limits import CLOSE_POLICY
from app.transport.uvicorn_adapter import WebSocketProtocol
from bench.wire import close_code_in
from tests.live import Client, LiveServer, create_room, seat_players
from tests.waiting import eventually


def settings(**kw: object) -> Settings:
    base: dict[str, object] = {"_env_file": None, "between_rounds_seconds": 0.5, "echo_endpoint": True,
                               "create_rooms_per_minute": 1000, "joins_per_minute": 1000}
    return Settings(**{**base, **kw})  # type: ignore[arg-type]


@contextlib.contextmanager
def live(**kw: object) -> Iterator[LiveServer]:
    server = LiveServer(settings(**kw)).start()
    try:
        yield server
    finally:
        server.stop()


def gate(server: LiveServer) -> ConnectionGate:
    found: ConnectionGate = server.app.state.connection_gate
    return found


def tcp(server: LiveServer, source: str = "127.0.0.1", rcvbuf: int | None = None) -> socket.socket:
    s = socket.socket()
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", server.port))
    return s


def raw_websocket(server: LiveServer, path: str, source: str = "127.0.0.1", rcvbuf: int | None = None) -> socket.socket:
    """A WebSocket opened by hand: the handshake, and nothing read past its response."""
    s = tcp(server, source, rcvbuf)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
              f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        byte = s.recv(1)
        assert byte, "closed during the handshake"
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def ping(payload: bytes = b"") -> bytes:
    """A client's ping frame (masked, with an all-zero mask: the payload goes as it is)."""
    return bytes([0x89, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


def close_code(s: socket.socket, data: bytes = b"", timeout: float = 5) -> int | None:
    """Read the server's frames (after ``data``, read already) until the connection ends: the code
    of its close frame, if any."""
    s.settimeout(timeout)
    with contextlib.suppress(ConnectionResetError):
        while chunk := s.recv(65536):
            data += chunk
    return close_code_in(data)


def is_open(s: socket.socket) -> bool:
    """Still open from the server's side (nothing arrived, no end of stream)."""
    s.setblocking(False)
    try:
        s.recv(1, socket.MSG_PEEK)  # the end of the stream, or the 503 before it
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.settimeout(5)


async def honest_pings(client: Client, until: asyncio.Event) -> list[float]:
    """An honest seat's round trips, one after another, while an attack goes on."""
    times = []
    while not until.is_set():
        start = time.perf_counter()
        assert (await client.request({"type": "ping"}))["type"] == "pong"
        times.append(time.perf_counter() - start)
        await asyncio.sleep(0.1)  # well within the seat's own rate
    return times


# ---------------------------------------------------------------- control frames


def test_a_control_frame_flood_is_closed_1008_and_the_room_next_door_keeps_its_pace(
        caplog: pytest.LogCaptureFixture) -> None:
    with live(socket_rate_messages=100, sockets_per_address=1000) as server, \
            caplog.at_level(logging.INFO, logger="app.transport"):
        async def main() -> None:
            code = await create_room(server, "classic", 3, target=None)
            honest = await seat_players(server, code, 2)
            stop = asyncio.Event()
            pings = asyncio.create_task(honest_pings(honest[0], stop))

            def flood(path: str, frames: int) -> int | None:
                s = raw_websocket(server, path)
                first = s.recv(2) if path.startswith("/ws/rooms/") else b""  # the snapshot: the app has the socket
                with contextlib.suppress(OSError):  # the server may close before it has all of them
                    s.sendall(ping(b"x" * 16) * frames)
                try:
                    return close_code(s, first)
                finally:
                    s.close()

            # A spectator socket, then the same through a seat: 5,000 pings sent at once.
            spectator = await asyncio.to_thread(flood, f"/ws/rooms/{code}", 5000)
            async with httpx.AsyncClient(base_url=server.http) as http:
                seat = (await http.post(f"/api/rooms/{code}/players", json={"name": "Flood"})).json()
                seated = await asyncio.to_thread(flood, f"/ws/rooms/{code}?token={seat['token']}", 5000)
                # The seat's window is kept across its sockets: back at once, one ping is too many.
                again = await asyncio.to_thread(flood, f"/ws/rooms/{code}?token={seat['token']}", 1)
                echo = await asyncio.to_thread(flood, "/ws/echo", 5000)  # the protocol's own window
                await asyncio.sleep(0.3)
                stop.set()
                times = await pings
                metrics = (await http.get("/metrics")).text
            assert (spectator, seated, again, echo) == (CLOSE_POLICY,) * 4
            assert 'uno_refused_total{reason="control_frames"} 4' in metrics
            sent = next(line for line in metrics.splitlines()
                        if line.startswith('uno_messages_total{type="control_ping"}'))
            assert 300 <= int(sent.split()[-1]) < 5000, sent  # counted, and the rest never parsed
            assert times and max(times) < 0.5, max(times)
            for c in honest:
                await c.close()

        asyncio.run(main())
    assert any("control frames over the message rate" in r.getMessage() for r in caplog.records)


def server_side(server: LiveServer, s: socket.socket) -> WebSocketProtocol:
    port = s.getsockname()[1]
    found = [p for p in server.server.server_state.connections
             if isinstance(p, WebSocketProtocol) and p.client is not None and p.client[1] == port]
    assert len(found) == 1
    return found[0]


@pytest.mark.slow
def test_a_socket_that_reads_nothing_is_read_no_more_once_its_output_backs_up() -> None:
    # The rate is lifted: this is about the buffer of pongs a peer never reads.
    with live(socket_rate_messages=1_000_000) as server:
        s = raw_websocket(server, "/ws/echo", rcvbuf=4096)
        s.settimeout(2)
        sent = 0
        frame = ping(b"p" * 125)
        with contextlib.suppress(TimeoutError):
            for _ in range(40_000):  # 5 MiB of pings: 5 MiB of pongs if all were answered
                s.sendall(frame)
                sent += 1
        # A busy machine reads the pings late: wait until the server has stopped writing to the peer.
        proto = server_side(server, s)
        deadline = time.monotonic() + 20
        while not proto.write_blocked and time.monotonic() < deadline:
            time.sleep(0.02)
        buffered = proto.transport.get_write_buffer_size()
        assert proto.write_blocked and buffered < 512 * 1024, (sent, buffered)
        # Once the peer reads again, so does the server: the pongs flow and the socket works.
        s.setblocking(True)
        s.settimeout(0.5)
        with contextlib.suppress(TimeoutError):
            while s.recv(65536):
                pass
        assert not proto.write_blocked
        s.close()


# ---------------------------------------------------------------- requests that never arrive


def whole_answer(s: socket.socket) -> bytes:
    """One HTTP answer read whole: its head, then as many bytes of body as its Content-Length says."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, f"closed mid-answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = s.recv(65536)
        assert chunk, f"closed mid-body: {data!r}"
        body += chunk
    return head + b"\r\n\r\n" + body


@pytest.mark.slow
def test_a_connection_that_sends_no_whole_request_is_closed_after_the_header_timeout(
        caplog: pytest.LogCaptureFixture) -> None:
    with live(header_timeout_s=0.5) as server, caplog.at_level(logging.INFO, logger="app.transport"):
        silent = [tcp(server) for _ in range(10)]
        partial = [tcp(server) for _ in range(10)]
        for s in partial:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never the blank line
        # Keep-alive: the first request is answered, the second never finishes.
        kept = tcp(server)
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = whole_answer(kept)  # on a busy machine its head and body may come apart
        assert answer.startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /healthz HTTP/1.1\r\n")
        start = time.monotonic()
        for s in (*silent, *partial, kept):
            s.settimeout(3)
            assert s.recv(65536) == b"", "closed with nothing sent"
            s.close()
        assert time.monotonic() - start < 2.5
        # A slow but whole request, and a WebSocket kept past the timeout, are left alone.
        slow = tcp(server)
        slow.sendall(b"GET /healthz HTTP/1.1\r\n")
        time.sleep(0.2)
        slow.sendall(b"Host: 127.0.0.1\r\n\r\n")
        assert slow.recv(65536).startswith(b"HTTP/1.1 200")
        slow.close()
        piped = tcp(server)  # two requests in one write: both answered
        piped.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 2)
        answers = b""
        while answers.count(b"HTTP/1.1 200") < 2:
            answers += piped.recv(65536)
        piped.close()
        ws = raw_websocket(server, "/ws/echo")
        time.sleep(1.0)
        assert is_open(ws)
        ws.close()
        metrics = httpx.get(server.http + "/metrics").text
        assert 'uno_refused_total{reason="header_timeout"} 21' in metrics
    assert any("no complete request within 0.5 s" in r.getMessage() for r in caplog.records)


def test_connections_per_address_are_capped_and_a_websocket_keeps_its_place_in_the_count() -> None:
    with live(connections_per_address=50, header_timeout_s=30) as server:
        idle = [tcp(server, "127.0.0.2") for _ in range(300)]
        eventually(lambda: sum(not is_open(s) for s in idle) >= 250, what="the connections over the cap refused")
        refused = [s for s in idle if not is_open(s)]
        assert len(refused) == 250
        assert refused[0].recv(65536).startswith(b"HTTP/1.1 503")
        # Everyone else is served, at once.
        start = time.monotonic()
        assert httpx.get(server.http + "/healthz", timeout=10).status_code == 200
        assert time.monotonic() - start < 5  # not held behind the idle ones (their header timeout: 30 s)
        for s in idle:
            s.close()
        eventually(lambda: gate(server).by_address.get("127.0.0.2") is None, what="the address's count gone")
        # An upgraded connection still counts, until it closes.
        sockets = [raw_websocket(server, "/ws/echo", "127.0.0.3") for _ in range(50)]
        extra = tcp(server, "127.0.0.3")
        assert extra.recv(65536).startswith(b"HTTP/1.1 503")
        sockets.pop().close()
        eventually(lambda: gate(server).by_address["127.0.0.3"] < 50, what="the closed socket uncounted")
        sockets.append(raw_websocket(server, "/ws/echo", "127.0.0.3"))
        for s in (*sockets, extra):
            s.close()
        eventually(lambda: gate(server).by_address.get("127.0.0.3") is None, what="the address's count gone")
        metrics = httpx.get(server.http + "/metrics").text
        assert 'uno_refused_total{reason="connections_per_address"} 251' in metrics


def test_at_the_global_cap_new_connections_displace_the_oldest_waiting_ones() -> None:
    with live(max_connections=100, connections_per_address=10_000, header_timeout_s=30) as server:
        idle = [tcp(server, f"127.0.1.{1 + i % 50}") for i in range(300)]
        eventually(lambda: sum(is_open(s) for s in idle) <= 100, what="the oldest displaced")
        open_now = [s for s in idle if is_open(s)]
        assert len(open_now) <= 100
        assert open_now == idle[-len(open_now):]  # the newest are the ones kept
        assert httpx.get(server.http + "/healthz", timeout=2).status_code == 200
        # Connections that did send their request are not displaced: a WebSocket stays.
        ws = raw_websocket(server, "/ws/echo")
        more = [tcp(server, "127.0.0.9") for _ in range(150)]
        eventually(lambda: gate(server).open <= 100 and sum(is_open(s) for s in more) <= 100,
                   what="the newest displacing the waiting ones")
        assert is_open(ws) and gate(server).open <= 100
        metrics = httpx.get(server.http + "/metrics").text
        for s in (*idle, *more, ws):
            s.close()
    assert 'uno_refused_total{reason="header_evicted"}' in metrics


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(record.getMessage())


def test_game_sockets_are_opened_at_a_bounded_rate_per_address() -> None:
    """A socket closed for flooding cannot simply be replaced, over and over."""
    errors = Errors()
    uvicorn_log = logging.getLogger("uvicorn.error")
    with live(socket_opens_per_minute=5) as server:
        # uvicorn's loggers do not propagate to the root: listen on its own (once it has set it up).
        uvicorn_log.addHandler(errors)
        try:
            code = asyncio.run(create_room(server, "classic", 2))
            for _ in range(5):
                raw_websocket(server, f"/ws/rooms/{code}", "127.0.0.2").close()
            refused = tcp(server, "127.0.0.2")
            refused.sendall(f"GET /ws/rooms/{code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                            "Sec-WebSocket-Version: 13\r\n\r\n".encode())
            answer = refused.recv(65536).lower()
            assert answer.startswith(b"http/1.1 429") and b"retry-after: " in answer, answer
            refused.close()
            raw_websocket(server, f"/ws/rooms/{code}", "127.0.0.3").close()  # another address is not affected
            metrics = httpx.get(server.http + "/metrics").text
            assert 'uno_refused_total{reason="socket_opens"} 1' in metrics
        finally:
            uvicorn_log.removeHandler(errors)
    # The refusal is the app's own answer, not an error of uvicorn's (which logs one for it otherwise).
    assert errors.seen == []


def test_a_trusted_proxy_is_held_to_the_global_cap_only() -> None:
    """Behind a reverse proxy every client comes from its address: a cap per address would be one for all."""
    with live(connections_per_address=10, max_connections=40, header_timeout_s=30,
              trusted_proxies="127.0.0.1,127.0.0.2") as server:  # their X-Forwarded-For is believed
        proxied = [tcp(server, "127.0.0.2") for _ in range(30)]
        direct = [tcp(server, "127.0.0.3") for _ in range(30)]
        eventually(lambda: sum(is_open(s) for s in direct) <= 10, what="the direct ones over the cap refused")
        assert sum(is_open(s) for s in proxied) == 30
        assert sum(is_open(s) for s in direct) == 10
        for s in (*proxied, *direct):
            s.close()
