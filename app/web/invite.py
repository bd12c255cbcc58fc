"""Invite links and their QR codes.

An invite link starts with ``UNO_PUBLIC_URL`` when it is set.  Otherwise with the address the
request came to — but only when its ``Host`` is one the server answers to: ``localhost``, an IP
address (what a LAN player opens, e.g. ``http://192.168.1.20:8000``), this machine's own name
(``mybox``, ``mybox.local``, ``mybox.lan``...), or a name listed in ``UNO_ALLOWED_HOSTS``.  Any
other Host (too long, malformed, someone else's name) is never written into a page or an image.

Drawing a QR code is pure Python (segno): about 7 ms of CPU for a link, far more for a long one.
It is done by a worker process of its own (``app/web/qr.py``, started with the server: a thread
would hold the GIL, and the event loop would wait for it), one at a time, at most
``UNO_QR_PER_MINUTE`` times a minute per client address, and each image is kept (per room code
and link, a bounded number).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import re
import socket
import sys
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request

from app.config import Settings
from app.web.qr import qr_svg

__all__ = ["QrCodes", "host_allowed", "invite_base", "qr_svg", "split_host"]

ROOT = Path(__file__).resolve().parents[2]
HOST_MAX = 253 + len(":65535")  # the longest DNS name, and a port
QR_CACHED = 512  # images kept (a few KB each)
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")


def split_host(value: str | None) -> tuple[str, str] | None:
    """``Host`` as (host, ":port" or ""), lower-cased, or None unless it is a well-formed name or
    IP address with an optional port of 1-65535."""
    if not value or len(value) > HOST_MAX:
        return None
    value = value.strip().lower()
    if value.startswith("["):  # an IPv6 literal
        inner, bracket, port = value[1:].partition("]")
        try:
            ipaddress.IPv6Address(inner)
        except ValueError:
            return None
        host = f"[{inner}]"
    else:
        host, colon, port = value.partition(":")
        port = colon + port
        if not (_NAME.fullmatch(host) or _ipv4(host)) or len(host.rstrip(".")) > 253:
            return None
        bracket = "]"
    if bracket != "]":
        return None
    if port:
        digits = port[1:]
        if not (port.startswith(":") and digits.isascii() and digits.isdigit() and len(digits) <= 5
                and 1 <= int(digits) <= 65535):
            return None
    return host, port


def _ipv4(host: str) -> bool:
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=1)
def machine_name() -> str:
    """This machine's own short name (no DNS lookup: ``gethostname`` only)."""
    return socket.gethostname().lower().split(".")[0]


def host_allowed(host: str, patterns: list[str]) -> bool:
    """Whether invite links may start with this (well-formed) host."""
    name = host.rstrip(".")
    if name.startswith("[") or _ipv4(name) or name == "localhost" or name.endswith(".localhost"):
        return True
    own = machine_name()
    if own and (name == own or name.startswith(own + ".")):
        return True
    for pattern in patterns:
        if pattern == "*" or name == pattern or (pattern.startswith("*.") and name.endswith(pattern[1:])):
            return True
    return False


def allowed_host_patterns(settings: Settings) -> list[str]:
    return [p.strip().lower().rstrip(".") for p in settings.allowed_hosts.split(",") if p.strip()]


def invite_base(request: Request) -> str:
    """What invite links start with (no trailing slash), or "" when this request's Host may not
    be used and no ``UNO_PUBLIC_URL`` is set."""
    settings: Settings = request.app.state.settings
    public = str(settings.public_url).strip().rstrip("/")
    if public:
        return public
    parts = split_host(request.headers.get("host"))
    if parts is None or not host_allowed(parts[0], allowed_host_patterns(settings)):
        return ""
    scheme = "https" if request.scope.get("scheme") in ("https", "wss") else "http"  # (request.url would parse Host)
    return f"{scheme}://{parts[0]}{parts[1]}"


class QrCodes:
    """The invite QR codes: drawn off the event loop, one at a time, and kept.  (Limited per
    address by ``AddressRateLimit`` in app/web/address_limits.py, before any routing.)"""

    def __init__(self, kept: int = QR_CACHED) -> None:
        self.kept = kept
        self.images: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.drawing: dict[tuple[str, str], asyncio.Future[bytes]] = {}
        self.worker: asyncio.subprocess.Process | None = None
        self.turn = asyncio.Lock()  # one image at a time
        self.drawn = 0
        self.starting: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the worker now, with the server, so that no request pays for its start."""
        self.starting = asyncio.create_task(self._start(), name="qr-worker")

    async def _start(self) -> None:
        async with self.turn:
            if self.worker is None:
                await self._spawn()

    async def _spawn(self) -> asyncio.subprocess.Process:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
        self.worker = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "app.web.qr", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env=env, cwd=ROOT)
        return self.worker

    async def image(self, code: str, url: str) -> bytes:
        key = (code, url)
        svg = self.images.get(key)
        if svg is not None:
            self.images.move_to_end(key)
            return svg
        pending = self.drawing.get(key)
        if pending is None:  # asked for again while it is drawn: drawn once
            pending = asyncio.ensure_future(self._draw(url))
            self.drawing[key] = pending
            pending.add_done_callback(lambda done: self._drawn(key, done))
        # Shielded: a client that hangs up does not cancel the drawing others wait for.
        return await asyncio.shield(pending)

    async def draw_once(self, url: str) -> bytes:
        """A QR code that is not kept (a one-time code's link: nobody asks for it twice)."""
        return await asyncio.shield(asyncio.ensure_future(self._draw(url)))

    async def _draw(self, url: str) -> bytes:
        async with self.turn:
            for attempt in (1, 2):
                worker = self.worker
                if worker is None or worker.returncode is not None:  # not started yet, or it died
                    worker = await self._spawn()
                assert worker.stdin is not None and worker.stdout is not None
                try:
                    worker.stdin.write(json.dumps(url).encode() + b"\n")
                    await worker.stdin.drain()
                    size = int(await worker.stdout.readline())
                    svg = await worker.stdout.readexactly(size)
                except (ValueError, OSError, asyncio.IncompleteReadError):  # the worker died: a new one
                    self._stop_worker()
                    if attempt == 2:
                        raise
                    continue
                if not svg:
                    raise ValueError(f"no QR code can hold a link of {len(url)} characters")
                return svg
        raise AssertionError("unreachable")

    def _drawn(self, key: tuple[str, str], done: asyncio.Future[bytes]) -> None:
        self.drawing.pop(key, None)
        if done.cancelled() or done.exception() is not None:
            return
        self.drawn += 1
        self.images[key] = done.result()
        while len(self.images) > self.kept:
            self.images.popitem(last=False)

    def _stop_worker(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None and worker.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                worker.kill()

    def close(self) -> None:
        if self.starting is not None:
            self.starting.cancel()
        self._stop_worker()

