"""How much of the event loop finished matches' downloads may take: a budget for the process.

A match's export or replay is megabytes (a long 10-seat match: 2.9 MB exported, 7.5 MB replayed,
a third of that gzipped).  Sent whole, each one is handed to the socket at once and the loop
spends its turns writing it out as the client reads; forty clients asking again and again kept
the loop writing and an honest room's p99 went from ~18 ms to 120-290 ms.  So, per process:

- at most ``UNO_MATCH_DOWNLOADS_AT_ONCE`` documents are being sent at a time; one more is
  refused at once (``429 match_downloads_busy`` with ``Retry-After``), not queued: a queue
  would hold its connections and memory and answer late anyway;
- all of them together send at most ``UNO_MATCH_DOWNLOAD_BYTES_PER_SECOND``, a piece at a time,
  each piece waiting its turn on one clock shared by every download, so that the loop's time
  on downloads is bounded whatever their number and the rooms' turns come between the pieces.

A ``304`` (the client has the document) sends no body and costs nothing here.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterator, Mapping

from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from app.config import Settings

PIECE = 65_536  # at most this many bytes sent at a time
PIECES_PER_SECOND = 50  # ... and smaller under a low byte rate, so that no piece waits long for the clock
RETRY_MAX = 60  # seconds: the longest Retry-After given


class Slot:
    """One download being sent: its bytes still to send (for ``Retry-After``), freed once."""

    def __init__(self, budget: DownloadBudget, size: int) -> None:
        self.budget, self.left, self.freed = budget, size, False

    def free(self) -> None:
        if not self.freed:
            self.freed = True
            self.budget.sending.discard(self)


class DownloadBudget:
    def __init__(self, at_once: int, bytes_per_second: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.at_once, self.rate, self.clock = max(1, at_once), max(1, bytes_per_second), clock
        self.piece = max(1024, min(PIECE, self.rate // PIECES_PER_SECOND))
        self.sending: set[Slot] = set()
        self.free_at = 0.0  # when the bytes given a turn so far will all have been sent, at the rate
        self.refused = 0  # downloads refused for want of a slot (tests)

    @classmethod
    def of(cls, settings: Settings) -> DownloadBudget:
        return cls(settings.match_downloads_at_once, settings.match_download_bytes_per_second)

    def take(self, size: int) -> Slot | None:
        """A slot for a document of ``size`` bytes as sent, or None when every slot is taken."""
        if len(self.sending) >= self.at_once:
            self.refused += 1
            return None
        slot = Slot(self, size)
        self.sending.add(slot)
        return slot

    def retry_after(self) -> int:
        """Seconds until a slot is likely free: the download nearest its end, at its share of the rate."""
        left = min((s.left for s in self.sending), default=0)
        return max(1, min(RETRY_MAX, math.ceil(left * len(self.sending) / self.rate)))

    async def turn(self, size: int) -> None:
        """Wait until ``size`` more bytes may be sent: every download's pieces in the order asked,
        each after the ones before it have had their time at the rate."""
        now = self.clock()
        start = max(now, self.free_at)
        self.free_at = start + size / self.rate
        if start > now:
            await asyncio.sleep(start - now)

    def pieces(self, body: bytes) -> Iterator[bytes]:
        for at in range(0, len(body), self.piece):
            yield body[at:at + self.piece]

    async def paced(self, slot: Slot, pieces: Iterator[bytes] | AsyncIterable[bytes]) -> AsyncIterator[bytes]:
        if isinstance(pieces, Iterator):
            for piece in pieces:
                await self.turn(len(piece))
                slot.left -= len(piece)
                yield piece
        else:
            async for piece in pieces:
                await self.turn(len(piece))
                slot.left -= len(piece)
                yield piece


class PacedDownload(StreamingResponse):
    """A match document sent at the budget's pace; its slot is freed when the response ends,
    however it ends: sent, the client gone mid-way (Starlette stops the stream), or an error."""

    def __init__(self, budget: DownloadBudget, slot: Slot, pieces: Iterator[bytes] | AsyncIterable[bytes],
                 size: int, headers: Mapping[str, str]) -> None:
        super().__init__(budget.paced(slot, pieces), media_type="application/json",
                         headers={**headers, "Content-Length": str(size)})
        self.slot = slot

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.slot.free()
