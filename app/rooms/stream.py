"""One numbered stream of state frames (a seat's, a spectator's or a screen's), and the frame observer."""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any, Protocol

from .frames import dumps
from .ports import Outlet
from .room_state import RoomState


class FrameObserver(Protocol):
    """Called for every frame the room sends, when it is first sent (replays after a reconnect are
    byte-identical copies): (room code, seat or None, frame text, state, the seat's full view
    after a state frame or None; ``screen``: sent to a big screen, D-14).  For audits and the
    leak/desync tests."""

    def __call__(self, code: str, seat: int | None, text: str, state: RoomState,
                 view: dict[str, Any] | None, screen: bool = False) -> None: ...


@dataclass
class Stream:
    """The state frames of one seat (or one spectator socket): numbered, diffed, replayable."""

    outlet: Outlet | None = None
    seq: int = 0
    view: dict[str, Any] | None = None  # the view as of ``seq``: what the client holds
    buffer: deque[tuple[int, str]] = field(default_factory=deque)
    buffered: int = 0  # characters held in ``buffer``
    # Client id -> the answer sent (None: answered before a restart; the answer is an ack).
    replies: OrderedDict[str, str | None] = field(default_factory=OrderedDict)
    # Set when a socket attaches: the next publish sends it a snapshot, or resumes from here.
    fresh: bool = False
    resume_from: int | None = None
    synced: int = -1  # the publish that last built the view ``view`` shows (``Streams.published``)
    acks_in_patch: bool = False  # its socket asked for a command's ack in the patch it caused (PROTOCOL.md)
    # A spectator of a delayed room: the timeline frame whose snapshot starts it (None: started).
    starts_at: int | None = None
    number: int = 0  # a spectator's number in the room ("Spectator 3" in the chat)
    address: str = ""  # a spectator's client address (spectators per address are bounded)
    screen: bool = False  # the host's big screen (screen.py): a spectator sent the table live (D-14)

    def answered(self, cid: str) -> str | None:
        """The answer already given to this id (a resend), or None when it is new."""
        if cid not in self.replies:
            return None
        text = self.replies[cid]
        return text if text is not None else dumps({"type": "ack", "id": cid, "seq": self.seq})
