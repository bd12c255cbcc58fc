"""The installable app's server side (app/web/pwa.py): the web app manifest, the service worker
at /sw.js (scope: the whole site; its cache named by the release) and the offline page."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import httpx

from app.web import pwa
from app.web.headers import policy
from app.web.pwa import release, worker_script
from tests.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


def test_the_service_worker_is_served_at_the_root_for_the_whole_site(server: LiveServer) -> None:
    r = httpx.get(f"{server.http}/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["service-worker-allowed"] == "/"
    assert r.headers["cache-control"] == "no-cache"  # a browser checking for a new release asks the server
    # Its cache is named by this release, written in where the file says __RELEASE__.
    assert "__RELEASE__" not in r.text
    assert f'const RELEASE = "{release()}";' in r.text
    assert re.fullmatch(r"[0-9a-f]{12}", release())
    # Under the site's policy: scripts, workers and manifests from this server only.
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp


def test_the_worker_never_keeps_data_sockets_or_the_vendored_packages() -> None:
    script = worker_script()
    keepable = script[script.index("function keepable"):script.index("async function networkFirst")]
    assert '!url.pathname.startsWith("/static/vendor/")' in keepable
    assert "/api" not in keepable and "/ws" not in keepable
    # Old releases' caches go when a new worker takes over.
    assert "caches.delete" in script and 'n.startsWith("uno-") && n !== CACHE' in script


def test_the_release_digest_covers_the_client_files_but_not_the_vendored_packages() -> None:
    # Every client file is in the digest, so one changed byte names a new cache; Pyodide is not read.
    files = pwa._client_files()
    assert ROOT / "static" / "sw.js" in files and ROOT / "templates" / "base.html" in files
    static = ROOT / "static"
    assert not any(p.relative_to(static).parts[0] == "vendor" for p in files if p.is_relative_to(static))


def test_the_manifest_has_what_installing_needs_and_its_icons_load(server: LiveServer) -> None:
    r = httpx.get(f"{server.http}/manifest.webmanifest?lang=pl")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    polish = json.loads((ROOT / "static" / "i18n" / "pl.json").read_text(encoding="utf-8"))
    assert m["name"] == polish["app.name"]  # the app's name in the page's language
    assert m["lang"] == "pl"
    assert m["short_name"] and len(m["short_name"]) <= 12
    assert (m["display"], m["start_url"], m["scope"]) == ("standalone", "/", "/")
    for colour in (m["theme_color"], m["background_color"]):
        assert re.fullmatch(r"#[0-9a-f]{6}", colour)
    sizes: dict[str, set[int]] = {}
    for icon in m["icons"]:
        got = httpx.get(f"{server.http}{icon['src']}")
        assert got.status_code == 200 and got.headers["content-type"] == "image/png", icon
        w, h = png_size(got.content)
        assert icon["sizes"] == f"{w}x{h}", icon
        sizes.setdefault(icon.get("purpose", "any"), set()).add(w)
    assert {192, 512} <= sizes["any"]
    assert 512 in sizes["maskable"]


def test_pages_link_the_manifest_and_the_offline_page_is_served(server: LiveServer) -> None:
    home = httpx.get(f"{server.http}/?lang=sl").text
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=sl">' in home
    assert '<meta name="theme-color"' in home
    assert 'src="/static/js/phone/install.js"' in home
    offline = httpx.get(f"{server.http}/offline?lang=gl")
    assert offline.status_code == 200
    assert 'data-testid="offline"' in offline.text and "Sen conexión" in offline.text


def test_the_page_policy_allows_the_worker_and_the_manifest_from_this_server() -> None:
    # worker-src and manifest-src fall back to script-src and default-src: 'self' for both.
    csp = policy({"path": "/", "headers": [(b"host", b"127.0.0.1:8000")]}).decode()
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "worker-src" not in csp and "manifest-src" not in csp
