"""Every HTTP response carries the security headers; the pages have nothing inline for the CSP to refuse."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/"), ("GET", "/lobby"), ("GET", "/r/ABCD2345"), ("GET", "/static/css/app.css"),
    ("GET", "/static/js/pages/room.js"), ("GET", "/api/rooms"), ("GET", "/api/rooms/NOPE2345"),
    ("GET", "/healthz"), ("GET", "/no/such/page"), ("POST", "/api/rooms"),
])
def test_every_response_carries_the_security_headers(server: LiveServer, method: str, path: str) -> None:
    r = httpx.request(method, server.http + path, json={} if method == "POST" else None)
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"
    csp = dict(part.strip().split(" ", 1) for part in r.headers["content-security-policy"].split(";"))
    assert csp["default-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
    assert csp["script-src"] == "'self'" and csp["style-src"] == "'self'"
    host = f"127.0.0.1:{server.port}"
    assert csp["connect-src"] == f"'self' ws://{host} wss://{host}"


def test_a_strange_host_header_adds_nothing_to_the_policy(server: LiveServer) -> None:
    r = httpx.get(server.http + "/", headers={"Host": "evil.example; script-src *"})
    csp = r.headers["content-security-policy"]
    assert "evil" not in csp and "connect-src 'self';" in csp
    assert len(r.headers.get_list("content-security-policy")) == 1


def test_the_api_docs_keep_working_under_their_own_policy(server: LiveServer) -> None:
    csp = httpx.get(server.http + "/docs").headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in csp and "frame-ancestors 'none'" in csp


def test_templates_have_no_inline_script_or_style() -> None:
    for template in (ROOT / "templates").glob("*.html"):
        text = template.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, f"{template.name}: inline script {tag}"
        assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", text), template.name
