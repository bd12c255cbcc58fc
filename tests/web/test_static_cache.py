"""The vendored, versioned files (Pyodide) are cached for good; the project's own static files,
which change with every release, are not told to be."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from app.web.static_files import IMMUTABLE
from tests.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]


def test_pyodide_is_served_immutable_under_its_version(server: LiveServer) -> None:
    worker = (ROOT / "static" / "js" / "verify_worker.js").read_text()
    base = re.search(r'"(/static/vendor/pyodide/[0-9.]+/)pyodide\.mjs"', worker)
    assert base is not None, "the worker loads Pyodide from a versioned URL"
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        r = httpx.get(f"{server.http}{base.group(1)}{name}", timeout=30)
        assert r.status_code == 200, name
        assert r.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    # A revalidation (a browser that ignores immutable) keeps the header on its 304.
    etag = httpx.get(f"{server.http}{base.group(1)}pyodide.mjs").headers["etag"]
    again = httpx.get(f"{server.http}{base.group(1)}pyodide.mjs", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE


def test_the_projects_own_static_files_are_not_cached_for_good(server: LiveServer) -> None:
    for path in ("/static/js/verify_worker.js", "/static/js/verify_panel.js", "/static/vendor/pyodide/SOURCE.md",
                 "/static/i18n/en.json"):
        r = httpx.get(f"{server.http}{path}")
        assert r.status_code == 200, path
        assert "immutable" not in r.headers.get("cache-control", ""), path
        assert "etag" in r.headers  # validated on each use instead
