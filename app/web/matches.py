"""Match history: rounds, points per round, running totals and the winner; and a finished match's export."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel

from app.engine.audit import export_document

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
    return history


@router.get("/matches/{match_id}/export",
            responses={404: {"description": "No such match"}, 409: {"description": "The match is not finished"}})
async def match_export(match_id: str, request: Request) -> Any:
    """A finished match as one JSON document, for ``python -m app.engine.verify`` and replays."""
    raw = await request.app.state.store.match_export(match_id)
    if raw is None:
        raise HTTPException(404, detail={"code": "no_match", "message": f"There is no match {match_id!r}."})
    if raw["status"] != "over":
        # A live round's secret and hands stay secret; an abandoned match has no end to check.
        raise HTTPException(409, detail={"code": "match_not_finished",
                                         "message": "Only a finished match can be exported."})
    meta = {k: raw[k] for k in ("id", "room", "number", "started_at", "finished_at")}
    return export_document(raw["config"], raw["players"], raw["rounds"], raw["actions"], match=meta)
