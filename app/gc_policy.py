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
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time

log = logging.getLogger("app.gc")

# Blocks held beyond start-up's, past which no full pass is made: ~400 blocks a socket in play,
# so about 200 sockets; 45,000 containers at most, a pass of at most ~70 ms at 1.5 µs each.  The
# longest measured: 50 ms (50 rooms at human pace, a pass every 2 s).
WALK_LIMIT = 100_000
_start_blocks = 0  # sys.getallocatedblocks() once start-up's heap is frozen


class Passes:
    """The timed passes so far, for ``/metrics``: the pause each one cost every room."""

    count = 0
    seconds = 0.0
    last_seconds = 0.0
    unreachable = 0
    skipped = 0  # ticks without a pass: the heap may have been too big for a short one
    longest_seconds = 0.0


def tune() -> None:
    """Freeze what is loaded so far and stop automatic collection (``full_collections`` runs them)."""
    global _start_blocks
    gc.collect()
    gc.freeze()
    gc.disable()
    _start_blocks = sys.getallocatedblocks()


def walk_bound() -> int:
    """Memory blocks held beyond start-up's: at least as many as the containers a full pass would
    walk now (each is one block or more), unless start-up objects have died since — few do."""
    return max(0, sys.getallocatedblocks() - _start_blocks)


def full_collection_if_short() -> bool:
    """One full pass, if it is bound to be short (``WALK_LIMIT``); True if it ran."""
    bound = walk_bound()
    if bound > WALK_LIMIT:
        Passes.skipped += 1
        log.info("garbage collection skipped: %d blocks allocated since start-up, over %d", bound, WALK_LIMIT)
        return False
    started = time.perf_counter()
    found = gc.collect()
    took = time.perf_counter() - started
    Passes.count += 1
    Passes.seconds += took
    Passes.last_seconds = took
    Passes.longest_seconds = max(Passes.longest_seconds, took)
    Passes.unreachable += found
    log.info("garbage collection: %d unreachable objects in %.0f ms", found, took * 1000)
    return True


async def full_collections(every_s: float) -> None:
    while True:
        await asyncio.sleep(every_s)
        full_collection_if_short()
