"""The players' HTML pages: this browser's player (``/me``), a player's page, the leaderboards.
Thin, like the other pages: the browser asks the API (app/web/players.py) and draws."""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.web.pages import EDITIONS, _render, missing_page

router = APIRouter(include_in_schema=False)
_PLAYER_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")


@router.get("/me", response_class=HTMLResponse)
async def me(request: Request) -> Response:
    return _render(request, "me.html", "me")


@router.get("/players/{pid}", response_class=HTMLResponse)
async def player(request: Request, pid: str) -> Response:
    if not _PLAYER_ID.match(pid):
        return _render(request, "missing.html", "missing")
    return _render(request, "player.html", "player", player_id=pid)


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard_index(request: Request) -> Response:
    return await leaderboard(request, EDITIONS[0])


@router.get("/leaderboard/{edition}", response_class=HTMLResponse)
async def leaderboard(request: Request, edition: str) -> Response:
    if edition not in EDITIONS:
        return missing_page(request)
    return _render(request, "leaderboard.html", "leaderboard", edition=edition)
