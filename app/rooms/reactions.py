"""Reactions: a small fixed set of emotes and stickers, shown at the sender's seat for a moment.

A reaction is table talk, not the game: nothing is stored, and the view keeps only the last
few (``reactions``: ``n``, ``seat`` — null for a spectator, with ``name`` —, ``emote``, ``at``),
numbered with the log and the chat so a client shows each one once.  Each sender may send
``UNO_REACTION_BURST`` within ``UNO_REACTION_WINDOW_SECONDS`` (``too_many_reactions`` past
that); a spectator may react only where spectators may chat (the host's switch).  Muting a
player is the reader's own choice, made in the browser.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from .commands import ReactCmd
from .errors import RoomError
from .outcome import Outcome
from .parts import RoomParts
from .room_state import Player

KEPT = 6  # reactions in the view: enough for a burst round the table, never a history


def _admit(room: RoomParts, sender: str) -> None:
    """The sender's rate: at most the burst within the window, or a refusal that changes nothing."""
    window, burst = room.settings.reaction_window_seconds, room.settings.reaction_burst
    now = room.state.clock.monotonic()
    times = room.state.reacted.setdefault(sender, deque())
    while times and now - times[0] >= window:
        times.popleft()
    if len(times) >= burst:
        raise RoomError("too_many_reactions", f"At most {burst} reactions every {window:g} seconds.", 429,
                        burst=burst, seconds=window)
    times.append(now)


def _show(room: RoomParts, entry: dict[str, Any], out: Outcome) -> None:
    st = room.state
    st.reactions.append({"n": st.number(), **entry, "at": round(st.clock.wall(), 3)})
    while len(st.reactions) > KEPT:
        st.reactions.popleft()
    out.dirty = True


def cmd_react(room: RoomParts, player: Player, cmd: ReactCmd, out: Outcome) -> None:
    _admit(room, player.token_hash)
    _show(room, {"seat": player.seat, "emote": cmd.emote}, out)


def spectator_react(room: RoomParts, spectator: int, cmd: ReactCmd, out: Outcome) -> None:
    """A spectator's reaction, where the host lets spectators chat; ``spectator`` numbers them."""
    if not room.state.spectator_chat:
        raise RoomError("spectator_chat_off", "Spectators can't react in this room; the host can allow it.", 403)
    _admit(room, f"spectator {spectator}")
    _show(room, {"seat": None, "name": f"Spectator {spectator}", "emote": cmd.emote}, out)
