"""The frame audit: the server-side observer of every frame a test server sends (C-16).

It sees each frame as it is sent, together with the room state at that instant, to check the
hidden-information rule (widened only by HR-31's open hands as they are at that instant, and
narrowed by HR-33's face-down cards, whose faces go to no one — their holder, and everyone
looking at an open hand, included: HX-15, D-13), and keeps each
seat's view digest so that clients can check their patched views against the server's.
"""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any, ClassVar

from app.engine.house.information import is_open
from app.engine.view_parts import ViewParts
from app.rooms.room_state import RoomState
from app.rooms.room_views import seat_views
from tests.waiting import until


def digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def card_ids(value: Any, out: set[int]) -> set[int]:
    """Every card id in a frame: card dicts, the ``card`` and ``more`` of actions (legal moves) and the
    ``cards`` of a batch offer (HR-8)."""
    if isinstance(value, dict):
        if "face" in value and isinstance(value.get("id"), int):
            out.add(value["id"])
        if "kind" in value and isinstance(value.get("card"), int) and "face" not in value:
            out.add(value["card"])
        if "kind" in value and "face" not in value:
            for key in ("more", "cards", "leads"):
                listed = value.get(key)
                if isinstance(listed, list):
                    out.update(c for c in listed if isinstance(c, int))
        for v in value.values():
            card_ids(v, out)
    elif isinstance(value, list):
        for v in value:
            card_ids(v, out)
    return out


def private_entries(value: Any, out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        # A log entry (numbered ``n``), not the engine event inside an export or a history.
        if value.get("kind") in ("drew", "passed", "hand_revealed", "turned_up") and "n" in value:
            out.append(value)
        for v in value.values():
            private_entries(v, out)
    elif isinstance(value, list):
        for v in value:
            private_entries(v, out)
    return out


class FrameAudit:
    """Server-side observer of every outbound frame (runs in the server's thread).

    Every audit ever made is kept in ``FrameAudit.all``: ``tests/conftest.py`` fails any test
    during which a frame broke the hidden-information rule, whichever server sent it.
    """

    all: ClassVar[list[FrameAudit]] = []

    def __init__(self) -> None:
        FrameAudit.all.append(self)
        self.lock = threading.Lock()
        self.views: dict[tuple[str, int, int], str] = {}  # (room, seat, seq) -> digest of the view
        self.sent: dict[tuple[str, int | None], set[str]] = {}  # exact texts sent, by seat
        self.violations: list[str] = []
        self.stale: list[str] = []  # views sent that differ from a view built from scratch
        self.frames = 0
        # Frames sent to the host's big screens (D-14), audited as a spectator's — no hand, no
        # face-down face — and, being live, each against the room as it is when sent.
        self.screen_frames = 0
        self.answered: set[tuple[str, str]] = set()  # (room, client id) the room has answered
        # Texts no frame may ever carry (players' browser secrets, tests/players): a violation if one does.
        self.secrets: set[str] = set()

    def __call__(self, code: str, seat: int | None, text: str, state: RoomState,
                 view: dict[str, Any] | None, screen: bool = False) -> None:
        frame = json.loads(text)
        problems = self.check(seat, frame, state)
        if screen:
            problems += self.check_screen(seat, frame, view, state)
        problems += [f"a secret ({secret[:4]}…) sent in a {frame.get('type')} frame"
                     for secret in list(self.secrets) if secret in text]
        # The room keeps unchanged view parts between builds (ViewParts): one kept too long would
        # show a seat something that is no longer so, in patches and snapshots alike.
        stale = view is not None and view != seat_views(state, (seat,), ViewParts())[seat]
        with self.lock:
            self.frames += 1
            self.screen_frames += screen
            self.sent.setdefault((code, seat), set()).add(hashlib.sha256(text.encode()).hexdigest())
            if view is not None and seat is not None:
                self.views[(code, seat, frame["seq"])] = digest(view)
            who = "a screen" if screen else f"seat {seat}"
            self.violations.extend(f"{code} {who}: {p}" for p in problems)
            if stale:
                self.stale.append(f"{code} seat {seat}: a {frame.get('type')} frame (seq {frame.get('seq')})")
            if frame.get("type") in ("ack", "error") and frame.get("id"):
                self.answered.add((code, frame["id"]))

    @staticmethod
    def check(seat: int | None, frame: dict[str, Any], state: RoomState) -> list[str]:
        m = state.match
        if m is None:
            return []
        rnd = m.round
        problems: list[str] = []
        if rnd.winner is None:  # once a round is scored every hand is shown to all (C-16)
            reveal = rnd.reveal
            hidden = set(rnd.draw_pile)
            for cid in card_ids(frame, set()):
                if cid in hidden:
                    problems.append(f"card {cid} from the draw pile sent in a {frame.get('type')} frame")
                for other, hand in enumerate(rnd.hands):
                    if cid not in hand:
                        continue
                    # HR-33, HX-15, D-13: a face-down card's face goes to no one — its holder, the
                    # other seats and the spectators alike, inside an open hand (HR-31) too.
                    if cid in rnd.face_down.by_seat[other]:
                        whose = "its holder" if other == seat else f"seat {seat}" if seat is not None else "a spectator"
                        problems.append(f"seat {other}'s face-down card {cid} shown to {whose} "
                                        f"in a {frame.get('type')} frame")
                        continue
                    if other == seat:
                        continue
                    if reveal is not None and reveal[0] == seat and reveal[1] == other and cid in reveal[2]:
                        continue  # CL-6 / PP-6: the challenged hand, shown to the challenger
                    if is_open(rnd, other):
                        continue  # HR-31, HX-15: a hand of few cards is face up for all, spectators too
                    problems.append(f"card {cid} held by seat {other} sent in a {frame.get('type')} frame")
            # Committed shuffles: only the secret's hash is published while the round is played; the
            # secret itself (which deals the whole round) goes out once the round is over.  (A short
            # seed some test chose, like "1", would be found in any frame: rooms draw 32 hex digits.)
            secret = m.round_secret(m.round_no)
            if len(secret) >= 16 and secret in json.dumps(frame):
                problems.append(f"round {m.round_no}'s secret sent in a {frame.get('type')} frame before it ended")
        for entry in private_entries(frame, []):
            kind = entry["kind"]
            if seat is None or (kind in ("drew", "turned_up") and entry["seat"] != seat) or (
                    kind == "passed" and seat not in (entry["seat"], entry["to"])):
                problems.append(f"private {kind} entry {entry} sent")
        return problems

    @staticmethod
    def check_screen(seat: int | None, frame: dict[str, Any], view: dict[str, Any] | None,
                     state: RoomState) -> list[str]:
        """D-14: a screen is no seat, has no hand or private log, and is shown the public view as it
        is now (the spectators' delay does not apply to it)."""
        problems = []
        if seat is not None:
            problems.append(f"a frame to a screen sent as seat {seat}'s")
        kind = frame.get("type")
        shown = frame.get("view") if kind == "snapshot" else None
        if shown is not None and (shown.get("you") is not None or "private" in shown):
            problems.append("a screen's snapshot names a seat or carries a private log")
        if shown is not None and (shown.get("game") or {}).get("hand") is not None:
            problems.append("a hand sent to a screen")
        if view is not None and view != seat_views(state, (None,), ViewParts())[None]:
            problems.append(f"a {kind} frame to a screen that is not the public table as it is now")
        return problems

    def sent_to(self, code: str, seat: int | None, text: str) -> bool:
        with self.lock:
            return hashlib.sha256(text.encode()).hexdigest() in self.sent.get((code, seat), set())

    async def until_answered(self, code: str, cid: str, timeout: float = 10) -> None:
        """Wait until the room has handled a message (its answer is on the way)."""
        await until(lambda: (code, cid) in self.answered, timeout, every=0.001, what=f"{cid}'s answer")

    def view_digest(self, code: str, seat: int, seq: int) -> str | None:
        with self.lock:
            return self.views.get((code, seat, seq))
