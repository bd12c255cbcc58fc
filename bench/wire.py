"""A lean WebSocket client for the load benchmark: websockets' sans-I/O protocol on an asyncio Protocol.

Thousands of bots in a few processes must cost the machine as little as possible, or the
benchmark measures its own clients: here a received frame is one callback (no task, no
future, no queue per message) and a send is one ``transport.write``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri


class WireClient(asyncio.Protocol):
    def __init__(self, url: str, on_text: Callable[[str], None], headers: dict[str, str] | None = None) -> None:
        self.proto = ClientProtocol(parse_uri(url), max_size=2**22)
        self.on_text = on_text
        self.headers = headers or {}  # added to the handshake (a browser's cookie, say)
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @classmethod
    async def connect(cls, url: str, on_text: Callable[[str], None], timeout: float = 60,
                      headers: dict[str, str] | None = None) -> WireClient:
        uri = parse_uri(url)
        client = cls(url, on_text, headers)
        await asyncio.get_running_loop().create_connection(lambda: client, uri.host, uri.port)
        await asyncio.wait_for(client.opened, timeout)
        return client

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        request = self.proto.connect()
        for name, value in self.headers.items():
            request.headers[name] = value
        self.proto.send_request(request)
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.proto.receive_data(data)
        for event in self.proto.events_received():
            if isinstance(event, Response):
                if self.proto.handshake_exc is not None:
                    self.opened.set_exception(self.proto.handshake_exc)
                else:
                    self.opened.set_result(None)
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                assert event.fin, "the server sends whole frames"
                self.on_text(bytes(event.data).decode())
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    def send(self, text: str) -> None:
        # Closed by the server (or being closed) a frame of ours can only be dropped, as a browser would.
        if self.transport is None or self.transport.is_closing() or self.proto.state is not State.OPEN:
            return
        self.proto.send_text(text.encode())
        self._flush()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.proto.send_close(1000)
            self._flush()
            self.transport.close()

    def _flush(self) -> None:
        assert self.transport is not None
        for data in self.proto.data_to_send():
            if data:
                self.transport.write(data)
            else:  # the protocol wants the TCP connection half-closed
                self.transport.close()


def close_code_in(data: bytes) -> int | None:
    """The code of the close frame among a server's raw (unmasked) frames, if there is one: for
    raw-socket attackers and tests that must not read the way a real client does."""
    i, code = 0, None
    while i + 2 <= len(data):
        opcode, n = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if n == 126:
            n = int.from_bytes(data[i:i + 2], "big")
            i += 2
        elif n == 127:
            n = int.from_bytes(data[i:i + 8], "big")
            i += 8
        if opcode == 0x8 and n >= 2:
            code = int.from_bytes(data[i:i + 2], "big")
        i += n
    return code
