"""Match history: rounds, points per round, running totals and the winner; a finished match's
export and its replay; and the engine's source, for the verifier that runs in the browser."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from app.engine.audit import export_document
from app.engine.playback import playback
from app.web.reveal import require_shown

ENGINE = Path(__file__).resolve().parents[1] / "engine"

router = APIRouter(prefix="/api", tags=["matches"])


class SeatScore(BaseModel):
    seat: int
    points: int  # won in this round (only the round's winner scores)
    total: int  # running total after the round
    cards_left: int


class RoundHistory(BaseModel):
    number: int
    dealer: int
    winner: int | None  # None while the round is being played
    points: int | None
    commitment: str | None = None  # SHA-256 of the round's secret, published at the deal (None: older rounds)
    secret: str | None = None  # revealed once the round is over
    scores: list[SeatScore]


class MatchHistory(BaseModel):
    id: str
    room: str
    number: int
    edition: str
    target: int
    players: list[str]
    status: str  # playing, over
    winner: int | None
    started_at: str | None
    finished_at: str | None
    rounds: list[RoundHistory]
    totals: list[int]


@router.get("/matches/{match_id}", response_model=MatchHistory,
            responses={404: {"description": "No such match"}})
async def match_history(match_id: str, request: Request) -> Any:
    history = await request.app.state.store.match_history(match_id)
    if history is None:
        raise HTTPException(404, detail={"code": "no_match", "message": f"There is no match {match_id!r}."})
    await require_shown(request, history["room"], match_id, "shown while its room shows its table late")
    return history


async def finished(request: Request, match_id: str, what: str) -> dict[str, Any]:
    """The stored parts of a finished match; 404 if there is none, 409 while it is not over."""
    raw: dict[str, Any] | None = await request.app.state.store.match_export(match_id)
    if raw is None:
        raise HTTPException(404, detail={"code": "no_match", "message": f"There is no match {match_id!r}."})
    if raw["status"] != "over":
        # A live round's secret and hands stay secret; an abandoned match has no end to check.
        raise HTTPException(409, detail={"code": "match_not_finished",
                                         "message": f"Only a finished match can be {what}."})
    await require_shown(request, raw["room"], match_id, what)
    return raw


def _meta(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: raw[k] for k in ("id", "room", "number", "started_at", "finished_at")}


@router.get("/matches/{match_id}/export",
            responses={404: {"description": "No such match"}, 409: {"description": "The match is not finished"}})
async def match_export(match_id: str, request: Request) -> Any:
    """A finished match as one JSON document, for ``python -m app.engine.verify`` and replays."""
    raw = await finished(request, match_id, "exported")
    return export_document(raw["config"], raw["players"], raw["rounds"], raw["actions"], match=_meta(raw))


@router.get("/matches/{match_id}/replay",
            responses={404: {"description": "No such match"}, 409: {"description": "The match is not finished"}})
async def match_replay(match_id: str, request: Request) -> Response:
    """A finished match move by move: after the deal and after every action, the table with every
    hand, and the events of that step (docs/PROTOCOL.md).  Gzipped for clients that accept it."""
    raw = await finished(request, match_id, "replayed")
    # A few thousand actions replayed: off the event loop, so that rooms keep their pace.
    doc = await run_in_threadpool(playback, raw["config"], raw["players"], raw["rounds"], raw["actions"],
                                  match=_meta(raw))
    body = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
    headers = {"Vary": "Accept-Encoding", "Cache-Control": "private, max-age=3600"}
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        body = gzip.compress(body, compresslevel=6, mtime=0)
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


@lru_cache(maxsize=1)
def engine_source() -> tuple[bytes, str]:
    """``app/engine/**/*.py`` as a zip (with an empty ``app/__init__.py``), and its SHA-256.

    The very files this server runs: the browser's verifier (static/js/verify_worker.js) loads
    them into Pyodide and calls ``app.engine.verify.verify``, as ``python -m app.engine.verify`` does."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("app/__init__.py", (1980, 1, 1, 0, 0, 0)), "")
        for path in sorted(ENGINE.rglob("*.py")):
            name = "app/engine/" + path.relative_to(ENGINE).as_posix()
            zf.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), path.read_bytes(), zipfile.ZIP_DEFLATED)
    data = out.getvalue()
    return data, hashlib.sha256(data).hexdigest()


@router.get("/engine/source.zip", response_class=Response,
            responses={200: {"content": {"application/zip": {}}, "description": "The engine's Python source"}})
async def engine_source_zip(request: Request) -> Response:
    """The rules engine's source (standard library only), for the verifier that runs in the browser."""
    data, digest = engine_source()
    etag = f'"{digest[:32]}"'
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={"ETag": etag})
    return Response(data, media_type="application/zip",
                    headers={"ETag": etag, "Cache-Control": "no-cache",
                             "Content-Disposition": 'attachment; filename="uno-engine.zip"'})
