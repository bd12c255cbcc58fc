"""How the server uses CPython's cyclic garbage collector: never on allocation, and a full pass
on a timer only while it is short.

Nearly everything a room makes is freed by reference counting the moment it is dropped: a
view replaced by the next, a frame once sent.  The cyclic collector, left to itself, still
walks the live containers over and over, stopping the whole process — every room — while
it does.  Measured at 1,000 rooms and 4,000 sockets playing at human pace
(``bench/load.py --rooms 1000 --pace human``):

- full passes walked ~900,000 containers, took 0.3–0.9 s, and ran every ten seconds;
- young passes, though "young", held up to 67,000 containers (old views dying make room
  for new ones in the allocation count) and took up to 60 ms of CPU every second or two;
- all of them together found fewer than 800 objects of cyclic garbage in 2½ minutes.

With the collector switched off and nothing else changed, the p99 from an action to its last
patch went from 40–66 ms to 8 ms.  So the heap loaded at start-up is frozen out of reach and
the automatic collector is disabled.

Milder settings were measured against that and lost (1,000 rooms, 4,000 sockets; the runs
and commands are in docs/OPERATIONS.md):

- automatic collection with raised thresholds (``gc.set_threshold(50_000, 50, 100)``) after
  the freeze: young passes of 130–200 ms (a higher threshold only lets more of the rooms'
  renewed views pile up in the young generation; up to 340 ms in a first run), a median p99
  of 74 ms at human pace against 16 ms, and 394 µs per action at full speed against 378;
- young passes on a timer (every 0.5 s, survivors frozen): pauses up to 63 ms at human pace
  and 121 ms at full speed, 55–86 ms of collection every second, a p99 of 53 ms at human pace
  and 421 µs per action — to walk, every time, views that reference counting frees anyway.

Cyclic garbage has all but gone since (app/transport/uvicorn_adapter.py breaks the one a dropped
socket left): a full collection made after each benchmark run, frozen heap included, found
none.  The full pass that remains, every ``UNO_GC_FULL_SECONDS``, is a safety net for the rare
cycle, and a pause for every room as long as the heap it walks: about 1–1.5 µs a container,
0.7–1.2 s at 4,000 sockets (740,000–850,000 containers).  So it is made only while it is bound
to be short, and otherwise skipped until the next tick.  Counting the containers
(``len(gc.get_objects())``) would itself stop the rooms for 110–140 ms at 4,000 sockets;
``sys.getallocatedblocks()`` instead (well under a millisecond) tells how many memory blocks
objects hold beyond what start-up left — 2.2 to 4.4 for each container — and a pass is made
only while they number at most ``WALK_LIMIT``: a small server, or a big one at a quiet hour.

Skipping forever would leave a cycle that ever appears unfreed for as long as the server is
busy, and memory would grow until the process is killed.  So memory has a ceiling too
(``UNO_GC_CEILING_MIB``): once the resident memory held beyond start-up's passes it, a full
pass is made anyway — a pause of a second beats running out of memory — and the next such
pass waits until memory has grown by another quarter of the ceiling past what this one left
(a server whose live rooms alone fill the ceiling is not stopped at every check).  The check
reads one line of /proc, every ``CHECK_SECONDS`` at most.  A test plays rooms through their
whole life and checks they leave no cyclic garbage (tests/hardening/test_no_cycles.py), and
``bench/soak.py`` samples the memory of 1,000 rooms in play for half an hour (docs/OPERATIONS.md).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import resource
import sys
import time

log = logging.getLogger("app.gc")

# Blocks held beyond start-up's, past which no full pass is made: ~400 blocks a socket in play,
# so about 200 sockets; 45,000 containers at most, a pass of at most ~70 ms at 1.5 µs each.  The
# longest measured: 50 ms (50 rooms at human pace, a pass every 2 s).
WALK_LIMIT = 100_000
_start_blocks = 0  # sys.getallocatedblocks() once start-up's heap is frozen
_start_bytes = 0  # resident memory then
CHECK_SECONDS = 10.0  # how often the memory ceiling is checked, at most (between the timer's ticks)


class Passes:
    """The timed passes so far, for ``/metrics``: the pause each one cost every room."""

    count = 0
    seconds = 0.0
    last_seconds = 0.0
    unreachable = 0
    skipped = 0  # ticks without a pass: the heap may have been too big for a short one
    longest_seconds = 0.0
    forced = 0  # passes made, however long, because memory had passed the ceiling


def resident_bytes() -> int:
    """Current RSS from /proc on Linux; elsewhere the peak, which is what getrusage knows."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak if sys.platform == "darwin" else peak * 1024)


def tune() -> None:
    """Freeze what is loaded so far and stop automatic collection (``full_collections`` runs them)."""
    global _start_blocks, _start_bytes
    gc.collect()
    gc.freeze()
    gc.disable()
    _start_blocks = sys.getallocatedblocks()
    _start_bytes = resident_bytes()


def held_bytes() -> int:
    """Resident memory beyond what start-up left."""
    return max(0, resident_bytes() - _start_bytes)


def walk_bound() -> int:
    """Memory blocks held beyond start-up's: at least as many as the containers a full pass would
    walk now (each is one block or more), unless start-up objects have died since — few do."""
    return max(0, sys.getallocatedblocks() - _start_blocks)


def _collect() -> int:
    started = time.perf_counter()
    found = gc.collect()
    took = time.perf_counter() - started
    Passes.count += 1
    Passes.seconds += took
    Passes.last_seconds = took
    Passes.longest_seconds = max(Passes.longest_seconds, took)
    Passes.unreachable += found
    log.info("garbage collection: %d unreachable objects in %.0f ms", found, took * 1000)
    return found


def full_collection_if_short() -> bool:
    """One full pass, if it is bound to be short (``WALK_LIMIT``); True if it ran."""
    bound = walk_bound()
    if bound > WALK_LIMIT:
        Passes.skipped += 1
        log.info("garbage collection skipped: %d blocks allocated since start-up, over %d", bound, WALK_LIMIT)
        return False
    _collect()
    return True


class Ceiling:
    """Memory held beyond start-up past which a full pass is made however long it takes."""

    def __init__(self, ceiling_bytes: int) -> None:
        self.ceiling = ceiling_bytes
        self.bar = ceiling_bytes  # held bytes that force the next pass

    def collect_if_over(self) -> bool:
        """A full pass if memory is over the bar; True if it ran.  0: no ceiling."""
        if self.ceiling <= 0:
            return False
        held = held_bytes()
        if held <= self.bar:
            return False
        log.warning("memory %d MiB beyond start-up, over %d MiB: a full garbage collection, however long",
                    held >> 20, self.bar >> 20)
        Passes.forced += 1
        _collect()
        # What the pass left is live (or in free lists the next rooms reuse): wait for real growth.
        self.bar = max(self.ceiling, held_bytes() + self.ceiling // 4)
        return True


async def full_collections(every_s: float, ceiling_bytes: int = 0) -> None:
    """A full pass every ``every_s`` while short; the ceiling checked in between."""
    ceiling = Ceiling(ceiling_bytes)
    step = min(every_s, CHECK_SECONDS) if ceiling_bytes > 0 else every_s
    waited = 0.0
    while True:
        await asyncio.sleep(step)
        waited += step
        if ceiling.collect_if_over():
            waited = 0.0
        elif waited >= every_s:
            waited = 0.0
            full_collection_if_short()
