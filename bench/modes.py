"""Which engine a benchmark measures: ``--mode auto|interpreted|compiled|both`` (app/native.py).

A bench script imports this module before it imports ``app``, since the engine is chosen at
that import; importing it reads the command line (``choose``):

- ``auto`` (the default): what the server would run here, compiled when the current native
  build is there (``python -m app build-native``);
- ``interpreted`` or ``compiled``: that one (``compiled`` fails at once without the build);
- ``both``: the script is run again in a process per mode, interpreted and compiled in turn
  ``ROUNDS`` times (interleaved, so a machine getting busier weighs on both alike); its JSON line
  gathers each mode's last lines.

Every figure line says which mode it measured (``mode``: ``app.native.MODE`` there).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

MODES = ("auto", "interpreted", "compiled", "both")
ROUNDS = 2


def _take_mode(argv: list[str]) -> tuple[str, list[str]]:
    rest, mode, i = [], "auto", 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--mode" and i + 1 < len(argv):
            mode, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--mode="):
            mode = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    if mode not in MODES:
        raise SystemExit(f"--mode is one of {', '.join(MODES)}, not {mode!r}")
    return mode, rest


def _run(mode: str, argv: list[str]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, *argv], env={**os.environ, "UNO_ENGINE": mode}, check=True,
                          stdout=subprocess.PIPE, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def choose() -> None:
    """Take ``--mode`` off the command line; for ``both``, run the bench per mode and exit."""
    mode, rest = _take_mode(sys.argv[1:])
    sys.argv[1:] = rest
    if mode != "both":
        if mode != "auto":
            os.environ["UNO_ENGINE"] = mode
        return
    runs: dict[str, list[dict[str, Any]]] = {"interpreted": [], "compiled": []}
    for _ in range(ROUNDS):
        for each in runs:
            runs[each].append(_run(each, [sys.argv[0], *rest]))
            print(json.dumps(runs[each][-1]), file=sys.stderr, flush=True)
    print(json.dumps({"mode": "both", "rounds": ROUNDS, **runs}))
    raise SystemExit(0)


def mode() -> str:
    """The mode this process runs the engine in (after ``app`` is imported)."""
    from app import native

    return native.MODE


choose()  # on import: before the bench script that imports this imports app
