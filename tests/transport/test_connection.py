"""A slow or dead client never stalls the room: its bounded queue overflows and it is closed."""

from __future__ import annotations

import asyncio
from typing import Any

from app.transport.connection import CLOSE_TOO_SLOW, Connection
from app.transport.uvicorn_ws import GOING_AWAY, SEND_NOW


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
    """A socket under our uvicorn protocol: ``send_now`` writes on the spot unless ``full``; the
    ASGI way waits until ``drained``.  Whatever is written lands in ``wire``."""

    def __init__(self) -> None:
        self.wire: list[str] = []
        self.full = False
        self.drained = asyncio.Event()
        self.scope: dict[str, Any] = {"extensions": {SEND_NOW: self.send_now}}

    def send_now(self, text: str) -> bool:
        if self.full:
            return False
        self.wire.append(text)
        return True

    async def send_text(self, text: str) -> None:
        await self.drained.wait()
        self.wire.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.wire.append(f"close {code}")


def test_frames_written_on_the_spot_keep_their_order_when_the_socket_backs_up() -> None:
    """With the server's shortcut (uvicorn_ws.SEND_NOW) frames are written at once; while the
    socket cannot take more, they queue, and nothing overtakes what is queued."""

    async def main() -> None:
        socket = ServerSocket()
        wire = socket.wire
        conn = Connection(socket, max_frames=8)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        conn.offer("0")
        assert wire == ["0"]  # written before offer returned: no task switch
        socket.full = True
        conn.offer("1")  # refused on the spot: queued for the writer
        socket.full = False
        conn.offer("2")  # the socket could take it now, but "1" is ahead of it
        await asyncio.sleep(0.01)
        assert wire == ["0"]
        socket.drained.set()
        await asyncio.sleep(0.01)
        assert wire == ["0", "1", "2"]
        conn.offer("3")  # the queue is empty again: on the spot
        assert wire == ["0", "1", "2", "3"]
        conn.close(1000, "bye")
        await asyncio.wait_for(conn.writer, 1)
        assert wire[-1] == "close 1000"

    asyncio.run(main())


def test_a_stopping_server_sends_what_is_queued_then_going_away() -> None:
    """SIGTERM: the protocol calls the GOING_AWAY the connection left in the scope (uvicorn_ws)."""

    async def main() -> None:
        socket = ServerSocket()
        socket.full = True  # backed up: frames queue
        conn = Connection(socket, max_frames=8)  # type: ignore[arg-type]
        conn.offer("a")
        conn.offer("b")
        socket.scope["extensions"][GOING_AWAY]()  # what the protocol does when the server stops
        assert not conn.offer("late")
        socket.drained.set()
        await asyncio.wait_for(conn.writer, 1)
        assert socket.wire == ["a", "b", "close 1001"]

    asyncio.run(main())
