"""Match history: rounds, points per round, running totals and the winner."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel

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
