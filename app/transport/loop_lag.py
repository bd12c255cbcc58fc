"""How late the event loop runs: every room waits for whatever holds the loop, so this is the
latency floor of every action on the server.

A timer is set every ``INTERVAL`` seconds; how late it fires is the loop's *lag*.  A lag has two
causes that call for different cures: the loop's own thread busy with a long piece of work (ours
to move off the loop), or the thread not running at all — another process has the CPU, which on
a shared 2-core box is the usual case.  The CPU time the loop's thread used meanwhile tells them
apart: ``busy`` is the part of each lag it could have spent running (at most that CPU time), so a
large ``lag`` with a small ``busy`` is the machine, not the server.
"""

from __future__ import annotations

import asyncio
import time

from .metrics import Histogram

# Four samples a second: each wakes a server that is idle or lightly loaded (100–150 µs of CPU apiece
# on a shared 2-core box, more under load), and every process pays them, each node of a cluster
# again.  At 20 ms the watch alone was most of an idle process's 10 ms of CPU a second; at 100 ms it
# was still most of a cluster node's wake-ups that no client or database asked for.  A stall longer
# than the interval is always seen, near its full length; a shorter one is seen in proportion to its
# length, so the histogram's shares (what fraction of the time the loop runs late, and by how much)
# do not depend on the interval: only how many samples back them, and how surely ``longest`` sees a
# short stall.
INTERVAL = 0.25
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class LoopLag:
    def __init__(self) -> None:
        self.lag = Histogram(LAG_BUCKETS)
        self.busy = Histogram(LAG_BUCKETS)
        self.longest = 0.0
        self.longest_busy = 0.0

    def record(self, lag: float, cpu: float) -> None:
        """One tick: ``lag`` past its deadline, ``cpu`` seconds of the loop thread's time since the last."""
        busy = min(lag, cpu)
        self.lag.observe(lag)
        self.busy.observe(busy)
        self.longest = max(self.longest, lag)
        self.longest_busy = max(self.longest_busy, busy)

    async def watch(self) -> None:
        """Runs for the server's life (cancelled at shutdown)."""
        while True:
            due = time.perf_counter() + INTERVAL
            cpu_before = time.thread_time()
            await asyncio.sleep(INTERVAL)
            self.record(max(0.0, time.perf_counter() - due), time.thread_time() - cpu_before)
