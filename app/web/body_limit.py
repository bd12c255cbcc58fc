"""The request body limit, a small pure-ASGI middleware: 413 past ``max_bytes``, in the API's
error shape (app/web/limits.py ``send_error``).
"""
from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.limits import Refused, send_error


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value)
    return None


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, by ``Content-Length`` or by counting.

    A body is read (at most ``max_bytes``) before the app sees it, then handed over whole;
    requests without a body pass straight through.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, on_refuse: Refused | None = None) -> None:
        self.app, self.max_bytes, self.on_refuse = app, max_bytes, on_refuse

    async def refuse(self, send: Send) -> None:
        if self.on_refuse is not None:
            self.on_refuse("body_too_large")
        await send_error(send, 413, "body_too_large",
                         f"Request bodies are limited to {self.max_bytes} bytes.",
                         [(b"connection", b"close")])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        chunked = _header(scope, b"transfer-encoding")
        if length is None and chunked is None:
            await self.app(scope, receive, send)
            return
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                declared = -1
            if declared > self.max_bytes:
                await self.refuse(send)
                return
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self.refuse(send)
                return
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(parts), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
