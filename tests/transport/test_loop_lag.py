"""The loop-lag watch (app/transport/loop_lag.py) tells the server's own long work from a CPU it
was not given: a loop held by CPU-bound work shows as busy lag, a thread that sleeps does not."""

from __future__ import annotations

import asyncio
import re
import time

import httpx

from app.config import Settings
from app.transport.loop_lag import INTERVAL, LoopLag
from tests.live import LiveServer


async def _watched(hold: object) -> LoopLag:
    lag = LoopLag()
    watch = asyncio.create_task(lag.watch())
    # The hold runs on the loop after the watch's first step, queued before it (ready callbacks
    # run in order): the watch's first timer is then set, due INTERVAL from its start.
    assert callable(hold)
    asyncio.get_running_loop().call_soon(hold)
    while lag.lag.count < 3:  # the held tick and a few after it have been recorded
        await asyncio.sleep(INTERVAL / 4)
    watch.cancel()
    return lag


def _spin(cpu_seconds: float) -> None:
    """Busy for that much of this thread's CPU time, however long a loaded machine makes it take."""
    start = time.thread_time()
    while time.thread_time() - start < cpu_seconds:
        pass


# Each hold outlasts the timer's deadline by at least 80 ms however the hold and the timer fall,
# whatever the interval: every stall longer than the interval is seen.
def test_work_that_holds_the_loop_is_busy_lag() -> None:
    lag = asyncio.run(_watched(lambda: _spin(INTERVAL + 0.08)))
    assert lag.longest >= 0.06
    assert lag.longest_busy >= 0.06  # the thread ran for the whole hold


def test_a_thread_kept_off_the_cpu_is_lag_but_not_busy() -> None:
    # The sleep stands for a CPU the process was not given.
    lag = asyncio.run(_watched(lambda: time.sleep(INTERVAL + 0.15)))
    assert lag.longest >= 0.12
    assert lag.longest_busy < 0.06  # at most one interval's own work, and a loaded machine's slack


def test_a_running_server_reports_its_loop_lag_in_metrics() -> None:
    live = LiveServer(Settings(_env_file=None)).start()  # type: ignore[call-arg]

    def count(text: str, name: str) -> int:
        found = re.search(rf"^{name}_count (\d+)$", text, re.M)
        assert found, f"{name} missing from /metrics"
        return int(found.group(1))

    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            first = (await http.get("/metrics")).text
            deadline = time.monotonic() + 30
            while True:  # the watch ticks on its own: its counts grow while the server idles
                later = (await http.get("/metrics")).text
                if count(later, "uno_loop_lag_seconds") > count(first, "uno_loop_lag_seconds") + 2:
                    break
                assert time.monotonic() < deadline, "the loop-lag watch is not running"
                await asyncio.sleep(0.05)
            assert count(later, "uno_loop_busy_lag_seconds") == count(later, "uno_loop_lag_seconds")
            assert "uno_loop_longest_busy_lag_seconds " in later

    try:
        asyncio.run(main())
    finally:
        live.stop()
