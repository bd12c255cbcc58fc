"""UNO! race receipts (C-12): who declared or caught first, and who came too late.

When a declaration or a catch wins, a public receipt goes into the room's log.  Later
attempts at the same target are refused by the engine (``too_late``) and added to the
receipt — at most one late attempt per seat per race, so a client repeating itself cannot
grow a receipt that every socket in the room is sent again.
"""

from __future__ import annotations

from typing import Any

from app.engine import Action, Event, IllegalAction

from .room_state import RoomState


class Races:
    def __init__(self, state: RoomState) -> None:
        self.state = state
        self.open: dict[int, dict[str, Any]] = {}  # the open receipt per target seat

    def clear(self) -> None:
        self.open.clear()

    def settled(self, events: list[Event], action: Action) -> None:
        """Open a receipt for a declaration or catch that just won."""
        for ev in events:
            if ev.kind == "uno" and action.kind == "declare_uno" and not ev.data.get("early"):
                self._open(ev.data["seat"], ev.data["seat"], "declare")
            elif ev.kind == "caught":
                self._open(ev.data["seat"], ev.data["by"], "catch")

    def _open(self, target: int, seat: int, how: str) -> None:
        attempts = [{"seat": seat, "action": how, "ok": True}]
        self.open[target] = self.state.note("uno_race", target=target, attempts=attempts)

    def too_late(self, seat: int, action: Action, err: IllegalAction) -> bool:
        """A refused attempt at a settled race: add it to the receipt (once per seat) and name the
        winner in ``err``.  Returns whether the receipt changed."""
        target = seat if action.kind == "declare_uno" else action.target
        entry = self.open.get(target) if target is not None else None
        if entry is None:
            return False
        first = entry["attempts"][0]
        who = self.state.name_of(first["seat"])
        did = "declared UNO" if first["action"] == "declare" else f"caught {self.state.name_of(entry['target'])}"
        err.message = f"Too late: {who} {did} first."
        err.params = {"by": first["seat"], "did": first["action"], "target": entry["target"]}
        if any(a["seat"] == seat for a in entry["attempts"]):
            return False
        attempts = [*entry["attempts"], {"seat": seat,
                                         "action": "declare" if action.kind == "declare_uno" else "catch",
                                         "ok": False}]
        new = {**entry, "attempts": attempts}
        if self.state.replace_entry(entry, new):
            self.open[entry["target"]] = new
        return True
