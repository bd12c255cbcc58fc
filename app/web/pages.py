"""The HTML pages: home, lobby, room, match history.  Thin: the browser client does the rest.

The language comes from ``?lang=`` (remembered in a cookie), then the cookie, then the
browser's ``Accept-Language``; the server sets ``<html lang>`` and renders its few strings
from the same catalogue the JavaScript loads (``static/i18n/{lang}.json``).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.engine.house.declare import value_key
from app.web.api import find_room
from app.web.house_rules import schema as house_schema
from app.web.invite import QrCodes, invite_base
from app.web.rules import RULE_SECTIONS, rule_facts
from app.web.static_files import Static

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
LANGUAGES = ("en", "pl", "sl", "gl")  # the languages of the original rule sheets, and English
DEFAULT_LANGUAGE = "en"
PSEUDO = "xx"  # the test-only pseudo-language (Settings.pseudo_locale)
EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")
_CODE = re.compile(r"^[A-Za-z0-9]{1,16}$")
_SCREEN_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_MATCH_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,80}$")

templates = Jinja2Templates(directory=str(ROOT / "templates"))
router = APIRouter(include_in_schema=False)


@lru_cache(maxsize=len(LANGUAGES))
def catalogue(lang: str) -> dict[str, str]:
    try:
        data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data


@lru_cache(maxsize=1)
def pseudo_catalogue() -> dict[str, str]:
    """English with every string marked: ``⟦text⟧`` (placeholders stay inside the marks)."""
    return {key: f"⟦{text}⟧" for key, text in catalogue(DEFAULT_LANGUAGE).items()}


def pseudo_on(request: Request) -> bool:
    return bool(getattr(request.app.state.settings, "pseudo_locale", False))


def pick_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """``?lang=`` first, then the remembered choice, then the browser's preference by weight."""
    for explicit in (query, cookie):
        if explicit and explicit.lower() in LANGUAGES:
            return explicit.lower()
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        base = tag.strip().lower().split("-")[0]
        if base in LANGUAGES and q > 0:
            ranked.append((-q, i, base))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


def _render(request: Request, template: str, page: str, **context: Any) -> Response:
    lang = pick_language(request.query_params.get("lang"), request.cookies.get("lang"),
                         request.headers.get("accept-language"))
    if pseudo_on(request) and PSEUDO in (request.query_params.get("lang"), request.cookies.get("lang")):
        lang = PSEUDO
    strings = pseudo_catalogue() if lang == PSEUDO else catalogue(lang)

    def t(key: str, **params: Any) -> str:
        text = strings.get(key) or catalogue(DEFAULT_LANGUAGE).get(key) or key
        for name, value in params.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    response = templates.TemplateResponse(request, template, {
        "lang": lang, "languages": LANGUAGES, "t": t, "page": page, "editions": EDITIONS, **context})
    if request.query_params.get("lang") in LANGUAGES or lang == PSEUDO:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get(f"/static/i18n/{PSEUDO}.json")
async def pseudo_json(request: Request) -> Response:
    """The pseudo-language's catalogue, for the JavaScript; only on a server started for tests."""
    if not pseudo_on(request):
        return Response(status_code=404)
    return Response(json.dumps(pseudo_catalogue(), ensure_ascii=False), media_type="application/json")


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> Response:
    return _render(request, "home.html", "home")


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    return _render(request, "lobby.html", "lobby")


@router.get("/r/{code}", response_class=HTMLResponse)
async def room(request: Request, code: str) -> Response:
    if not _CODE.match(code):
        return _render(request, "missing.html", "missing")
    # The invite link's start (app/web/invite.py); empty when this Host may not be written into it.
    return _render(request, "room.html", "room", code=code.upper(), public_url=invite_base(request))


@router.get("/r/{code}/screen", response_class=HTMLResponse)
async def screen(request: Request, code: str) -> Response:
    """The table on a big screen (app/rooms/screen.py): with the host's key a screen, else a spectator."""
    if not _CODE.match(code):
        return _render(request, "missing.html", "missing")
    key = request.query_params.get("key") or ""
    return _render(request, "screen.html", "screen", code=code.upper(), public_url=invite_base(request),
                   screen_key=key if _SCREEN_KEY.match(key) else "")


@router.get("/rooms/{code}/qr.svg")
async def invite_qr(request: Request, code: str) -> Response:
    """The invite link as a QR code, for friends to scan from the host's screen."""
    qr: QrCodes = request.app.state.qr_codes  # limited per address before it gets here (AddressRateLimit)
    actor = await find_room(code, request, request.app.state.registry)  # 404 no_room, counted as a miss
    base = invite_base(request)
    if not base:
        raise HTTPException(400, detail={
            "code": "bad_host", "message": "This server is not set up to answer to that address: set "
            "UNO_PUBLIC_URL, or list the host name in UNO_ALLOWED_HOSTS."})
    svg = await qr.image(actor.code, f"{base}/r/{actor.code}")
    # Private: the image names the address this client used; a shared cache must not keep it.
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})



def missing_page(request: Request) -> Response:
    """The "no such page" page, with its 404."""
    response = _render(request, "missing.html", "missing")
    response.status_code = 404
    return response


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request) -> Response:
    return await rules(request, EDITIONS[0])


@router.get("/rules/{edition}", response_class=HTMLResponse)
async def rules(request: Request, edition: str) -> Response:
    """An edition's rules in the reader's language."""
    if edition not in RULE_SECTIONS:
        return missing_page(request)
    return _render(request, "rules.html", "rules", edition=edition, sections=RULE_SECTIONS[edition],
                   facts=rule_facts(edition), house=house_rules_for(edition))


def house_rules_for(edition: str) -> list[dict[str, Any]]:
    """The house rules this server plays, by family, for an edition's rules page: each option with
    its values (as catalogue keys and their parameters) and whether the edition refuses it outright."""
    families = []
    for family in house_schema()["families"]:
        options = []
        for option in (o for o in family["options"] if o["available"]):
            others = [v for v in option.get("values", []) if v != option["default"]]
            refused = option["refused"].get(edition, [])
            values = [(value_key(option["key"], v),
                       {"n": v // 60 if option["key"] == "blitz_seconds" else v}) for v in others
                      if v not in refused] if option["kind"] == "choice" else []
            options.append({"key": option["key"], "values": values, "refused": bool(others) and
                            all(v in refused for v in others)})
        if options:
            families.append({"key": family["key"], "options": options})
    return families


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def match_history(request: Request, match_id: str) -> Response:
    if not _MATCH_ID.match(match_id):
        return _render(request, "missing.html", "missing")
    return _render(request, "match.html", "match", match_id=match_id)


def wants_page(request: Request) -> bool:
    """A browser asking for a page: HTML accepted, and not the API, the sockets or a static file."""
    path = request.url.path
    if path.startswith(("/api/", "/ws", "/static/")) or path == "/api":
        return False
    return "text/html" in request.headers.get("accept", "")


async def not_found(request: Request, exc: Exception) -> Response:
    """Unknown addresses: a page for browsers, the usual JSON ``{"detail": ...}`` for everyone else."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and wants_page(request):
        return missing_page(request)
    return await http_exception_handler(request, exc)


def install(app: FastAPI) -> None:
    """Mount the pages and ``/static`` on the app (the one line ``app.main`` calls)."""
    app.include_router(router)
    app.add_exception_handler(StarletteHTTPException, not_found)
    app.mount("/static", Static(str(STATIC)), name="static")  # the vendored, versioned files cached for good
