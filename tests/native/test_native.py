"""The compiled engine is used only when it was built from the sources as they are (app/native.py);
otherwise everything runs interpreted and says why.  scripts/test.sh runs this file in both modes."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx

import app.engine.round
import app.rooms.diff
from app import native
from tests.live import LiveServer

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _started(native_dir: Path, engine: str = "auto") -> subprocess.CompletedProcess[str]:
    """A fresh process importing the app, as the server's would: its mode and reason."""
    env = {**os.environ, "UNO_NATIVE_DIR": str(native_dir), "UNO_ENGINE": engine}
    code = "from app import native; print(native.MODE); print(native.REASON)"
    return subprocess.run([sys.executable, "-c", code], cwd=native.ROOT, env=env, capture_output=True, text=True)


def _stamp(native_dir: Path, digest: str, **more: object) -> Path:
    """A build folder where the current sources' build would be, holding only a stamp."""
    where = native_dir / native.build_dir(native.digest()).name
    where.mkdir(parents=True)
    (where / native.STAMP).write_text(json.dumps({"digest": digest, **more}))
    return where


def test_the_build_covers_the_whole_engine_and_the_differ() -> None:
    names = {native.module_name(p) for p in native.sources()}
    assert {"app.engine.round", "app.engine.legality", "app.engine.house.stacking", "app.rooms.diff",
            "app.rooms.overlay"} <= names
    assert not any(name.endswith("__init__") for name in names)
    assert native.digest() == native.digest()


def test_without_a_build_the_engine_runs_interpreted_and_says_so(tmp_path: Path) -> None:
    run = _started(tmp_path / "none")
    assert run.stdout.splitlines() == ["interpreted", "no native build (python -m app build-native makes one)"]


def test_a_build_of_other_sources_is_never_used(tmp_path: Path) -> None:
    _stamp(tmp_path, "0" * 64, modules=[], shared=[])
    mode, reason = _started(tmp_path).stdout.splitlines()
    assert mode == "interpreted" and "other sources" in reason
    refused = _started(tmp_path, "compiled")  # the tests of the compiled build must not pass on Python
    assert refused.returncode != 0 and "UNO_ENGINE=compiled, but" in refused.stderr


def test_a_build_missing_a_module_is_not_used(tmp_path: Path) -> None:
    _stamp(tmp_path, native.digest(), modules=["app.engine.round"], shared=[])
    mode, reason = _started(tmp_path).stdout.splitlines()
    assert mode == "interpreted" and f"round{SUFFIX} is missing" in reason


def test_the_mode_asked_for_is_the_mode_that_runs() -> None:
    # The suite runs interpreted by default (tests/conftest.py); scripts/test.sh runs this file again
    # with UNO_ENGINE=compiled, when these modules must be the native build's.
    compiled = os.environ["UNO_ENGINE"] == "compiled"
    assert ("compiled" if compiled else "interpreted") == native.MODE
    for module in (app.engine.round, app.rooms.diff):
        assert str(module.__file__).endswith(SUFFIX) == compiled, module.__file__


def test_healthz_says_which_engine_runs() -> None:
    live = LiveServer().start()
    try:
        assert httpx.get(f"{live.http}/healthz").json()["engine"] == native.MODE
    finally:
        live.stop()
