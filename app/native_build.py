"""``python -m app build-native``: compile the engine and the room's hot modules with mypyc.

Needs the lock file's ``build`` group (mypy, which carries mypyc, and setuptools: ``uv sync
--group build``), a C compiler and the Python headers; none of them is needed to run the server.
The build goes to a folder named by the sources' digest (app/native.py), made under a temporary
name and renamed when whole, so a server starting meanwhile sees the old build or the new one,
never half of one.  Builds of earlier sources are removed.  Sources whose build is there already
are not built again.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from app import native


def _compile(paths: list[Path], out: Path, work: Path) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    relative = [p.relative_to(native.ROOT).as_posix() for p in paths]
    # mypyc names modules by their paths from the current folder, and reads mypy's settings
    # (pyproject.toml) from there: the project root.
    os.chdir(native.ROOT)
    extensions = mypycify(relative, opt_level="3", target_dir=str(work / "c"))
    setup(name="uno-native", ext_modules=extensions, packages=[], py_modules=[], script_args=[
        "--quiet", "build_ext", "--build-lib", str(out), "--build-temp", str(work / "o"),
        "--parallel", str(os.cpu_count() or 1)])


def _shared(out: Path) -> list[str]:
    """mypyc's shared library modules (``<hash>__mypyc``) at the top of the build."""
    return sorted(p.name.split(".", 1)[0] for p in out.iterdir() if p.is_file() and "__mypyc" in p.name)


def build(force: bool = False) -> Path:
    """Build the current sources (unless built already); the build's folder."""
    paths = native.sources()
    source_digest = native.digest(paths)
    final = native.build_dir(source_digest)
    if not force and (final / native.STAMP).is_file():
        print(f"native build: up to date ({final})")
        return final
    root = native.builds_dir()
    root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=".building-", dir=root) as tmp:
        out, work = Path(tmp) / "out", Path(tmp) / "work"
        _compile(paths, out, work)
        stamp = {"digest": source_digest, "modules": [native.module_name(p) for p in paths],
                 "shared": _shared(out), "python": sys.version.split()[0], "mypy": version("mypy"),
                 "seconds": round(time.monotonic() - started, 1)}
        (out / native.STAMP).write_text(json.dumps(stamp, indent=1))
        if final.exists():
            shutil.rmtree(final)
        out.rename(final)
    for old in root.iterdir():  # builds of other sources can never be used again
        if old.is_dir() and old != final and not old.name.startswith("."):
            shutil.rmtree(old, ignore_errors=True)
    print(f"native build: {len(paths)} modules in {time.monotonic() - started:.0f} s ({final})")
    return final


def main(force: bool = False) -> int:
    """Build, or say in one line why not (exit 1): the server then runs interpreted."""
    try:
        version("mypy"), version("setuptools")
    except PackageNotFoundError as missing:
        print(f"native build: not built, {missing.name} is not installed (uv sync --group build)")
        return 1
    try:
        build(force)
    except BaseException as err:  # setuptools ends a failed compile with SystemExit
        if isinstance(err, KeyboardInterrupt):
            raise
        print(f"native build: not built, {type(err).__name__}: {err}".rstrip(": "))
        return 1
    return 0
