"""Match history: rounds, points per round, running totals and the winner; a finished match's
export and its replay; and the engine's source, for the verifier that runs in the browser."""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
import zlib
from collections.abc import AsyncIterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel

from app.signatures import public_key_json

from .download_budget import DownloadBudget, PacedDownload
from .match_builds import MatchBuilds, Refused
from .reveal import is_shown, require_shown

ENGINE = Path(__file__).resolve().parents[1] / "engine"
PIECE = 65_536  # bytes of an unzipped document sent at a time
MATCH_ID = re.compile(r"[0-9A-Za-z_-]{1,32}")  # what match ids are made of (16 hex digits today)

router = APIRouter(prefix="/api", tags=["matches"])


class SeatScore(BaseModel):
    seat: int
    points: int  # what this seat's own total gained in the round (C-14: only the round's winner's)
    total: int  # its own running total after the round (under HR-26 its team's is the side's, below)
    cards_left: int


class RoundHistory(BaseModel):
    number: int
    dealer: int
    winner: int | None  # None while the round is being played
    points: int | None  # what the round credited (HR-27: its winner's team; never the partner's hand)
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
    # Who is credited (app/engine/house/results.py, as the table's podium and the players' history):
    # the sides the match ranks (teams of two under HR-26, else every seat alone), their totals,
    # each seat's place, and the seats that won (both partners of the winning team).
    team_play: bool = False
    sides: list[list[int]] = []
    side_totals: list[int] = []
    places: list[int] = []
    winners: list[int] = []


@router.get("/matches/{match_id}", response_model=MatchHistory,
            responses={404: {"description": "No such match"}})
async def match_history(match_id: str, request: Request) -> Any:
    history = await request.app.state.store.match_history(match_id)
    if history is None:
        raise HTTPException(404, detail={"code": "no_match", "message": f"There is no match {match_id!r}."})
    await require_shown(request, history["room"], match_id, "shown while its room shows its table late")
    return history


def accepts_gzip(request: Request) -> bool:
    """Whether ``Accept-Encoding`` takes gzip with a q above 0 (named, or else as ``*``)."""
    weights: dict[str, float] = {}
    for part in request.headers.get("accept-encoding", "").lower().split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            weights[name.strip()] = float(q)
        except ValueError:
            weights[name.strip()] = 0.0
    return weights.get("gzip", weights.get("*", 0.0)) > 0


async def _unzipped(body: bytes) -> AsyncIterator[bytes]:
    """A document too large to keep unzipped (``MatchBuilds.unzipped``), for a client that does not
    take gzip, a piece at a time: never all of it at once.  On the event loop, a piece between
    sends (a fraction of a millisecond each): in a thread, the pieces' memory went to that
    thread's allocator arena and stayed there."""
    unzip = zlib.decompressobj(wbits=31)
    data = body
    while data or not unzip.eof:
        piece = unzip.decompress(data, PIECE)
        data = unzip.unconsumed_tail
        if piece:
            yield piece
        elif not data:
            break
    if tail := unzip.flush():
        yield tail


def _matches(header: str | None, etags: tuple[str, ...]) -> bool:
    if header is None:
        return False
    given = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in given or any(t in given for t in etags)


async def serve_built(request: Request, match_id: str, kind: str) -> Response:
    """A finished match's document as built once (app/web/match_builds.py): gzipped to a client
    that takes it, unzipped once and kept otherwise, 304 to one that has it already; sent within
    the process's download budget (app/web/download_budget.py), or refused 429 when it is full."""
    builds: MatchBuilds = request.app.state.match_builds
    # Limited per address before it gets here (AddressRateLimit: export and replay together).
    if not MATCH_ID.fullmatch(match_id):  # never a stored id: not worth a database read (nor a NUL in one)
        raise HTTPException(404, detail={"code": "no_match", "message": "There is no such match."})
    try:
        # Not before the match's room shows its end to its (maybe delayed) spectators (app/web/reveal.py).
        built = await builds.get(match_id, kind, lambda room: is_shown(request, room, match_id))
    except Refused as err:
        headers = {"Retry-After": str(err.retry_after)} if err.retry_after is not None else None
        raise HTTPException(err.status, detail={"code": err.code, "message": err.message}, headers=headers) from None
    gzipped = accepts_gzip(request)
    # Strong validators, one per representation: the gzipped bytes are not the document's bytes.
    plain_tag, gzip_tag = f'"{built.etag}"', f'"{built.etag}-gzip"'
    headers = {"ETag": gzip_tag if gzipped else plain_tag, "Vary": "Accept-Encoding",
               "Cache-Control": "private, max-age=3600"}
    if _matches(request.headers.get("if-none-match"), (plain_tag, gzip_tag)):
        return Response(status_code=304, headers=headers)
    budget: DownloadBudget = request.app.state.match_downloads
    slot = budget.take(len(built.body) if gzipped else built.size)
    if slot is None:  # refused before anything more is spent on it (an unzip, a send)
        request.app.state.metrics.refuse("match_downloads_busy")
        retry = budget.retry_after()
        raise HTTPException(429, detail={"code": "match_downloads_busy", "message": "The server is sending as many "
                                         f"match exports and replays as it may at once; try again in {retry} s."},
                            headers={"Retry-After": str(retry)})
    try:
        if gzipped:
            return PacedDownload(budget, slot, budget.pieces(built.body), len(built.body),
                                 {**headers, "Content-Encoding": "gzip"})
        doc = await builds.unzipped(built)
        pieces = budget.pieces(doc) if doc is not None else _unzipped(built.body)
        return PacedDownload(budget, slot, pieces, built.size, headers)
    except BaseException:
        slot.free()  # the response that would have freed it is never made
        raise


GONE: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such match"}, 409: {"description": "The match is not finished"},
    422: {"description": "The match is too large to build (match_too_large)"},
    429: {"description": "Too many requests from this address, or too many match documents being sent at once "
               "(match_downloads_busy)"},
    503: {"description": "Too many matches waiting to be built"}}


@router.get("/matches/{match_id}/export", responses=GONE)
async def match_export(match_id: str, request: Request) -> Response:
    """A finished match as one JSON document, for ``python -m app.engine.verify`` and replays;
    signed with the server's key (``GET /api/signing-key``)."""
    return await serve_built(request, match_id, "export")


@router.get("/matches/{match_id}/replay", responses=GONE)
async def match_replay(match_id: str, request: Request) -> Response:
    """A finished match move by move: after the deal and after every action, the table with every
    hand, and the events of that step (docs/PROTOCOL.md).  Gzipped for clients that accept it."""
    return await serve_built(request, match_id, "replay")


class SigningKey(BaseModel):
    algorithm: str  # Ed25519
    public_key: str  # its 32 bytes, base64
    key_id: str  # the first 16 hex digits of the public key's SHA-256


@router.get("/signing-key", response_model=SigningKey)
async def signing_key(request: Request) -> Any:
    """The public key exports are signed with: ``python -m app.engine.verify --key KEY MATCH.json``."""
    builds: MatchBuilds = request.app.state.match_builds
    return public_key_json(await builds.signing_key())


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
