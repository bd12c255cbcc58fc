"""What makes the site an installable app: the web app manifest, the service worker at
``/sw.js`` and the page it shows when the server cannot be reached.

The worker is served from the site's root, so its scope is the whole site without a
``Service-Worker-Allowed`` header.  Its cache is named by the release: a digest of every
client file (``static/`` without the vendored packages, and the templates), written into the
script as it is served.  A server with new client files therefore serves a new worker, which
the browser installs in place of the old one, and the old one's cache is deleted as it goes
(``static/sw.js``): an upgraded server never meets a page from an old release.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.web.pages import ROOT, STATIC, _render, catalogue, pick_language

router = APIRouter(include_in_schema=False)

THEME = "#17624a"  # the table's felt (app.css --felt): the installed app's title bar
BACKGROUND = "#0f4a37"  # the felt's darker edge: the splash screen while the first page loads
ICONS = ((192, "/static/img/icon-192.png"), (512, "/static/img/icon-512.png"))
# Only the worker and the manifest are asked for again on every check: a browser looks for a new
# worker at each navigation (at most daily), and must not be answered from an HTTP cache.
NO_STORE = "no-cache"


def _client_files() -> list[Path]:
    files = [p for p in STATIC.rglob("*") if p.is_file() and "vendor" not in p.relative_to(STATIC).parts[:1]]
    files += [p for p in (ROOT / "templates").rglob("*") if p.is_file()]
    return sorted(files)


@lru_cache(maxsize=1)
def release() -> str:
    """A short digest of the client files this server serves: the name of the worker's cache."""
    digest = hashlib.sha256()
    for path in _client_files():
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@lru_cache(maxsize=1)
def worker_script() -> str:
    return (STATIC / "sw.js").read_text(encoding="utf-8").replace("__RELEASE__", release())


def manifest(lang: str) -> dict[str, object]:
    strings = catalogue(lang)
    english = catalogue("en")
    name = strings.get("app.name") or english.get("app.name", "UNO")
    return {
        "name": name,
        "short_name": strings.get("app.short_name") or english.get("app.short_name", "UNO"),
        "description": strings.get("app.description") or english.get("app.description", ""),
        "lang": lang,
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [{"src": src, "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
                  for size, src in ICONS]
        + [{"src": ICONS[1][1], "sizes": "512x512", "type": "image/png", "purpose": "maskable"}],
    }


@router.get("/manifest.webmanifest")
async def web_manifest(request: Request) -> Response:
    """The app's name in the page's language, its icons, colours and start address."""
    lang = pick_language(request.query_params.get("lang"), request.cookies.get("lang"),
                         request.headers.get("accept-language"))
    body = json.dumps(manifest(lang), ensure_ascii=False)
    return Response(body, media_type="application/manifest+json",
                    headers={"Cache-Control": NO_STORE, "Vary": "Cookie, Accept-Language"})


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker, named by this release; its scope is the site (it is served at the root)."""
    return Response(worker_script(), media_type="text/javascript",
                    headers={"Cache-Control": NO_STORE, "Service-Worker-Allowed": "/"})


@router.get("/offline")
async def offline(request: Request) -> Response:
    """What the worker shows for a page when the server cannot be reached (kept in its cache)."""
    return _render(request, "offline.html", "offline")
