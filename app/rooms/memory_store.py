"""A store that keeps records in this process only: for tests and throwaway servers.

It answers exactly like the SQL store (app/persistence/store.py), so the room code and
its tests do not care which one they talk to.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.engine.house.results import credited

from . import records as r
from .records import StoredMatch, StoredRoom


@dataclass
class _Match:
    started: r.MatchStarted
    status: str = "playing"
    winner: int | None = None
    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)
    log: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    client_ids: list[tuple[int, str]] = field(default_factory=list)  # (seat, id) of the actions sent with one
    times: list[str] = field(default_factory=list)  # when each action of the log was stored
    secrets: dict[int, str] = field(default_factory=dict)  # round -> its secret, kept out of the history
    finished_at: str | None = None


@dataclass
class _Room:
    opened: r.RoomOpened
    status: str = "waiting"
    host: int = 0
    seats: tuple[r.SeatInfo, ...] = ()
    match_id: str | None = None
    chat: list[tuple[int | None, str, str]] = field(default_factory=list)
    chat_ids: list[tuple[str, str]] = field(default_factory=list)  # (sender's token hash, id)


class InMemoryStore:
    def __init__(self) -> None:
        self.rooms: dict[str, _Room] = {}
        self.matches: dict[str, _Match] = {}
        self.writes = 0

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def write(self, *records: r.Record, room: str | None = None) -> None:
        self.writes += 1
        for record in records:
            self._apply(record)

    def _apply(self, record: r.Record) -> None:
        match record:
            case r.ActionApplied():
                m = self.matches[record.match_id]
                m.log.append((record.round, record.seat, record.action))
                m.times.append(_now())
                if record.client_id is not None:
                    m.client_ids.append((record.seat, record.client_id))
            case r.RoomOpened():
                self.rooms[record.code] = _Room(record)
            case r.OptionsChanged():
                room = self.rooms[record.code]
                room.opened = dataclasses.replace(room.opened, options=record.options)
            case r.GameChanged():
                room = self.rooms[record.code]
                room.opened = dataclasses.replace(room.opened, edition=record.edition, max_seats=record.max_seats,
                                                  target=record.target)
            case r.RoomChanged():
                room = self.rooms[record.code]
                room.status, room.host = record.status, record.host
            case r.SeatsChanged():
                self.rooms[record.code].seats = record.seats
            case r.MatchStarted():
                self.matches[record.match_id] = _Match(record)
                room = self.rooms[record.code]
                room.match_id, room.status = record.match_id, "playing"
            case r.RoundStarted():
                m = self.matches[record.match_id]
                m.rounds[record.number] = {
                    "number": record.number, "dealer": record.dealer, "winner": None, "points": None,
                    "commitment": record.commitment, "secret": None, "scores": []}
                if record.secret is not None:
                    m.secrets[record.number] = record.secret
            case r.RoundFinished():
                m = self.matches[record.match_id]
                rnd = m.rounds[record.number]
                rnd["winner"], rnd["points"] = record.winner, record.points
                rnd["secret"] = m.secrets.get(record.number)  # revealed once the round is over
                rnd["scores"] = [{"seat": s, "points": record.seat_points(s), "total": total,
                                  "cards_left": record.cards_left[s]} for s, total in enumerate(record.totals)]
            case r.MatchFinished():
                m = self.matches[record.match_id]
                m.status, m.winner, m.finished_at = "over", record.winner, _now()
                self.rooms[record.code].status = "over"
            case r.ChatPosted():
                room = self.rooms[record.code]
                room.chat.append((record.seat, record.name, record.text))
                if record.client_id is not None and record.sender is not None:
                    room.chat_ids.append((record.sender, record.client_id))
            case r.RoomClosed():
                self.rooms[record.code].status = "closed"

    async def unfinished_rooms(self) -> list[StoredRoom]:
        return [self._stored(code, room) for code, room in self.rooms.items() if room.status != "closed"]

    async def load_room(self, code: str) -> StoredRoom | None:
        room = self.rooms.get(code)
        return self._stored(code, room) if room is not None and room.status != "closed" else None

    def _stored(self, code: str, room: _Room) -> StoredRoom:
        stored_match = None
        answered = list(room.chat_ids)
        if room.match_id is not None:
            m = self.matches[room.match_id]
            s = m.started
            stored_match = StoredMatch(s.match_id, s.number, s.config, s.seed, list(s.players),
                                       max(m.rounds, default=1), list(m.log), dict(m.secrets), s.blitz_deadline)
            by_seat = {seat.seat: seat.token_hash for seat in room.seats}
            answered += [(by_seat[seat], cid) for seat, cid in m.client_ids if seat in by_seat]
        o = room.opened
        return StoredRoom(code, o.name, o.edition, o.public, o.max_seats, o.target, o.options, room.status,
                          room.host, list(room.seats), stored_match, list(room.chat), answered)

    async def match_history(self, match_id: str) -> dict[str, Any] | None:
        m = self.matches.get(match_id)
        if m is None:
            return None
        s = m.started
        rounds = [dict(m.rounds[n]) for n in sorted(m.rounds)]  # copies: the stored ones change as rounds end
        finished = [rnd for rnd in rounds if rnd["scores"]]
        totals = [x["total"] for x in finished[-1]["scores"]] if finished else [0] * len(s.players)
        return {
            "id": s.match_id, "room": s.code, "number": s.number, "edition": s.edition, "target": s.target,
            "players": list(s.players), "status": m.status, "winner": m.winner, "started_at": None,
            "finished_at": None, "rounds": rounds,
            "totals": totals,
            **credited(s.config, totals, m.winner),
        }

    async def match_export(self, match_id: str) -> dict[str, Any] | None:
        m = self.matches.get(match_id)
        if m is None:
            return None
        s = m.started
        over = m.status == "over"
        return {
            "id": s.match_id, "room": s.code, "number": s.number, "status": m.status, "config": s.config,
            "players": list(s.players), "started_at": None, "finished_at": m.finished_at,
            "rounds": [{"number": n, "commitment": m.rounds[n]["commitment"],
                        "secret": m.secrets.get(n, s.seed) if over else None} for n in sorted(m.rounds)],
            "actions": [{"seq": i, "round": rnd, "seat": seat, "action": action, "at": at}
                        for i, ((rnd, seat, action), at) in enumerate(zip(m.log, m.times, strict=True), start=1)]
            if over else [],
        }


def _now() -> str:
    return datetime.now(UTC).isoformat()
