"""The HTML pages and the language catalogues (no browser needed)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.web.pages import LANGUAGES, STATIC, pick_language
from tests.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(live_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server.http) as c:
        yield c


@pytest.mark.parametrize(("query", "cookie", "accept", "expected"), [
    (None, None, None, "en"),
    (None, None, "pl-PL,pl;q=0.9,en;q=0.8", "pl"),
    (None, None, "de-DE,de;q=0.9,sl;q=0.5", "sl"),
    (None, None, "en;q=0.2, gl;q=0.9", "gl"),
    (None, None, "fr, de", "en"),
    (None, None, "pl;q=0, en;q=0.1", "en"),
    (None, None, "pl;q=bogus", "en"),
    (None, "gl", "pl", "gl"),
    ("sl", "gl", "pl", "sl"),
    ("xx", None, "pl", "pl"),
    ("PL", None, None, "pl"),
])
def test_language_choice(query: str | None, cookie: str | None, accept: str | None, expected: str) -> None:
    assert pick_language(query, cookie, accept) == expected


def test_pages_render_with_the_browser_language(client: httpx.Client) -> None:
    for path in ("/", "/lobby", "/r/ABCD2345", "/matches/some-match"):
        r = client.get(path, headers={"Accept-Language": "pl-PL,pl;q=0.9"})
        assert r.status_code == 200, path
        assert '<html lang="pl">' in r.text
    assert "Załóż pokój" in client.get("/", headers={"Accept-Language": "pl"}).text


def test_the_create_form_makes_a_private_room_unless_public_is_chosen(client: httpx.Client) -> None:
    html = client.get("/").text
    private = re.search(r"<input[^>]*data-testid=\"create-private\"[^>]*>", html)
    public = re.search(r"<input[^>]*data-testid=\"create-public\"[^>]*>", html)
    assert private and " checked" in private.group(0)
    assert public and " checked" not in public.group(0)


def test_lang_query_sets_the_page_language_and_is_remembered(client: httpx.Client) -> None:
    r = client.get("/?lang=gl")
    assert '<html lang="gl">' in r.text
    assert "lang=gl" in r.headers.get("set-cookie", "")
    assert '<html lang="gl">' in client.get("/lobby").text  # the cookie
    client.cookies.clear()


def test_room_page_carries_the_code_and_escapes_nothing_unsafe(client: httpx.Client) -> None:
    r = client.get("/r/abcd2345")
    assert 'data-code="ABCD2345"' in r.text
    assert client.get("/r/%3Cscript%3E").text.count("<script>") == 0


def test_static_files_are_served(client: httpx.Client) -> None:
    for path in ("/static/js/sync.js", "/static/js/pages/room.js", "/static/css/app.css", "/static/i18n/sl.json"):
        assert client.get(path).status_code == 200, path


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_catalogue_has_every_key_with_the_same_placeholders() -> None:
    catalogues = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8")) for lang in LANGUAGES}
    english = catalogues["en"]
    for lang, strings in catalogues.items():
        assert set(strings) == set(english), lang
        for key, text in strings.items():
            assert text.strip(), (lang, key)
            assert _placeholders(text) == _placeholders(english[key]), (lang, key)


def test_every_literal_key_used_in_templates_and_scripts_exists() -> None:
    english = json.loads((STATIC / "i18n" / "en.json").read_text("utf-8"))
    used: set[str] = set()
    for path in [*(ROOT / "templates").glob("*.html"), *(STATIC / "js").rglob("*.js")]:
        # Whole keys only: a key's start joined to a name (``t("house.about." ~ o.key)``) is not one.
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z0-9_.]*[a-z0-9_])["']""", path.read_text("utf-8")))
    assert used, "no keys found"
    assert sorted(used - set(english)) == []


def test_scripts_never_put_strings_into_inner_html() -> None:
    # Names and chat are untrusted: text goes in through textContent only.
    for path in (STATIC / "js").rglob("*.js"):
        assert "innerHTML" not in path.read_text("utf-8"), path


def test_unknown_addresses_are_a_page_for_browsers_and_json_for_programs(client: httpx.Client) -> None:
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language": "pl"}
    r = client.get("/no/such/page", headers=browser)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert '<html lang="pl">' in r.text and 'href="/"' in r.text
    plain = client.get("/no/such/page")
    assert plain.status_code == 404 and plain.json() == {"detail": "Not Found"}
    api = client.get("/api/nothing-here", headers=browser)
    assert api.status_code == 404 and api.headers["content-type"].startswith("application/json")
    assert client.get("/static/nothing.css", headers=browser).headers["content-type"].startswith("application/json")
    assert client.get("/api/rooms/NOPE2345", headers=browser).json()["detail"]["code"]
