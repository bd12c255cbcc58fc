"""``/static``: the project's files as Starlette serves them (no ``Cache-Control``, an ``ETag``
and ``Last-Modified`` to revalidate with: they change with every release), and the vendored,
versioned files cached for good.

A vendored package lives under ``static/vendor/<name>/<version>/`` (Pyodide: see
``static/vendor/pyodide/SOURCE.md``); its files are checksummed and never change in place
(``tests/deploy/test_vendored.py``), and a new version is a new directory, so a new URL.  That
is what makes ``immutable`` true: a browser keeps the 9.6 MB of WebAssembly for a year rather
than downloading it on every open of a match page.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
VERSION = re.compile(r"^\d+(?:\.\d+)+$")


def versioned(relative: Path) -> bool:
    """``vendor/<name>/<version>/...``: a vendored file whose URL changes with its version."""
    parts = relative.parts
    return len(parts) >= 4 and parts[0] == "vendor" and VERSION.match(parts[2]) is not None


class Static(StaticFiles):
    def __init__(self, directory: str | os.PathLike[str]) -> None:
        super().__init__(directory=directory)
        self.root = Path(directory).resolve()

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        try:
            relative = Path(full_path).resolve().relative_to(self.root)
        except ValueError:
            return response
        if versioned(relative):
            response.headers["Cache-Control"] = IMMUTABLE
        return response
