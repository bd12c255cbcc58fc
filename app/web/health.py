"""Liveness: cheap, no room state touched."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness check")
async def healthz(request: Request) -> dict[str, Any]:
    return {"ok": True, "rooms": len(request.app.state.registry.rooms)}
