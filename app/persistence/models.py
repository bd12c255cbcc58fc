"""The schema, as SQLAlchemy 2 declarative models.  Migrations in migrations/ must match it.

What is stored is what a restart needs to put every room back exactly as it was — rooms,
seats, the match (config and seed) and its action log, from which the engine replays the
state — plus what people look back at: rounds, per-round scores and chat.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, LargeBinary, String, Text, UniqueConstraint, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class RoomRow(Base):
    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    edition: Mapped[str] = mapped_column(String(16))
    public: Mapped[bool]
    max_seats: Mapped[int]
    target: Mapped[int | None]
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # house rules and other room options
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting, playing, between, over, closed
    host: Mapped[int]
    match_id: Mapped[str | None] = mapped_column(String(32))  # the match being played, if any
    # With several nodes (app/cluster): the node that owns the room, and the fencing epoch,
    # raised each time the room changes hands.  Unused by a single process.
    owner: Mapped[str | None] = mapped_column(String(40), index=True)
    epoch: Mapped[int] = mapped_column(server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class NodeRow(Base):
    """A server process of a cluster, alive while its lease (on the database's clock) runs."""

    __tablename__ = "nodes"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    address: Mapped[str] = mapped_column(String(255))  # host:port where the proxy reaches it
    lease_until: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_code", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64))  # sha256 hex; the token itself is never stored
    is_bot: Mapped[bool] = mapped_column(default=False)
    bot_level: Mapped[str | None] = mapped_column(String(16), default=None)  # a bot's level; null for people


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), index=True)
    number: Mapped[int]  # 1 for the room's first match, 2 after a rematch, ...
    edition: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # the engine's MatchConfig, as JSON
    target: Mapped[int]
    seed: Mapped[str] = mapped_column(String(64))
    players: Mapped[list[str]] = mapped_column(JSON)  # names by seat when the match began
    status: Mapped[str] = mapped_column(String(16))  # playing, over, abandoned
    winner: Mapped[int | None]
    # HR-25: epoch seconds the match clock runs out, kept so that it survives restarts (null: no blitz).
    blitz_deadline: Mapped[float | None]
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RoundRow(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int]
    seed: Mapped[str] = mapped_column(String(80))
    dealer: Mapped[int]
    # The secret the round was dealt from (revealed when it ends) and its SHA-256, published at the
    # deal.  Both null for rounds dealt from the match seed, before commitments were published.
    secret: Mapped[str | None] = mapped_column(String(64))
    commitment: Mapped[str | None] = mapped_column(String(64))
    winner: Mapped[int | None]
    points: Mapped[int | None]
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    """The action log: every applied action, in the order the room applied it."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "seq"), Index("ix_actions_room", "room_code"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    round: Mapped[int]
    seq: Mapped[int]  # 1, 2, ... within the match
    seat: Mapped[int]
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The id the client sent the action with: a resend after a crash is answered, not applied again.
    client_id: Mapped[str | None] = mapped_column(String(64))
    epoch: Mapped[int | None]  # the room's ownership epoch it was written under (several nodes only)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class RoundScoreRow(Base):
    __tablename__ = "round_scores"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    points: Mapped[int]  # won in this round
    total: Mapped[int]  # running total after it
    cards_left: Mapped[int]


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None]
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    client_id: Mapped[str | None] = mapped_column(String(64))  # as for actions
    sender: Mapped[str | None] = mapped_column(String(64))  # the sender seat's token hash (ids are per seat)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class MatchBuildRow(Base):
    """A finished match's export or replay, built once and kept gzipped: it never changes, and
    every node serves the same bytes (app/web/match_builds.py)."""

    __tablename__ = "match_builds"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # export, replay
    etag: Mapped[str] = mapped_column(String(64))  # SHA-256 hex of the uncompressed document
    size: Mapped[int]  # bytes, uncompressed
    body: Mapped[bytes] = mapped_column(LargeBinary)  # the document, gzipped
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ServerKeyRow(Base):
    """The server's signing key (exports are signed with it), made once and shared by every node."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)  # "export"
    algorithm: Mapped[str] = mapped_column(String(16))  # Ed25519
    private_key: Mapped[bytes] = mapped_column(LargeBinary)  # raw 32 bytes
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

