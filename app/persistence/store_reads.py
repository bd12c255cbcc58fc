"""The SQL store's reads: what a restart brings back (unfinished rooms, their matches and the
client ids already answered), and one match's history, export and a room's matches.

``SqlStore`` (store.py) adds the writes to these; both share the engine.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.engine.house.results import credited
from app.rooms.records import SeatInfo, StoredMatch, StoredRoom

from .export import read_export
from .models import ActionRow, ChatRow, MatchRow, RoomRow, RoundRow, RoundScoreRow, SeatRow

log = logging.getLogger("app.persistence")


class StoreReads:
    """The reads of the SQL store (a restart's, and a match's pages)."""

    engine: AsyncEngine

    async def unfinished_rooms(self) -> list[StoredRoom]:
        """Every room a restart must bring back: not closed, and not a match long over.

        Each room is read on its own: one that cannot be read (a damaged page of an SQLite file,
        say) is logged and left out, and the others still come back.  It stays in the database
        as it is, for a restore from a backup.  A database that is away fails it all, as it should.
        """
        async with self.engine.connect() as conn:
            rooms = (await conn.execute(select(RoomRow).where(RoomRow.status != "closed")
                                        .order_by(RoomRow.created_at))).all()
        out = []
        for room in rooms:
            try:
                # A connection of its own: on Postgres a failed read spoils its transaction.
                async with self.engine.connect() as conn:
                    out.append(await self._load(conn, room))
            except Exception as err:
                if isinstance(err, ConnectionError | OSError) or (
                        isinstance(err, DBAPIError) and err.connection_invalidated):
                    raise  # the database is away, not one room damaged
                log.exception("room %s could not be read from the database; it is left out", room.code)
        return out

    async def load_room(self, code: str) -> StoredRoom | None:
        async with self.engine.connect() as conn:
            open_room = select(RoomRow).where(RoomRow.code == code, RoomRow.status != "closed")
            room = (await conn.execute(open_room)).first()
            return await self._load(conn, room) if room is not None else None

    async def _load(self, conn: Any, room: Any) -> StoredRoom:
        seats = (await conn.execute(select(SeatRow.seat, SeatRow.name, SeatRow.token_hash, SeatRow.is_bot,
                                           SeatRow.bot_level)
                                    .where(SeatRow.room_code == room.code).order_by(SeatRow.seat))).all()
        chat = (await conn.execute(select(ChatRow.seat, ChatRow.name, ChatRow.text, ChatRow.client_id,
                                          ChatRow.sender)
                                   .where(ChatRow.room_code == room.code).order_by(ChatRow.id))).all()
        answered = [(c.sender, c.client_id) for c in chat if c.client_id is not None and c.sender is not None]
        match = None
        if room.match_id:
            match, client_ids = await self._load_match(conn, room.match_id)
            by_seat = {s.seat: s.token_hash for s in seats}
            answered += [(by_seat[seat], cid) for seat, cid in client_ids if seat in by_seat]
        return StoredRoom(room.code, room.name, room.edition, room.public, room.max_seats, room.target,
                          room.options, room.status, room.host,
                          [SeatInfo(s.seat, s.name, s.token_hash, s.is_bot, s.bot_level) for s in seats],
                          match,
                          [(c.seat, c.name, c.text) for c in chat], answered)

    @staticmethod
    async def _load_match(conn: Any, match_id: str) -> tuple[StoredMatch | None, list[tuple[int, str]]]:
        """The match and the (seat, client id) of its actions that were sent with one."""
        row = (await conn.execute(select(MatchRow).where(MatchRow.id == match_id))).first()
        if row is None:
            return None, []
        rounds = (await conn.execute(select(RoundRow.number, RoundRow.secret)
                                     .where(RoundRow.match_id == match_id))).all()
        actions = (await conn.execute(select(ActionRow.round, ActionRow.seat, ActionRow.action,
                                             ActionRow.client_id)
                                      .where(ActionRow.match_id == match_id).order_by(ActionRow.seq))).all()
        client_ids = [(a.seat, a.client_id) for a in actions if a.client_id is not None]
        return (StoredMatch(row.id, row.number, row.options, row.seed, list(row.players),
                            max((r.number for r in rounds), default=1),
                            [(a.round, a.seat, a.action) for a in actions],
                            {r.number: r.secret for r in rounds if r.secret is not None}, row.blitz_deadline),
                client_ids)

    async def match_history(self, match_id: str) -> dict[str, Any] | None:
        """Rounds, points per round, running totals and the winner of one match."""
        async with self.engine.connect() as conn:
            match = (await conn.execute(select(MatchRow).where(MatchRow.id == match_id))).first()
            if match is None:
                return None
            rounds = (await conn.execute(select(RoundRow).where(RoundRow.match_id == match_id)
                                         .order_by(RoundRow.number))).all()
            scores = (await conn.execute(select(RoundScoreRow).where(RoundScoreRow.match_id == match_id)
                                         .order_by(RoundScoreRow.round, RoundScoreRow.seat))).all()
        by_round: dict[int, list[Any]] = {}
        for s in scores:
            by_round.setdefault(s.round, []).append(s)
        return {
            "id": match.id,
            "room": match.room_code,
            "number": match.number,
            "edition": match.edition,
            "target": match.target,
            "players": list(match.players),
            "status": match.status,
            "winner": match.winner,
            "started_at": match.started_at.isoformat() if match.started_at else None,
            "finished_at": match.finished_at.isoformat() if match.finished_at else None,
            "rounds": [
                {
                    "number": r.number,
                    "dealer": r.dealer,
                    "winner": r.winner,
                    "points": r.points,
                    "commitment": r.commitment,
                    "secret": r.secret if r.winner is not None else None,  # revealed once the round is over
                    "scores": [{"seat": s.seat, "points": s.points, "total": s.total,
                                "cards_left": s.cards_left} for s in by_round.get(r.number, [])],
                }
                for r in rounds
            ],
            "totals": (totals := [s.total for s in by_round[max(by_round)]] if by_round
                       else [0] * len(match.players)),
            **credited(match.options, totals, match.winner),
        }

    async def match_export(self, match_id: str) -> dict[str, Any] | None:
        """What the export of a match is made from (``app/persistence/export.py``)."""
        async with self.engine.connect() as conn:
            return await read_export(conn, match_id)

    async def room_matches(self, code: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(MatchRow.id, MatchRow.number, MatchRow.status, MatchRow.winner)
                                       .where(MatchRow.room_code == code).order_by(MatchRow.number))).all()
        return [{"id": r.id, "number": r.number, "status": r.status, "winner": r.winner} for r in rows]
