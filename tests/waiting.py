"""Waiting on conditions, not on the clock: a test that sleeps a fixed time to let something
happen fails on a busy machine, where it happens later.  These poll a condition until it
holds and fail, saying what never happened, only after a deadline far beyond an idle
machine's time (a slow machine waits longer, a fast one no longer than it must)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")

TIMEOUT_S = 30.0  # far beyond what any condition takes on an idle machine (well under a second)


def eventually(predicate: Callable[[], T], timeout: float = TIMEOUT_S, every: float = 0.02,
               what: str = "the condition") -> T:
    """Poll ``predicate`` until it returns something truthy, and return that."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} did not come about within {timeout} s"
        time.sleep(every)


async def until(predicate: Callable[[], Any], timeout: float = TIMEOUT_S, every: float = 0.01,
                what: str = "the condition") -> Any:
    """``eventually`` inside an event loop: the loop runs on between polls.  ``predicate`` may be
    a coroutine function."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if isinstance(value, Awaitable):
            value = await value
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} did not come about within {timeout} s"
        await asyncio.sleep(every)
