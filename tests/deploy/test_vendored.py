"""The vendored Pyodide (static/vendor/pyodide/VERSION/) is the pinned release, file for file, and
the URL the verifier loads it from names that version (its files are served as immutable)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor" / "pyodide"


@pytest.mark.slow
def test_the_vendored_pyodide_files_are_the_ones_its_note_pins() -> None:
    note = (VENDOR / "SOURCE.md").read_text(encoding="utf-8")
    pinned = dict((name, digest) for digest, name in re.findall(r"^([0-9a-f]{64})  (\S+)$", note, re.MULTILINE))
    assert set(pinned) == {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                           "pyodide-lock.json"}
    version = re.search(r"^VERSION=(\S+)$", (VENDOR.parents[2] / "scripts" / "vendor_pyodide.sh").read_text(),
                        re.MULTILINE)
    assert version and f"pyodide@{version.group(1)}" in note
    # One version, in a directory of its own: a file never changes under a URL that was cached.
    assert {p.name for p in VENDOR.iterdir()} == {version.group(1), "SOURCE.md"}
    files = VENDOR / version.group(1)
    assert {p.name for p in files.iterdir()} == set(pinned)
    for name, digest in pinned.items():
        assert hashlib.sha256((files / name).read_bytes()).hexdigest() == digest, name
    worker = (VENDOR.parents[1] / "js" / "verify_worker.js").read_text()
    urls = set(re.findall(r"/static/vendor/pyodide/([^/\"]+)/", worker))
    assert urls == {version.group(1)}
