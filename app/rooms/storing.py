"""The *commit* step: a message's records stored in one write, and what a refused write undoes.

``commit`` is the room's one commit point: nothing a message changed is shown before its
records are stored (``publishing.py`` runs after it, and the bots' next move after that).  A
write that fails for good stops the room (``actor.py``), which the registry rebuilds from the
store.  A write the store refuses for what it holds (``Unstorable``: that message alone, not the
database) is undone in place by ``RefusedWrites``: the state goes back to what is stored, as a
rebuild would, but the sockets stay open and only the sender hears of it.
"""

from __future__ import annotations

import logging

from .errors import RoomError
from .inbox import Message, refuse
from .outcome import Outcome, error_frame
from .parts import RoomParts
from .ports import Store, Unstorable
from .restore import restore_state

log = logging.getLogger("app.rooms")

# Writes refused for their content that a room reverts in place; more in the window: rebuilt.
REVERTS_MAX, REVERTS_WINDOW_S = 10, 10.0
NOT_STORED = "That could not be stored, so it did not happen."


async def commit(store: Store, room: str, out: Outcome) -> bool | None:
    """True when stored; None when the store refused the records for what they hold."""
    if not out.records:
        return True
    try:
        await store.write(*out.records, room=room)
    except Unstorable:
        return None
    except Exception:
        log.exception("room %s: could not store %d record(s)", room, len(out.records))
        return False
    return True


class RefusedWrites:
    """One room's writes refused for their content, and the state put back after each."""

    def __init__(self, parts: RoomParts, store: Store) -> None:
        self.parts = parts
        self.store = store
        self.times: list[float] = []  # when writes refused for their content were reverted

    async def revert(self, msg: Message, out: Outcome) -> bool:
        """A write refused for its content: its message was handled in memory but never stored
        nor shown.  The state goes back to what is stored (as a rebuild would, but in place:
        the sockets stay open), the sender alone is told, and everyone else sees no change.
        False (then the room is rebuilt as after any failed write) if that cannot be done."""
        parts = self.parts
        state = parts.state
        now = state.clock.monotonic()
        self.times = [t for t in self.times if now - t < REVERTS_WINDOW_S] + [now]
        if len(self.times) > REVERTS_MAX:  # refused again and again (a bot's move, say): rebuild
            return False
        try:
            stored = await self.store.load_room(state.code)
            if stored is None:
                return False
            fresh = restore_state(stored, parts.settings, state.clock)
            before = {p.token_hash: p for p in state.players}
            for p in fresh.players:  # who is here, ready or played by a bot is not stored
                was = before.get(p.token_hash)
                if was is not None:
                    p.connected, p.ready = was.connected, was.ready
                    p.away_since, p.auto = was.away_since, was.auto
            parts.automation.cancel()
            state.take(fresh)  # the one state object every part of the room holds
            if out.answer is not None:
                out.answer.error = error_frame(out.answer.cid, "not_stored", NOT_STORED)
            # Everyone's views (unchanged for all: nothing of the message was shown), and the sender's error.
            parts.streams.publish(Outcome(dirty=True, answer=out.answer))
        except Exception:
            log.exception("room %s: could not go back to its stored state", state.code)
            return False
        log.warning("room %s: a %s was refused by the store for its content; the room goes on", state.code,
                    type(msg).__name__)
        refuse(msg, RoomError("not_stored", NOT_STORED, 422))
        return True
