"""The host's big screen (RULES.md D-14): a link with a key, and the sockets that come with it.

A screen is a viewer of the public table with no seat: it is sent the view every seat sees in
common (the spectators' view: the public table, HR-31's open hands with D-13's face-down cards
face down, never a hand) as it is now — a spectator's delay does not apply to it.  It comes in
with the key of the host's link; the key is kept with the room's options (stored, so the link
survives a restart or a move to another node as the room does) until the host revokes it, which
closes its screens at once.  A socket without the key is a spectator like any other.

Screens are spectator sockets that carry a flag (``Stream.screen``): they count against the
room's spectator cap and the per-address limits like any watcher, and may neither act nor chat.
"""

from __future__ import annotations

import secrets

from . import records as rec
from . import seating
from .errors import CLOSE_SCREEN_REVOKED, RoomError
from .frames import dumps
from .inbox import Attach, ScreenLink
from .outcome import Outcome, error_frame
from .parts import RoomParts

KEY_BYTES = 18  # 24 URL-safe characters: not to be guessed, short enough for a QR code


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def check_watcher_caps(room: RoomParts, address: str) -> None:
    """Room for one more viewer (a spectator or a screen), or the ``RoomError`` that says why not."""
    if len(room.streams.spectators) >= room.settings.spectators_per_room:
        # Every watcher costs the room a view and a patch per message: bounded, like seats.
        raise RoomError("too_many_spectators", "This room has as many spectators as it takes; "
                        "try again later.", 429)
    # Per address too, or one address could take every place and shut everyone else out.
    cap = room.settings.spectators_per_address
    if sum(1 for s in room.streams.spectators.values() if s.address == address) >= cap:
        raise RoomError("too_many_watching", f"At most {cap} spectators of one room from one address.", 429,
                        max=cap)


def key_matches(room: RoomParts, key: str) -> bool:
    held = room.state.screen_key
    return held is not None and secrets.compare_digest(held.encode(), key.encode())


def on_attach_screen(room: RoomParts, msg: Attach, out: Outcome) -> None:
    """A socket with the link's key: a screen; a wrong or revoked key is refused (the page then
    watches as a spectator)."""
    assert msg.screen_key is not None
    if not key_matches(room, msg.screen_key):
        raise RoomError("bad_screen_key", "This screen link is not (or no longer) valid; the host can make "
                        "a new one.", 403)
    check_watcher_caps(room, msg.address)
    room.streams.watch(msg.outlet, msg.address, screen=True)
    room.state.screens = room.streams.screens
    out.dirty = True  # its snapshot, and every seat's view says a screen is here (the controller layout)
    out.resolve(msg.reply, None)


def screen_left(room: RoomParts, out: Outcome) -> None:
    """A screen's socket went: the seats' views say how many are left."""
    if room.state.screens != room.streams.screens:
        room.state.screens = room.streams.screens
        out.dirty = True


def on_screen_link(room: RoomParts, msg: ScreenLink, out: Outcome) -> None:
    st = room.state
    host = st.by_token(msg.token)
    if host is None:
        raise RoomError("bad_token", "That token does not belong to a seat in this room.", 401)
    seating.require_host(st, host)
    if msg.create:
        if st.screen_key is None:
            st.screen_key = new_key()
            out.store(rec.OptionsChanged(st.code, st.options().stored()))
        out.resolve(msg.reply, st.screen_key)
        return
    if st.screen_key is not None:
        st.screen_key = None
        out.store(rec.OptionsChanged(st.code, st.options().stored()))
        close_screens(room, out)
    out.resolve(msg.reply, None)


def close_screens(room: RoomParts, out: Outcome) -> None:
    """Every screen's socket: told why (a typed error), then closed — once the revocation is stored."""
    text = dumps(error_frame(None, "screen_revoked", "The host turned this screen link off."))
    for outlet in room.streams.drop_screens():
        out.frames.append((outlet, None, text))
        out.closing.append((outlet, CLOSE_SCREEN_REVOKED, "screen link revoked"))
    screen_left(room, out)
