"""The vendored Pyodide (static/vendor/pyodide/) is the pinned release, file for file."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor" / "pyodide"


def test_the_vendored_pyodide_files_are_the_ones_its_note_pins() -> None:
    note = (VENDOR / "SOURCE.md").read_text(encoding="utf-8")
    pinned = dict((name, digest) for digest, name in re.findall(r"^([0-9a-f]{64})  (\S+)$", note, re.MULTILINE))
    assert set(pinned) == {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                           "pyodide-lock.json"}
    assert {p.name for p in VENDOR.iterdir()} == set(pinned) | {"SOURCE.md"}
    for name, digest in pinned.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name
    version = re.search(r"^VERSION=(\S+)$", (VENDOR.parents[2] / "scripts" / "vendor_pyodide.sh").read_text(),
                        re.MULTILINE)
    assert version and f"pyodide@{version.group(1)}" in note
