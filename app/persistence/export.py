"""The stored parts of a match's export: its configuration, rounds and action log with times.

The engine turns them into the export document (``app.engine.audit.export_document``) by
replaying them; this module only reads.  Secrets are read only for a finished match: the
store never hands out the secret of a round that may still be played.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from .models import ActionRow, MatchRow, RoundRow


async def read_export(conn: Any, match_id: str) -> dict[str, Any] | None:
    match = (await conn.execute(select(MatchRow).where(MatchRow.id == match_id))).first()
    if match is None:
        return None
    over = match.status == "over"
    rounds = (await conn.execute(select(RoundRow.number, RoundRow.secret, RoundRow.commitment)
                                 .where(RoundRow.match_id == match_id).order_by(RoundRow.number))).all()
    actions = (await conn.execute(select(ActionRow.seq, ActionRow.round, ActionRow.seat, ActionRow.action,
                                         ActionRow.created_at)
                                  .where(ActionRow.match_id == match_id).order_by(ActionRow.seq))).all() if over else []
    return {
        "id": match.id, "room": match.room_code, "number": match.number, "status": match.status,
        "config": match.options, "players": list(match.players),
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        # A round stored without a secret was dealt from the match seed (before commitments).
        "rounds": [{"number": r.number, "commitment": r.commitment,
                    "secret": (r.secret or match.seed) if over else None} for r in rounds],
        "actions": [{"seq": a.seq, "round": a.round, "seat": a.seat, "action": a.action,
                     "at": a.created_at.isoformat() if a.created_at else None} for a in actions],
    }
