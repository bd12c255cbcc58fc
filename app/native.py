"""The compiled engine: the modules mypyc built from this very source, used only while current.

The rules engine and the room's differ are plain Python, and stay the source of truth: the
browser's verifier runs the same files in Pyodide, and a machine with no C compiler runs them as
they are.  ``python -m app build-native`` (app/native_build.py) compiles them with mypyc into a
folder of their own, named by a digest of the sources they came from (``HOT`` below, the Python
version and the platform), never beside the ``.py`` files, where a later edit of a ``.py`` would
silently lose to an old ``.so``.  At import of ``app`` (every process the server starts, every
test worker), ``activate`` looks for the build of the sources as they are now: found, an import
hook serves its modules in place of the ``.py`` files; not found, or built from other sources,
everything runs interpreted and ``REASON`` says why.

``UNO_ENGINE`` chooses: ``auto`` (the default: compiled when the current build is there),
``interpreted`` (never compiled) or ``compiled`` (compiled or fail at start: for the tests
that must run the compiled build).  ``UNO_NATIVE_DIR`` moves the builds (default
``build/native`` under the project root).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
# What is compiled: the whole engine (its packages' __init__ files stay Python: they only gather
# names) and the room's hot path that profiles show outside it: the differ and overlay, the seats'
# views (room_state, room_views, narrate), the publish with its frames (streams, watching, stream,
# frames), and what every message passes through after it (automation's clocks, the bots' moves,
# reveal, races).
HOT = ("app/rooms/diff.py", "app/rooms/overlay.py", "app/rooms/frames.py", "app/rooms/narrate.py",
       "app/rooms/room_state.py", "app/rooms/room_views.py", "app/rooms/stream.py", "app/rooms/watching.py",
       "app/rooms/streams.py", "app/rooms/automation.py", "app/rooms/bot_moves.py", "app/rooms/reveal.py",
       "app/rooms/races.py")
STAMP = "stamp.json"

MODE = "interpreted"  # or "compiled", once activate() has served the build
REASON = "not looked for yet"


def sources() -> list[Path]:
    """The files the native build compiles, in a stable order."""
    engine = sorted(p for p in (ROOT / "app" / "engine").rglob("*.py") if p.name != "__init__.py")
    return [*engine, *(ROOT / name for name in HOT)]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def digest(paths: Sequence[Path] | None = None) -> str:
    """SHA-256 of the sources (names and bytes), the interpreter's ABI and the platform."""
    h = hashlib.sha256()
    h.update(f"{sys.implementation.cache_tag} {sysconfig.get_platform()}\0".encode())
    for path in paths if paths is not None else sources():
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def builds_dir() -> Path:
    return Path(os.environ.get("UNO_NATIVE_DIR") or ROOT / "build" / "native")


def build_dir(source_digest: str) -> Path:
    """Where the build of sources with this digest lives (whether or not it is there)."""
    return builds_dir() / source_digest[:20]


class CompiledModules(importlib.abc.MetaPathFinder):
    """Finds the compiled modules of one build, by name, ahead of the source files."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(fullname, file)


def _files(where: Path, stamp: dict[str, object]) -> dict[str, Path] | str:
    """The build's extension module per module name, or why it cannot be used."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    names = stamp.get("modules")
    shared = stamp.get("shared")
    if not isinstance(names, list) or not isinstance(shared, list):
        return "its stamp lists no modules"
    files: dict[str, Path] = {}
    for name in [*names, *shared]:
        file = where.joinpath(*str(name).split(".")).with_name(str(name).rsplit(".", 1)[-1] + suffix)
        if not file.is_file():
            return f"{file.name} is missing from it"
        files[str(name)] = file
    return files


def find() -> tuple[Path, dict[str, Path]] | str:
    """The current build's folder and files, or why there is none to use."""
    if not builds_dir().is_dir():
        return "no native build (python -m app build-native makes one)"
    current = digest()
    where = build_dir(current)
    try:
        stamp = json.loads((where / STAMP).read_text())
    except (OSError, ValueError):
        return ("no native build of these sources: they changed since the last one "
                "(python -m app build-native)")
    if stamp.get("digest") != current:
        return "the native build's stamp is of other sources"
    files = _files(where, stamp)
    return files if isinstance(files, str) else (where, files)


def activate() -> None:
    """Serve the compiled modules if ``UNO_ENGINE`` allows and the current build is there."""
    global MODE, REASON
    if any(isinstance(f, CompiledModules) for f in sys.meta_path):
        return
    wanted = os.environ.get("UNO_ENGINE", "auto")
    if wanted == "interpreted":
        MODE, REASON = "interpreted", "UNO_ENGINE=interpreted"
        return
    known = wanted in ("auto", "compiled")
    found = find() if known else f"UNO_ENGINE={wanted!r} is none of auto, interpreted, compiled"
    if isinstance(found, str):
        MODE, REASON = "interpreted", found
        if wanted == "compiled":
            raise RuntimeError(f"UNO_ENGINE=compiled, but {found}")
        return
    where, files = found
    sys.meta_path.insert(0, CompiledModules(files))
    MODE, REASON = "compiled", f"the native build of these very sources, {where}"
