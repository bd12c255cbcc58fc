"""What handling one message changed: the records to store, and what to say once they are stored.

Handlers never write to the store or to a socket themselves.  They change the room's state
and note here what must be stored, whether views changed, and what to answer whom; the
actor then commits the records (the one commit point) and only after that publishes views,
answers and closes sockets.  What could not be stored is never shown to anyone.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from . import records as rec
from .ports import Outlet
from .stream import Stream


def error_frame(cid: str | None, code: str, message: str, params: dict[str, object] | None = None) -> dict[str, Any]:
    """An error frame: ``message`` is English for API users; clients word ``code`` with ``params``."""
    frame: dict[str, Any] = {"type": "error", "id": cid, "code": code, "message": message}
    if params:
        frame["params"] = params
    return frame


@dataclass
class Answer:
    """The ack or error owed to a client's command, sent after the publish (an ack names the seq
    of the sender's stream by then, so its view already shows the command's effects)."""

    outlet: Outlet
    seat: int | None
    cid: str | None
    token_hash: str | None  # the sender's seat, to remember the answer by id (None: not remembered)
    stream: Stream | None = None  # the sender's stream, whose seq an ack names
    error: dict[str, Any] | None = None  # an error frame; None: an ack
    in_patch: bool = False  # the ack went out in the patch the command caused (``acks_in_patch``)
    # (Which answers go in a patch, and how an ack is worded, is ``Streams.publish``'s: it owns the answer.)


@dataclass
class Outcome:
    records: list[rec.Record] = field(default_factory=list)
    dirty: bool = False  # views may have changed: publish
    watch: bool = False  # a spectator arrived, nothing else changed: publish to spectators only
    answer: Answer | None = None
    frames: list[tuple[Outlet, int | None, str]] = field(default_factory=list)  # sent as they are (pongs)
    closing: list[tuple[Outlet, int, str]] = field(default_factory=list)  # after the answer
    results: list[tuple[asyncio.Future[Any], Any]] = field(default_factory=list)  # HTTP callers' answers

    def store(self, *records: rec.Record) -> None:
        self.records.extend(records)
        self.dirty = True

    def resolve(self, future: asyncio.Future[Any], value: Any) -> None:
        self.results.append((future, value))
