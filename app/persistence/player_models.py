"""The players' tables: who a browser is on this server, which seats were theirs, and what
their finished matches left behind (history, stats and a rating per edition).

A player is known by a random secret their browser holds (an HttpOnly cookie); only its
SHA-256 is stored.  Their public id (``players.id``) names them in pages and links and proves
nothing.  Deleting a player deletes every row here that is theirs (``ON DELETE CASCADE``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String, false, func
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class PlayerRow(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # public: in URLs and pages
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class PlayerKeyRow(Base):
    """A browser's secret for a player (its SHA-256): one per browser the player uses."""

    __tablename__ = "player_keys"

    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class PlayerSeatRow(Base):
    """A seat taken by a player: the seat's token hash, linked to who took it."""

    __tablename__ = "player_seats"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    room_code: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class PlayerCodeRow(Base):
    """A one-time code that moves a player to another browser (its hash; the code is shown once)."""

    __tablename__ = "player_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SettledMatchRow(Base):
    """A finished match whose players' history, stats and ratings are written (once)."""

    __tablename__ = "settled_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    edition: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool]  # whether it moved ratings (docs/STATS.md says when)
    reason: Mapped[str | None] = mapped_column(String(32))  # why not, when it did not
    settled_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class PlayerMatchRow(Base):
    """One player's part in one finished match: their history line, the figures their stats
    add up, and their rating before and after (so that ratings can be recomputed)."""

    __tablename__ = "player_matches"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True,
                                          index=True)
    seat: Mapped[int]
    edition: Mapped[str] = mapped_column(String(16), index=True)
    settled: Mapped[bool] = mapped_column(server_default=false())  # the figures below are written
    counted: Mapped[bool] = mapped_column(server_default=false())  # in the stats (docs/STATS.md)
    reason: Mapped[str | None] = mapped_column(String(32))  # why not counted
    placement: Mapped[int | None]  # 1 = won; equal totals share a place
    won: Mapped[bool] = mapped_column(server_default=false())
    points: Mapped[int] = mapped_column(server_default="0")  # the final total
    rounds: Mapped[int] = mapped_column(server_default="0")  # rounds played
    rounds_won: Mapped[int] = mapped_column(server_default="0")
    round_points: Mapped[int] = mapped_column(server_default="0")  # points won over those rounds
    catches_made: Mapped[int] = mapped_column(server_default="0")
    catches_suffered: Mapped[int] = mapped_column(server_default="0")
    challenges_won: Mapped[int] = mapped_column(server_default="0")
    mu_before: Mapped[float | None]
    sigma_before: Mapped[float | None]
    mu_after: Mapped[float | None]
    sigma_after: Mapped[float | None]
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The seat's moves its sender sent, and those sent within an instant of the room's last change
    # (app/rooms/think_time.py): the by-hand check of app/persistence/farm_guard.py.  Null: not timed.
    moves_sent: Mapped[int | None]
    moves_instant: Mapped[int | None]


class PlayerRatingRow(Base):
    """A player's current rating in one edition (the last ``mu_after``/``sigma_after``)."""

    __tablename__ = "player_ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    edition: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float]
    sigma: Mapped[float]
    ordinal: Mapped[float] = mapped_column(index=True)  # mu - 3 sigma: what the leaderboard sorts by
    matches: Mapped[int]  # rated matches
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
