"""The players' tables: who a browser is on this server, which seats were theirs, and what
their finished matches left behind (history, stats and a rating per edition).

A player is known by a random secret their browser holds (an HttpOnly cookie); only its
SHA-256 is stored.  Their public id (``players.id``) names them in pages and links and proves
nothing.  Deleting a player deletes every row here that is theirs (``ON DELETE CASCADE``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, String, false, func, text
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
    # A player's history, newest first, read a page at a time (app/persistence/player_reads.py).
    __table_args__ = (Index("ix_player_matches_history", "player_id", "finished_at"),)

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


class PlayerStandingRow(Base):
    """A player's standing in one edition, kept as their matches settle (app/persistence/board.py):
    their counted matches' figures added up, their rating, the different players met in rated
    matches, and whether the leaderboard ranks them.  The leaderboard is these rows' index, read
    a page at a time; nothing is scanned per request."""

    __tablename__ = "player_standings"
    # The leaderboard of an edition: its ranked rows by ordinal, read backwards (best first).
    __table_args__ = (Index("ix_player_standings_board", "edition", "ranked", "ordinal", "player_id"),)

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    edition: Mapped[str] = mapped_column(String(16), primary_key=True)
    ranked: Mapped[bool] = mapped_column(server_default=false())  # on the leaderboard (docs/STATS.md's rule)
    mu: Mapped[float | None]  # the rating (player_ratings'), null until a rated match
    sigma: Mapped[float | None]
    ordinal: Mapped[float | None]
    matches: Mapped[int] = mapped_column(server_default="0")  # rated matches
    opponents: Mapped[int] = mapped_column(server_default="0")  # different players met in them
    counted: Mapped[int] = mapped_column(server_default="0")  # matches in the stats, and their figures:
    wins: Mapped[int] = mapped_column(server_default="0")
    rounds: Mapped[int] = mapped_column(server_default="0")
    rounds_won: Mapped[int] = mapped_column(server_default="0")
    round_points: Mapped[int] = mapped_column(server_default="0")
    catches_made: Mapped[int] = mapped_column(server_default="0")
    catches_suffered: Mapped[int] = mapped_column(server_default="0")
    challenges_won: Mapped[int] = mapped_column(server_default="0")
    streak: Mapped[int] = mapped_column(server_default="0")  # counted matches won in a row, up to the last
    longest_streak: Mapped[int] = mapped_column(server_default="0")
    latest_match: Mapped[str | None] = mapped_column(String(32))  # the newest settled match, counted or not
    latest_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The settled matches that moved no rating of theirs, by why ({"new_player": 1}): the line's
    # reason, else the match's (docs/STATS.md).  Kept here so that a player page need not read
    # their history for it (migration 0012).
    unrated: Mapped[dict[str, Any]] = mapped_column(JSON, server_default=text("'{}'"))


class LeaderboardBucketRow(Base):
    """How many ranked players of an edition have an ordinal in one bucket (a tenth of a point):
    a player's place is the buckets above theirs plus a range of their own (app/persistence/
    board_places.py), and the edition's ranked count their sum, neither a count of the board."""

    __tablename__ = "leaderboard_buckets"

    edition: Mapped[str] = mapped_column(String(16), primary_key=True)
    bucket: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)  # floor(ordinal * 10)
    players: Mapped[int] = mapped_column(server_default="0")


class RatedOpponentRow(Base):
    """Two players who met in a rated match of an edition (both ways): a player's different
    opponents are counted from these rows, added once each as matches settle."""

    __tablename__ = "rated_opponents"

    edition: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    opponent_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True,
                                             index=True)
