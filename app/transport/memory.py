"""Giving memory back to the system after slow sockets were cut off.

A socket that stops reading holds every frame queued for it until it is cut off (4008).
Those are large strings, which CPython takes from the C allocator; freed in the middle of a
heap that other objects still use, glibc keeps the pages, so the process stays as big as it
was at its worst.  ``malloc_trim(0)`` hands the free pages back.  It walks the heap, so it
runs at most once per ``TRIM_EVERY_S``, and only after something was cut off.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging

log = logging.getLogger("app.transport")

TRIM_EVERY_S = 5.0

_libc: ctypes.CDLL | None
try:  # glibc only: elsewhere there is nothing to call, and nothing happens
    _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    _libc.malloc_trim.argtypes = [ctypes.c_size_t]
    _libc.malloc_trim.restype = ctypes.c_int
except (OSError, AttributeError):
    _libc = None

_pending: asyncio.TimerHandle | None = None


def trim() -> bool:
    """Return free heap pages to the system now; False where the C library cannot."""
    if _libc is None:
        return False
    _libc.malloc_trim(0)
    return True


def trim_soon() -> None:
    """Trim once the frames just dropped are freed (the task holding them ends first)."""
    global _pending
    if _pending is not None or _libc is None:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return

    def run() -> None:
        global _pending
        _pending = None
        trim()

    _pending = loop.call_later(TRIM_EVERY_S, run)
