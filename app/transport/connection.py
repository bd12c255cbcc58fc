"""One client socket: a bounded queue of frames, drained by the socket's own writer task.

The room actor only ever calls ``offer``, which never waits.  A client too slow to keep up
fills its queue and is disconnected (it can reconnect and resume), so the room — and every
other player in it — never waits for the slowest socket.  (Writing frames on the spot, past
the queue, was tried and cost more CPU: see app/transport/uvicorn_adapter.py.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from starlette.websockets import WebSocket

from .memory import trim_soon
from .uvicorn_adapter import CLOSE_GOING_AWAY, GOING_AWAY

log = logging.getLogger("app.transport")

CLOSE_TOO_SLOW = 4008
CLOSE_WAIT_S = 2.0


class Connection:
    def __init__(self, ws: WebSocket, max_frames: int, on_close: Callable[[Connection], None] | None = None,
                 max_chars: int | None = None) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=max_frames)
        # Bounded in size too: a few hundred large frames to a socket that never reads would
        # otherwise hold megabytes each (every seat's frame is its own string).
        self.max_chars = max_chars
        self.queued_chars = 0
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.on_close = on_close
        self._closer: asyncio.Task[None] | None = None
        # A socket cut off for being too slow also stops its reader (the task serving it), which
        # may be waiting for frames: a peer that never reads may never answer a close either.
        self.cut_off = False
        self.reader: asyncio.Task[None] | None = None
        # Our protocol (uvicorn_adapter.py) leaves a slot for how to close this socket when the server stops.
        extensions = ws.scope.get("extensions") or {}
        if GOING_AWAY in extensions:
            extensions[GOING_AWAY] = self.going_away
        self.writer = asyncio.create_task(self._write())

    def offer(self, text: str) -> bool:
        if self.closed:
            return False
        size = len(text)
        if self.max_chars is not None and self.queued_chars and self.queued_chars + size > self.max_chars:
            log.info("closing a socket that fell %d characters behind", self.queued_chars)
            self.close(CLOSE_TOO_SLOW, "too slow: reconnect to resume")
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("closing a socket that fell %d frames behind", self.queue.maxsize)
            self.close(CLOSE_TOO_SLOW, "too slow: reconnect to resume")
            return False
        self.queued_chars += size
        return True

    def going_away(self) -> None:
        """The server is stopping: what is queued goes out, then "going away" (clients reconnect)."""
        self.close(CLOSE_GOING_AWAY, "server restarting")

    def close(self, code: int, reason: str) -> None:
        """Stop sending and close the socket once what is already queued has gone (if it can)."""
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        if code == CLOSE_TOO_SLOW:
            # Its queue is full of frames it cannot take: drop them (and give their memory
            # back), close now.
            self._drop_queue()
            trim_soon()
            self.writer.cancel()
            self._closer = asyncio.create_task(self._close_socket())
            self.cut_off = True
            if self.reader is not None and self.reader is not asyncio.current_task():
                self.reader.cancel()
        else:
            try:
                self.queue.put_nowait(None)
            except asyncio.QueueFull:
                self.writer.cancel()
                self._closer = asyncio.create_task(self._close_socket())

    def _drop_queue(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_chars = 0

    async def _close_socket(self) -> None:
        with contextlib.suppress(Exception):
            # Bounded: a peer whose buffers are full cannot even take the close frame.
            await asyncio.wait_for(self.ws.close(self.close_code, self.close_reason), CLOSE_WAIT_S)
        if self.on_close is not None:
            self.on_close(self)

    async def _write(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    await self._close_socket()
                    return
                self.queued_chars -= len(text)
                await self.ws.send_text(text)
        except asyncio.CancelledError:
            raise
        except Exception:  # the peer went away mid-send: stop writing, the reader will notice
            self.closed = True
            if self.on_close is not None:
                self.on_close(self)

    async def aclose(self) -> None:
        """Called when the reader is done: make sure the writer task ends."""
        self.closed = True
        if not self.writer.done():
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.writer
