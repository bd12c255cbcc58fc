"""Run the server with every garbage collection timed: ``python -m bench.gc_trace OUT serve-args...``.

``bench/load.py`` starts the server through this.  Each collection's start and end are taken
from ``gc.callbacks`` (the pause every room takes then), whatever policy app/gc_policy.py runs.
``SIGUSR1`` makes a probe, which the benchmark sends once its measured window is over, with
every socket still open:

- ``walk_bound``: app/gc_policy.py's bound on the containers a full pass would walk;
  ``containers``: how many it will walk (those outside the frozen start-up heap), and
  ``count_ms``, how long counting them took;
- ``full_pass``: one ``gc.collect()`` (what the frozen start-up heap leaves it to walk), timed,
  and the unreachable objects it found, the commonest kinds of them in ``garbage_kinds``, and
  the SQL clauses among them in ``garbage_sql`` (a statement that leaves a cycle names itself);
- ``frozen_garbage``: then the frozen heap is thawed and collected too: the cyclic garbage a
  policy that never walks it would have kept.

``SIGUSR2`` takes a census, to tell memory still referenced from memory the allocator keeps:
the wall-clock time; ``blocks``, the objects' memory blocks CPython's allocator has handed out
(``sys.getallocatedblocks``: every small object, tracked by the collector or not); ``malloc``,
glibc's own account of its heap (``mallinfo2``: in use, free but kept, mmapped); and the
tracked objects by type (``gc.get_objects``, about a second at a million objects).

At exit ``{"pauses": [[wall-clock time, generation, seconds], ...], "probe": {...}, "census":
[...]}`` is written to OUT as JSON.
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import functools
import gc
import json
import signal
import sys
import time
from collections import Counter
from typing import Any

pauses: list[tuple[float, int, float]] = []
probe: dict[str, Any] = {}
census: list[dict[str, Any]] = []
_started = 0.0
_probing = False


def _timed(phase: str, info: dict[str, Any]) -> None:
    global _started
    if _probing:
        return
    if phase == "start":
        _started = time.perf_counter()
    else:
        pauses.append((time.time(), info["generation"], time.perf_counter() - _started))


def _probe(*_: object) -> None:
    global _probing
    _probing = True
    try:
        from app import gc_policy  # the server's own module, already loaded

        probe["walk_bound"] = gc_policy.walk_bound()  # what the policy checks before a pass
        started = time.perf_counter()
        probe["containers"] = len(gc.get_objects())  # what a pass will walk
        probe["count_ms"] = round((time.perf_counter() - started) * 1000, 1)
        started = time.perf_counter()
        gc.set_debug(gc.DEBUG_SAVEALL)  # kept, to be told apart; freed just below
        found = gc.collect()
        probe["full_pass_ms"] = round((time.perf_counter() - started) * 1000, 1)
        probe["full_pass_found"] = found
        gc.set_debug(0)
        probe["garbage_kinds"] = Counter(_kind(o) for o in gc.garbage).most_common(25)
        probe["garbage_sql"] = Counter(str(o) for o in gc.garbage
                                       if type(o).__module__.startswith("sqlalchemy.sql") and hasattr(o, "left")
                                       ).most_common(10)
        gc.garbage.clear()
        gc.collect()
        probe["tracked_after"] = len(gc.get_objects())
        probe["frozen"] = gc.get_freeze_count()
        gc.unfreeze()
        probe["frozen_garbage"] = gc.collect()
    finally:
        _probing = False


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


@functools.cache  # loaded once: a ctypes library and its functions are cycles, garbage of the census itself
def _mallinfo2() -> Any:
    try:
        info = ctypes.CDLL(ctypes.util.find_library("c")).mallinfo2
    except (OSError, AttributeError, TypeError):  # not glibc, or older than 2.33
        return None
    info.restype = _Mallinfo2
    return info


def _malloc() -> dict[str, float] | None:
    """glibc's heap in MiB: ``in_use`` (allocated), ``free`` (freed, kept in its arenas), ``mmapped``."""
    info = _mallinfo2()
    if info is None:
        return None
    m = info()
    return {"in_use": round(m.uordblks / 2**20, 1), "free": round(m.fordblks / 2**20, 1),
            "mmapped": round(m.hblkhd / 2**20, 1)}


def _census(*_: object) -> None:
    census.append({"at": time.time(), "blocks": sys.getallocatedblocks(), "malloc": _malloc(),
                   "types": dict(Counter(_kind(o) for o in gc.get_objects()))})


def _kind(obj: object) -> str:
    """What a piece of garbage is: its type, and for code objects' holders the code's name."""
    code = getattr(obj, "f_code", None) or getattr(obj, "cr_code", None) or getattr(obj, "__code__", None)
    kind = type(obj)
    name = f"{kind.__module__}.{kind.__qualname__}"
    return f"{name} {'/'.join(code.co_filename.rsplit('/', 2)[-2:])}:{code.co_qualname}" if code is not None else name


def _write(out: str) -> None:
    with open(out, "w") as f:
        json.dump({"pauses": pauses, "probe": probe, "census": census}, f)


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    gc.callbacks.append(_timed)
    atexit.register(_write, out)
    signal.signal(signal.SIGUSR1, _probe)
    signal.signal(signal.SIGUSR2, _census)
    # uvicorn re-raises the SIGTERM it stopped on once it is done: end as a normal exit, so the list is written.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    from app.__main__ import main as serve_main

    serve_main(["serve", *args])


if __name__ == "__main__":
    main()
