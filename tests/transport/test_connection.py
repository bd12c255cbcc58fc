"""A slow or dead client never stalls the room: its bounded queue overflows and it is closed."""

from __future__ import annotations

import asyncio
from typing import Any

from app.transport.connection import CLOSE_TOO_SLOW, Connection


class StuckSocket:
    """A peer that never reads: every send waits forever."""

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
