"""A slow or dead client never stalls the room: its bounded queue overflows and it is closed."""

from __future__ import annotations

import asyncio
from typing import Any

from app.transport.connection import CLOSE_TOO_SLOW, Connection
from app.transport.uvicorn_adapter import GOING_AWAY


class StuckSocket:
    """A peer that never reads: every send waits forever."""

    scope: dict[str, Any] = {}  # noqa: RUF012 (no server extensions: every frame is queued)

    def __init__(self) -> None:
        self.closed_with: tuple[int, str] | None = None
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)


def test_full_queue_closes_the_socket_without_waiting() -> None:
    async def main() -> None:
        ws = StuckSocket()
        conn = Connection(ws, max_frames=8)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        accepted = [conn.offer(f"frame {i}") for i in range(20)]  # never blocks, whatever the peer does
        assert accepted == [True] * 8 + [False] * 12  # eight queued, then closed
        assert conn.closed and not conn.offer("more")
        await asyncio.sleep(0.01)
        assert ws.closed_with is not None and ws.closed_with[0] == CLOSE_TOO_SLOW
        await conn.aclose()
        assert conn.writer.done()

    asyncio.run(main())


def test_orderly_close_sends_what_was_queued_first() -> None:
    async def main() -> None:
        sent: list[Any] = []

        class Fast:
            scope: dict[str, Any] = {}  # noqa: RUF012

            async def send_text(self, text: str) -> None:
                sent.append(text)

            async def close(self, code: int, reason: str) -> None:
                sent.append(("close", code))

        conn = Connection(Fast(), max_frames=8)  # type: ignore[arg-type]
        for i in range(3):
            conn.offer(str(i))
        conn.close(4000, "replaced")
        await asyncio.wait_for(conn.writer, 1)
        assert sent == ["0", "1", "2", ("close", 4000)]

    asyncio.run(main())


class ServerSocket:
    """A socket under our uvicorn protocol, which leaves the ``GOING_AWAY`` slot in the scope;
    sending waits until ``drained``.  Whatever is written lands in ``wire``."""

    def __init__(self) -> None:
        self.wire: list[str] = []
        self.drained = asyncio.Event()
        self.scope: dict[str, Any] = {"extensions": {GOING_AWAY: None}}

    async def send_text(self, text: str) -> None:
        await self.drained.wait()
        self.wire.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.wire.append(f"close {code}")


def test_a_stopping_server_sends_what_is_queued_then_going_away() -> None:
    """SIGTERM: the protocol calls the GOING_AWAY the connection left in the scope (uvicorn_adapter.py)."""

    async def main() -> None:
        socket = ServerSocket()  # backed up: frames queue
        conn = Connection(socket, max_frames=8)  # type: ignore[arg-type]
        conn.offer("a")
        conn.offer("b")
        socket.scope["extensions"][GOING_AWAY]()  # what the protocol does when the server stops
        assert not conn.offer("late")
        socket.drained.set()
        await asyncio.wait_for(conn.writer, 1)
        assert socket.wire == ["a", "b", "close 1001"]

    asyncio.run(main())
