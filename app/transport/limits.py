"""Limits checked by the WebSocket reader: the handshake's ``Origin``, frame size, each seat's message rate
(a ``SlidingWindow`` of app/rates.py, the limiter the HTTP side uses too).

The HTTP-side limits (body size, per-address room creation and joins) are in ``app/web/body_limit.py``
and ``app/web/address_limits.py``, on the windows of ``app/web/limits.py``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from app.rates import SlidingWindow, Windows

__all__ = ["CLOSE_POLICY", "CLOSE_TOO_BIG", "SeatRates", "SlidingWindow", "frame_bytes", "origin_allowed"]

CLOSE_POLICY = 1008  # RFC 6455: policy violation (the socket sent messages too fast)
CLOSE_TOO_BIG = 1009  # RFC 6455: message too big

# uvicorn's own frame cap is ``UNO_WS_MAX_SIZE`` (app/server.py): frames above it are refused by the
# protocol layer before they are read.  Frames between ``UNO_MESSAGE_MAX_BYTES`` and it, by the reader.


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """Cross-site WebSocket hijacking guard for the handshake.

    Allowed: no ``Origin`` (not a browser), the server's own origin (its host and port are the
    request's ``Host``), or one of ``ALLOWED_ORIGINS`` (``*`` allows every origin).
    """
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    allowed_lower = {o.lower() for o in allowed}
    if "*" in allowed_lower or origin in allowed_lower:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == (host or "").strip().lower()


def frame_bytes(text: str) -> int:
    """The UTF-8 size of a received text frame (cheap when it is plainly ASCII-sized)."""
    return len(text.encode("utf-8", "surrogatepass"))


class SeatRates:
    """The message-rate window of each seat, kept across its sockets.

    A window per socket would let a seat reset its rate by reconnecting with the same token;
    keyed by the seat's token hash, a reconnect finds the window it left.  Spectators (no
    token) get a window per socket.  Bounded: the least recently used windows are dropped.
    """

    def __init__(self, limit: int, window: float, kept: int = 100_000) -> None:
        self.limit, self.window = limit, window
        self.seats = Windows(limit, window, kept)

    def for_seat(self, token_hash: str | None) -> SlidingWindow:
        if token_hash is None:
            return SlidingWindow(self.limit, self.window)
        return self.seats.of(token_hash)
