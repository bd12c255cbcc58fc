"""The parts of uvicorn and websockets that the adapters (app/transport/uvicorn_adapter.py,
websockets_adapter.py, accept.py) lean on, checked on a
real server: uvicorn with our protocol class on loopback, a real WebSocket, and the live
protocol object behind it.

``WebSocketProtocol`` subclasses uvicorn's sans-I/O WebSocket protocol and reads and writes its
private state (and that of the ``websockets.server.ServerProtocol`` it holds).  None of that is
a public API: pyproject.toml pins the uvicorn and websockets series it was checked against.
When either is upgraded, this test names every attribute that changed, and the versions.
"""

from __future__ import annotations

import asyncio
import inspect
import time
import types
from collections.abc import Callable
from typing import Any

import h11
import httpx
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Response
from websockets.server import ServerProtocol
from websockets.version import version as websockets_version

from app.transport.accept import Listener
from app.transport.uvicorn_adapter import CONTROL_FRAME, GOING_AWAY, HttpProtocol, WebSocketProtocol
from tests.live import Client, LiveServer, create_room, seat_players

VERSIONS = f"uvicorn {uvicorn.__version__}, websockets {websockets_version}"


def is_callable(value: Any) -> bool:
    return callable(value)


# (attribute, what it must be, how to tell): read on the live protocol once its socket is open.
PROTOCOL_ATTRIBUTES: list[tuple[str, str, Callable[[Any], bool]]] = [
    ("conn", "a websockets ServerProtocol", lambda v: isinstance(v, ServerProtocol)),
    ("response", "the handshake's websockets Response", lambda v: isinstance(v, Response)
     and isinstance(v.status_code, int)),
    ("scope", "the ASGI scope, a dict with an 'extensions' dict", lambda v: isinstance(v, dict)
     and isinstance(v.get("extensions"), dict)),
    ("handshake_complete", "a bool", lambda v: isinstance(v, bool)),
    ("close_sent", "a bool", lambda v: isinstance(v, bool)),
    ("queue", "an asyncio.Queue", lambda v: isinstance(v, asyncio.Queue)),
    ("transport", "an asyncio transport (write, close, is_closing)",
     lambda v: all(callable(getattr(v, m, None)) for m in ("write", "close", "is_closing"))),
    ("loop", "an asyncio event loop", lambda v: isinstance(v, asyncio.AbstractEventLoop)),
    ("stop_keepalive", "a method", is_callable),
    ("client", "the peer's (host, port)", lambda v: isinstance(v, tuple) and isinstance(v[0], str)),
    ("pending_ping_payload", "None or the payload of the keepalive ping in flight",
     lambda v: v is None or isinstance(v, bytes)),
    ("read_paused", "a bool (uvicorn's own pause: a message the app has not taken)", lambda v: isinstance(v, bool)),
    ("disconnected", "a bool", lambda v: isinstance(v, bool)),
    ("close_timeout", "a number (seconds before uvicorn drops a socket it closed)",
     lambda v: isinstance(v, int | float)),
    ("initial_response", "None unless the app answered the handshake with an HTTP response",
     lambda v: v is None),
]

# websockets' ServerProtocol, as uvicorn holds it (``protocol.conn``).
CONN_ATTRIBUTES: list[tuple[str, str, Callable[[Any], bool]]] = [
    ("parser", "a generator (the suspended frame parser)", lambda v: isinstance(v, types.GeneratorType)),
    ("parser_exc", "None while the stream is sound", lambda v: v is None),
    ("send_close", "a method", is_callable),
    ("data_to_send", "a method", is_callable),
    ("receive_eof", "a method", is_callable),
]

# uvicorn's methods that WebSocketProtocol overrides and calls with super(): (name, parameters).
OVERRIDDEN = [("__init__", ["self", "config", "server_state", "app_state", "_loop"]),
              ("handle_connect", ["self", "event"]), ("shutdown", ["self"]),
              ("connection_lost", ["self", "exc"]), ("data_received", ["self", "data"]),
              ("handle_ping", ["self"]), ("handle_pong", ["self", "event"]), ("pause_writing", ["self"]),
              ("resume_writing", ["self"]), ("receive", ["self"]), ("send", ["self", "message"]),
              ("keepalive_timeout", ["self"])]

# The same for the HTTP protocol (app/transport/uvicorn_adapter.py) and uvicorn's h11 one.
H11_OVERRIDDEN = [("__init__", ["self", "config", "server_state", "app_state", "_loop"]),
                  ("connection_made", ["self", "transport"]), ("connection_lost", ["self", "exc"]),
                  ("handle_events", ["self"]), ("on_response_complete", ["self"]),
                  ("handle_websocket_upgrade", ["self", "event"])]
H11_ATTRIBUTES: list[tuple[str, str, Callable[[Any], bool]]] = [
    ("conn", "an h11.Connection", lambda v: isinstance(v, h11.Connection)),
    ("transport", "an asyncio transport (write, close, abort, is_closing, get_protocol)",
     lambda v: all(callable(getattr(v, m, None)) for m in ("write", "close", "abort", "is_closing", "get_protocol"))),
    ("client", "the peer's (host, port)", lambda v: isinstance(v, tuple) and isinstance(v[0], str)),
    ("loop", "an asyncio event loop", lambda v: isinstance(v, asyncio.AbstractEventLoop)),
]


def check(owner: str, obj: object, expected: list[tuple[str, str, Callable[[Any], bool]]]) -> list[str]:
    problems = []
    for name, what, ok in expected:
        if not hasattr(obj, name):
            problems.append(f"{owner}.{name} is gone (expected {what})")
        elif not ok(getattr(obj, name)):
            problems.append(f"{owner}.{name} is now {getattr(obj, name)!r} (expected {what})")
    return problems


def report(problems: list[str]) -> str:
    return (f"{VERSIONS}: app/transport/uvicorn_adapter.py relies on private parts that changed:\n  - "
            + "\n  - ".join(problems)
            + "\nAdapt uvicorn_adapter.py (or drop what relies on them) before moving the pins in pyproject.toml.")


def test_the_methods_we_override_are_still_there() -> None:
    problems = []
    for owner, overridden in ((WebSocketsSansIOProtocol, OVERRIDDEN), (H11Protocol, H11_OVERRIDDEN)):
        for name, params in overridden:
            method = getattr(owner, name, None)
            if method is None or not callable(method):
                problems.append(f"{owner.__name__}.{name} is gone (we override it and call super())")
            elif list(inspect.signature(method).parameters) != params:
                problems.append(f"{owner.__name__}.{name}{inspect.signature(method)} no longer takes {params}")
    # The public settings app/server.py gives uvicorn (a rename would fail at start, but say which).
    config = uvicorn.Config(app=None)  # type: ignore[arg-type]
    problems += [f"uvicorn.Config.{name} is gone" for name in ("proxy_headers", "forwarded_allow_ips", "http", "ws",
                                                               "loop", "ws_max_size", "ws_per_message_deflate")
                 if not hasattr(config, name)]
    # h11's states that tell a request still arriving from one that is in.
    problems += [f"h11.{state} is gone" for state in ("IDLE", "SEND_BODY", "DONE") if not hasattr(h11, state)]
    assert not problems, report(problems)


def server_side(server: LiveServer, client: Client) -> WebSocketProtocol:
    """The live protocol object serving this client's socket (found by the client's own port)."""
    assert client.ws is not None
    port = client.ws.local_address[1]
    found = [p for p in server.server.server_state.connections
             if isinstance(p, WebSocketProtocol) and p.client is not None and p.client[1] == port]
    assert len(found) == 1, (f"{VERSIONS}: no WebSocketProtocol among uvicorn's server_state.connections "
                             "for this socket: is app/server.py's ws= still honoured?")
    return found[0]


def test_the_private_state_we_touch_is_there_on_a_live_socket(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 2, target=None)
        players = await seat_players(server, code, 2)  # each has its snapshot
        try:
            proto = server_side(server, players[0])
            problems = check("WebSocketsSansIOProtocol", proto, PROTOCOL_ATTRIBUTES)
            problems += check("ServerProtocol", proto.conn, CONN_ATTRIBUTES)
            if not problems:
                # Our handle_connect ran (uvicorn still hands the handshake to it) and left the slot,
                # which the app's Connection filled in.
                going_away = proto.scope["extensions"].get(GOING_AWAY)
                if not callable(going_away):
                    problems.append(f"WebSocketsSansIOProtocol.handle_connect: the scope's {GOING_AWAY!r} is "
                                    f"{going_away!r}, not the app's close function: is our override still called?")
                if proto.handshake_complete is not True or proto.close_sent is not False:
                    problems.append("WebSocketsSansIOProtocol.handshake_complete / close_sent: not True / False "
                                    "on an open socket")
            # The app gave the protocol its seat's rate for control frames, and the upgraded
            # connection is still counted by the gate (the HTTP protocol handed its place over).
            if not problems:
                allow = proto.scope["extensions"].get(CONTROL_FRAME)
                if not callable(allow):
                    problems.append(f"the scope's {CONTROL_FRAME!r} is {allow!r}, not the seat's rate")
                if proto.counted != "127.0.0.1":
                    problems.append("WebSocketsSansIOProtocol: the upgraded connection is not counted "
                                    f"(counted={proto.counted!r}): is HttpProtocol.handle_websocket_upgrade called?")
                # A ping from the client reaches our handle_ping (and is counted).
                before = server.app.state.metrics.messages["control_ping"]
                assert players[0].ws is not None
                await (await players[0].ws.ping())
                if server.app.state.metrics.messages["control_ping"] != before + 1:
                    problems.append("WebSocketsSansIOProtocol.handle_ping: a client's ping was not seen")
            assert not problems, report(problems)
            reply = await players[0].request({"type": "ping"})
            assert reply["type"] == "pong", reply
        finally:
            for p in players:
                await p.close()
        # A lost connection: our connection_lost ended the parser and broke the scope's cycle.
        deadline = time.monotonic() + 10
        while GOING_AWAY in proto.scope["extensions"] and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # the close reaches the server
        problems = []
        if GOING_AWAY in proto.scope["extensions"]:
            problems.append(f"WebSocketProtocol.connection_lost did not run: {GOING_AWAY!r} is still in the scope")
        if inspect.getgeneratorstate(proto.conn.parser) != inspect.GEN_CLOSED:
            problems.append("ServerProtocol.parser is still suspended after the connection was lost")
        assert not problems, report(problems)

    asyncio.run(main())


def test_the_http_protocol_s_private_state_is_there_on_a_live_connection(server: LiveServer) -> None:
    """A request on a kept-alive connection: HttpProtocol serves it, and uvicorn's state is as expected."""
    with httpx.Client(base_url=server.http) as http:
        assert http.get("/healthz").status_code == 200
        found = [p for p in server.server.server_state.connections if isinstance(p, HttpProtocol)]
        assert found, (f"{VERSIONS}: no HttpProtocol among uvicorn's connections: is "
                       "app/server.py's http= still honoured?")
        proto = found[0]
        problems = check("H11Protocol", proto, H11_ATTRIBUTES)
        if not problems and proto.conn.their_state is not h11.IDLE:
            problems.append(f"H11Protocol.conn.their_state is {proto.conn.their_state} between requests, not IDLE")
        if not problems and proto.request_timer is None:
            problems.append("HttpProtocol: no timer for the next request after a response "
                            "(is H11Protocol.on_response_complete still called?)")
        assert not problems, report(problems)


def test_uvicorn_listens_through_the_loop_and_closes_what_it_got() -> None:
    """app/transport/accept.py: uvicorn makes its server with ``loop.create_server`` (the host and
    port, or a socket, a backlog, and ssl: nothing else), holds it in ``Server.servers``, and on
    shutdown calls only its ``close`` and ``wait_closed``."""
    problems = []
    startup, shutdown = inspect.getsource(uvicorn.Server.startup), inspect.getsource(uvicorn.Server.shutdown)
    if "loop.create_server(" not in startup or "self.servers" not in startup:
        problems.append("uvicorn.Server.startup no longer makes self.servers with loop.create_server")
    if "server.close()" not in shutdown or "server.wait_closed()" not in inspect.getsource(uvicorn.Server):
        problems.append("uvicorn.Server.shutdown no longer closes its servers with close() and wait_closed()")
    live = LiveServer().start()
    try:
        listener = live.server.servers[0]
        if not isinstance(listener, Listener):
            problems.append(f"uvicorn's server is {listener!r}, not app.transport.accept.Listener: "
                            "is --loop app.transport.accept:Loop still honoured?")
        assert httpx.get(f"{live.http}/healthz", timeout=5).status_code == 200
    finally:
        live.stop()
    if isinstance(listener, Listener) and (listener.is_serving() or any(s.fileno() != -1 for s in listener.sockets)):
        problems.append("uvicorn's shutdown left the listening sockets open")
    assert not problems, f"{VERSIONS}: app/transport/accept.py relies on uvicorn parts that changed:\n  - " + \
        "\n  - ".join(problems)


def test_uvicorn_s_tick_is_what_app_server_s_server_stretches() -> None:
    """app/server.py's ``Server`` replaces ``main_loop``: uvicorn's ticks every 100 ms and refreshes
    its ``Date`` header on every tenth; ``handle_exit`` (its signal handler) sets ``should_exit``."""
    problems = []
    main_loop, on_tick = inspect.getsource(uvicorn.Server.main_loop), inspect.getsource(uvicorn.Server.on_tick)
    if "asyncio.sleep(0.1)" not in main_loop or "self.on_tick(counter)" not in main_loop:
        problems.append("uvicorn.Server.main_loop no longer ticks on_tick(counter) every 0.1 s")
    if "counter % 10 == 0" not in on_tick or "self.should_exit" not in on_tick:
        problems.append("uvicorn.Server.on_tick no longer does its once-a-second work at counter % 10 == 0")
    if "self.should_exit = True" not in inspect.getsource(uvicorn.Server.handle_exit):
        problems.append("uvicorn.Server.handle_exit no longer sets should_exit")
    assert not problems, f"{VERSIONS}: app/server.py relies on uvicorn parts that changed:\n  - " + \
        "\n  - ".join(problems)
