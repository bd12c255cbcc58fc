"""Suite-wide checks.

Hidden information (C-16): every server the tests start records every frame it sends
(``tests.live.FrameAudit``).  Whatever a test is about — a full game, a reconnect, a hostile
client, a browser — it fails if any frame sent while it ran carried a card another seat held,
a card of the draw pile, or another seat's private log entry.  It fails too if a view a frame
was made from differs from the same view built from scratch (the room keeps unchanged parts).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

# The servers the tests start in this process keep CPython's default collector: the server's
# own policy (app/gc_policy.py) is process-wide, and tests/hardening/test_gc_policy.py checks
# it in a process of its own.
os.environ.setdefault("UNO_GC_FULL_SECONDS", "0")
# The suite runs the engine as written unless told otherwise: scripts/test.sh runs the engine's
# tests (and the differ's) a second time with UNO_ENGINE=compiled, on the native build (app/native.py).
os.environ.setdefault("UNO_ENGINE", "interpreted")

from tests.frame_audit import FrameAudit

_totals = {"frames": 0, "servers": 0, "leaks": 0}


@pytest.fixture(autouse=True)
def no_hidden_card_leaves_the_server() -> Iterator[None]:
    before = {id(a): (len(a.violations), a.frames, len(a.stale)) for a in FrameAudit.all}
    yield
    problems: list[str] = []
    stale: list[str] = []
    for audit in FrameAudit.all:
        seen, frames, seen_stale = before.get(id(audit), (0, 0, 0))
        with audit.lock:
            problems += audit.violations[seen:]
            stale += audit.stale[seen_stale:]
            _totals["frames"] += audit.frames - frames
    _totals["servers"] = len(FrameAudit.all)
    _totals["leaks"] += len(problems)
    assert not problems, "C-16: hidden cards left the server:\n" + "\n".join(problems[:20])
    assert not stale, "views sent differ from views built from scratch:\n" + "\n".join(stale[:20])


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: the controller prints the run's totals
        workeroutput["frame_audit"] = dict(_totals)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist's controller: a worker's frame-audit totals added to the run's."""
    for key, value in getattr(node, "workeroutput", {}).get("frame_audit", {}).items():
        _totals[key] += value


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _totals["frames"]:
        terminalreporter.write_line(
            f"C-16 frame audit: {_totals['frames']:,} frames from {_totals['servers']} servers checked, "
            f"{_totals['leaks']} carried hidden cards")
