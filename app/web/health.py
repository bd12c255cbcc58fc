"""Liveness: cheap, no room state touched."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app import native

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness check")
async def healthz(request: Request) -> dict[str, Any]:
    """Up, its open rooms, and whether the engine runs compiled or interpreted (app/native.py)."""
    return {"ok": True, "rooms": len(request.app.state.registry.rooms), "engine": native.MODE}
