"""The statements that store each record: a record becomes a short list of ``Op``s, which the
store (store.py) commits in its group commit."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Executable, delete, insert, update
from sqlalchemy.exc import DataError

from app.rooms import records as r
from app.rooms.records import SeatInfo

from .models import ActionRow, ChatRow, MatchRow, RoomRow, RoundRow, RoundScoreRow, SeatRow

# (statement, parameters): consecutive ops with the same statement run as one executemany.
Op = tuple[Executable, dict[str, Any] | None]

INSERT_ACTION = insert(ActionRow)
_INSERT_SCORE = insert(RoundScoreRow)
_INSERT_CHAT = insert(ChatRow)
_INSERT_SEAT = insert(SeatRow)


def _now() -> datetime:
    return datetime.now(UTC)


def create_room(code: str, *, name: str, edition: str, public: bool, max_seats: int, target: int | None,
                options: dict[str, Any], host: int = 0, status: str = "waiting") -> Op:
    return (insert(RoomRow).values(code=code, name=name, edition=edition, public=public, max_seats=max_seats,
                                   target=target, options=options, status=status, host=host), None)


def update_room(code: str, **values: Any) -> Op:
    return (update(RoomRow).where(RoomRow.code == code).values(updated_at=_now(), **values), None)


def start_match(code: str, match_id: str, *, number: int, edition: str, options: dict[str, Any], target: int,
                seed: str, players: list[str], blitz_deadline: float | None = None) -> list[Op]:
    return [(insert(MatchRow).values(id=match_id, room_code=code, number=number, edition=edition, options=options,
                                     target=target, seed=seed, players=players, status="playing",
                                     blitz_deadline=blitz_deadline), None),
            update_room(code, match_id=match_id, status="playing")]


def start_round(match_id: str, number: int, seed: str, dealer: int, secret: str | None = None,
                commitment: str | None = None) -> Op:
    return (insert(RoundRow).values(match_id=match_id, number=number, seed=seed, dealer=dealer, secret=secret,
                                    commitment=commitment), None)


def log_action(code: str, match_id: str, round_no: int, seq: int, seat: int, action: dict[str, Any],
               client_id: str | None = None) -> Op:
    return (INSERT_ACTION, {"room_code": code, "match_id": match_id, "round": round_no, "seq": seq, "seat": seat,
                             "action": action, "client_id": client_id})


def finish_round(match_id: str, number: int, winner: int, points: int, totals: Sequence[int],
                 cards_left: Sequence[int], seat_points: Sequence[int] | None = None) -> list[Op]:
    """``seat_points``: what each seat gained (default: ``points`` to the winner)."""
    ops: list[Op] = [(update(RoundRow).where(RoundRow.match_id == match_id, RoundRow.number == number)
                      .values(winner=winner, points=points, finished_at=_now()), None)]
    for seat, total in enumerate(totals):
        ops.append((_INSERT_SCORE, {"match_id": match_id, "round": number, "seat": seat,
                                    "points": seat_points[seat] if seat_points is not None
                                    else points if seat == winner else 0, "total": total,
                                    "cards_left": cards_left[seat]}))
    return ops


def finish_match(code: str, match_id: str, winner: int | None, status: str = "over") -> list[Op]:
    return [(update(MatchRow).where(MatchRow.id == match_id)
             .values(status=status, winner=winner, finished_at=_now()), None),
            update_room(code, status="over")]


def add_chat(code: str, seat: int | None, name: str, text: str, client_id: str | None = None,
             sender: str | None = None) -> Op:
    return (_INSERT_CHAT, {"room_code": code, "seat": seat, "name": name, "text": text, "client_id": client_id,
                           "sender": sender})


def put_seats(code: str, seats: Sequence[SeatInfo]) -> list[Op]:
    ops: list[Op] = [(delete(SeatRow).where(SeatRow.room_code == code), None)]
    ops.extend((_INSERT_SEAT, {"room_code": code, "seat": s.seat, "name": s.name, "token_hash": s.token_hash,
                               "is_bot": s.is_bot, "bot_level": s.bot_level}) for s in seats)
    return ops


def ops_for(record: r.Record) -> list[Op]:
    """The statements that store one record."""
    match record:
        case r.ActionApplied():
            return [log_action(record.code, record.match_id, record.round, record.seq, record.seat, record.action,
                               record.client_id)]
        case r.RoomOpened():
            return [create_room(record.code, name=record.name, edition=record.edition, public=record.public,
                                max_seats=record.max_seats, target=record.target, options=record.options)]
        case r.RoomChanged():
            return [update_room(record.code, status=record.status, host=record.host)]
        case r.OptionsChanged():
            return [update_room(record.code, options=record.options)]
        case r.GameChanged():
            return [update_room(record.code, edition=record.edition, max_seats=record.max_seats, target=record.target)]
        case r.SeatsChanged():
            return put_seats(record.code, record.seats)
        case r.MatchStarted():
            return start_match(record.code, record.match_id, number=record.number, edition=record.edition,
                               options=record.config, target=record.target, seed=record.seed,
                               players=list(record.players), blitz_deadline=record.blitz_deadline)
        case r.RoundStarted():
            return [start_round(record.match_id, record.number, record.seed, record.dealer, record.secret,
                                record.commitment)]
        case r.RoundFinished():
            return finish_round(record.match_id, record.number, record.winner, record.points, record.totals,
                                record.cards_left, [record.seat_points(s) for s in range(len(record.totals))])
        case r.MatchFinished():
            return finish_match(record.code, record.match_id, record.winner)
        case r.ChatPosted():
            return [add_chat(record.code, record.seat, record.name, record.text, record.client_id, record.sender)]
        case r.RoomClosed():
            return [update_room(record.code, status="closed")]
    raise TypeError(f"not a record: {record!r}")


def actions_last(ops: list[Op]) -> list[Op]:
    """The batch's action rows after everything else, in their order: one ``executemany`` for all
    of them instead of one round trip per run of them between other rooms' statements.  Safe in
    one transaction: no statement depends on an action row, and action rows depend only on
    match rows, which come before them either way."""
    actions = [op for op in ops if op[0] is INSERT_ACTION]
    if not actions or len(actions) == len(ops):
        return ops
    return [op for op in ops if op[0] is not INSERT_ACTION] + actions


def refused_for_content(err: BaseException) -> bool:
    """A failure caused by the rows themselves (SQLSTATE class 22, e.g. a NUL in a text on
    Postgres, or a string no encoder can write), not by the database or the connection."""
    orig = getattr(err, "orig", None)
    return (isinstance(err, DataError | UnicodeError) or isinstance(orig, UnicodeError)
            or str(getattr(orig, "sqlstate", None) or "").startswith("22"))


def let_go(err: BaseException | None) -> None:
    """Drop the tracebacks of an error handled and retried (its causes' too).  Their frames
    hold the error itself (SQLAlchemy's handler keeps it in a local), with the statements and
    rows of the try: a cycle per retry that only the collector frees, and a busy server does
    not run it (app/gc_policy.py)."""
    seen: set[int] = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        err.__traceback__ = None
        err = err.__cause__ or err.__context__
