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

    def late(self, seat: int, err: IllegalAction) -> IllegalAction:
        """A refused attempt at a settled race: added to the receipt (once per seat), and the
        room's refusal, which names the winner; the engine says who won in ``err.params``."""
        target, by, did = err.params.get("target"), err.params.get("by"), err.params.get("did")
        if not isinstance(target, int) or target not in self.open:
            return err
        entry = self.open[target]
        if not any(a["seat"] == seat for a in entry["attempts"]):
            action = "declare" if seat == target else "catch"  # a seat never catches itself
            new = {**entry, "attempts": [*entry["attempts"], {"seat": seat, "action": action, "ok": False}]}
            if self.state.replace_entry(entry, new):
                self.open[target] = new
        if not isinstance(by, int):
            return err
        who = self.state.name_of(by)
        words = "declared UNO" if did == "declare" else f"caught {self.state.name_of(target)}"
        return IllegalAction(err.code, f"Too late: {who} {words} first.", **err.params)
