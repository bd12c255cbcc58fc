"""The one check the match routes make before they serve a match: not before a delayed
spectator of its room is shown its end (app/rooms/reveal.py decides when)."""

from __future__ import annotations

from fastapi import HTTPException, Request

from app.rooms.errors import RoomError
from app.rooms.registry import RoomRegistry


async def require_shown(request: Request, room: str, match_id: str, what: str) -> None:
    """409 ``match_not_finished`` (as for a match still being played) while the match's room,
    on this node, may not show it yet.  With several nodes a match's requests are served by
    the node that owns its room (app/cluster/routing.py); a room no node serves any more ended
    long enough ago."""
    registry: RoomRegistry = request.app.state.registry
    actor = await registry.find(room)
    if actor is None:
        return
    try:
        shown = await actor.shown(match_id)
    except RoomError:  # the room is stopping or being rebuilt: not now
        shown = False
    if not shown:
        raise HTTPException(409, detail={"code": "match_not_finished",
                                         "message": f"Only a finished match can be {what}."})
