"""Players without accounts: made, found by their browser's secret, renamed, moved to another
browser with a one-time code, and deleted.

Secrets and codes are random (``secrets``) and only their SHA-256 is stored: a stolen database
names nobody's browser.  Everything is in the shared database, so every node of a cluster
knows the same players, and a code made on one node is claimed on another.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import bindparam, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from .board import Ranking, met_by, recount_opponents
from .board_places import forget, take_turn
from .models import ChatRow, MatchBuildRow, MatchRow, SeatRow
from .player_models import PlayerCodeRow, PlayerKeyRow, PlayerMatchRow, PlayerRow, PlayerSeatRow

SECRET_BYTES = 32  # 256 bits: a player's browser secret cannot be guessed
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's: no I, L, O or U to misread
CODE_LENGTH = 8  # 40 bits, claimable only a few times a minute per address, for a few minutes
FORMER_PLAYER = "a former player"  # what stored matches call a player who deleted themselves

# Built once, the lists bound when they run: an ``in_`` over a list built per call leaves a
# reference cycle of SQLAlchemy's that a busy server never collects (app/gc_policy.py).
_SEATS_OF = select(SeatRow.room_code, SeatRow.seat, SeatRow.name).where(
    SeatRow.token_hash.in_(bindparam("tokens", expanding=True)))
_UNBUILD = delete(MatchBuildRow).where(MatchBuildRow.match_id.in_(bindparam("ids", expanding=True)))
_UNNAME_SEATS = update(SeatRow).where(SeatRow.token_hash.in_(bindparam("tokens", expanding=True))).values(
    name=FORMER_PLAYER)
_UNNAME_CHAT = update(ChatRow).where(ChatRow.sender.in_(bindparam("tokens", expanding=True))).values(
    name=FORMER_PLAYER)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normal_code(code: str) -> str:
    """A code as typed (any case, dashes, spaces, O for 0, I or L for 1) in its one spelling."""
    code = code.upper().replace("-", "").replace(" ", "")
    return code.translate(str.maketrans("OIL", "011"))


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    created_at: str | None


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)  # SQLite forgets the zone


class PlayerStore:
    def __init__(self, engine: AsyncEngine, ranking: Ranking | None = None) -> None:
        self.engine = engine
        self.ranking = ranking or Ranking()  # the leaderboard's rule, for the standings a deletion changes

    async def create(self, name: str) -> tuple[Player, str]:
        """A new player and the secret their browser keeps (returned once, never stored)."""
        pid, secret = secrets.token_urlsafe(9), secrets.token_urlsafe(SECRET_BYTES)
        async with self.engine.begin() as conn:
            await conn.execute(insert(PlayerRow).values(id=pid, name=name))
            await conn.execute(insert(PlayerKeyRow).values(secret_hash=digest(secret), player_id=pid))
        return Player(pid, name, _now().isoformat()), secret

    async def by_secret(self, secret: str | None) -> Player | None:
        if not secret or len(secret) > 200:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(PlayerRow.id, PlayerRow.name, PlayerRow.created_at)
                                      .join(PlayerKeyRow, PlayerKeyRow.player_id == PlayerRow.id)
                                      .where(PlayerKeyRow.secret_hash == digest(secret)))).first()
        return Player(row.id, row.name, _aware(row.created_at).isoformat() if row.created_at else None) if row else None

    async def by_id(self, pid: str) -> Player | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(PlayerRow.id, PlayerRow.name, PlayerRow.created_at)
                                      .where(PlayerRow.id == pid))).first()
        return Player(row.id, row.name, _aware(row.created_at).isoformat() if row.created_at else None) if row else None

    async def rename(self, pid: str, name: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(name=name, seen_at=_now()))

    async def link_seat(self, pid: str, token_hash: str, room: str) -> None:
        """This seat (its token's hash) was taken by this player: its matches become theirs."""
        async with self.engine.begin() as conn:
            await conn.execute(insert(PlayerSeatRow).values(token_hash=token_hash, player_id=pid,
                                                                      room_code=room))

    async def new_code(self, pid: str, valid_s: float) -> tuple[str, datetime]:
        """A one-time code that lets another browser be this player, until it expires."""
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        expires = _now() + timedelta(seconds=valid_s)
        async with self.engine.begin() as conn:
            # The player's older codes, and everyone's expired ones, go: at most one is valid.
            await conn.execute(delete(PlayerCodeRow).where(or_(PlayerCodeRow.player_id == pid,
                                                               PlayerCodeRow.expires_at < _now())))
            await conn.execute(insert(PlayerCodeRow).values(code_hash=digest(code), player_id=pid,
                                                                      expires_at=expires))
        return code, expires

    async def claim(self, code: str) -> tuple[Player, str] | None:
        """Use a code (once): the player it names and a new secret for this browser; None if the
        code is unknown, used or expired."""
        key = digest(normal_code(code))
        async with self.engine.begin() as conn:
            # Deleting it is what claims it: of two browsers racing with one code, one deletes a row.
            row = (await conn.execute(delete(PlayerCodeRow).where(PlayerCodeRow.code_hash == key)
                                      .returning(PlayerCodeRow.player_id, PlayerCodeRow.expires_at))).first()
            if row is None or _aware(row.expires_at) < _now():
                return None
            secret = secrets.token_urlsafe(SECRET_BYTES)
            await conn.execute(insert(PlayerKeyRow).values(secret_hash=digest(secret),
                                                                     player_id=row.player_id))
        player = await self.by_id(row.player_id)
        return (player, secret) if player is not None else None

    async def forget_browser(self, secret: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(PlayerKeyRow).where(PlayerKeyRow.secret_hash == digest(secret)))

    async def delete(self, pid: str) -> int:
        """Delete a player: their name leaves every stored match (``FORMER_PLAYER`` instead), and
        their history, stats and ratings go.  Returns the number of matches renamed."""
        async with self.engine.begin() as conn:
            await take_turn(conn)  # the standings and buckets below are a settlement's too: one at a time
            tokens = [t for (t,) in (await conn.execute(select(PlayerSeatRow.token_hash)
                                                        .where(PlayerSeatRow.player_id == pid))).all()]
            seats = (await conn.execute(_SEATS_OF, {"tokens": tokens})).all() if tokens else []
            # The matches they played: those of their history, and those of the rooms they sit in.
            played: dict[str, set[int]] = {}
            for match_id, seat in (await conn.execute(select(PlayerMatchRow.match_id, PlayerMatchRow.seat)
                                                      .where(PlayerMatchRow.player_id == pid))).all():
                played.setdefault(match_id, set()).add(seat)
            # A room's other matches (one being played, say) by seat, where that seat had their name.
            for room, seat, name in seats:
                for match_id, names in (await conn.execute(select(MatchRow.id, MatchRow.players)
                                                           .where(MatchRow.room_code == room))).all():
                    if isinstance(names, list) and seat < len(names) and names[seat] == name:
                        played.setdefault(match_id, set()).add(seat)
            for match_id, by_seat in played.items():
                stored = (await conn.execute(select(MatchRow.players).where(MatchRow.id == match_id))).scalar()
                if isinstance(stored, list):
                    renamed = [FORMER_PLAYER if i in by_seat else n for i, n in enumerate(stored)]
                    await conn.execute(update(MatchRow).where(MatchRow.id == match_id).values(players=renamed))
            if played:  # built exports and replays carry the old name: built again when asked for
                await conn.execute(_UNBUILD, {"ids": list(played)})
            if tokens:
                await conn.execute(_UNNAME_SEATS, {"tokens": tokens})
                await conn.execute(_UNNAME_CHAT, {"tokens": tokens})
            met = await met_by(conn, pid)  # their different opponents are one fewer
            await forget(conn, pid)  # off the board's buckets: their standing rows go with them
            await conn.execute(delete(PlayerRow).where(PlayerRow.id == pid))
            await recount_opponents(conn, met, self.ranking)
        return len(played)
