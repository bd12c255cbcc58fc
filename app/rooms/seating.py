"""Seats: joining, names, leaving, removal by the host, bots, and who hosts.

Functions of the room's state that check before they change anything: a refusal raises
``RoomError`` with nothing half-done.  Seat numbers close up when someone leaves the
waiting room; once a match starts the room's seats are the engine's seats.  Only people
host: when the host goes, hosting passes to the longest-seated person.
"""

from __future__ import annotations

from app.bots import DEFAULT_LEVEL, LEVELS
from app.config import Settings

from . import records as rec
from .errors import RoomError
from .lookalike import confusable
from .room_state import OVER, WAITING, Player, RoomState, hash_token, new_token
from .text import clean_text


def clean_name(settings: Settings, name: str) -> str:
    name = clean_text(name)
    if not name:
        raise RoomError("bad_name", "Please choose a name.", 422)
    if len(name) > settings.name_max_chars:
        raise RoomError("bad_name", f"Names are at most {settings.name_max_chars} characters.", 422,
                        max=settings.name_max_chars)
    return name


def check_name_free(st: RoomState, name: str, me: Player | None) -> None:
    """Refuse a name that looks like another seat's, whatever its case or alphabet
    (app/rooms/lookalike.py)."""
    taken = next((p for p in st.players if p is not me and confusable(p.name, name)), None)
    if taken is not None:
        raise RoomError("name_taken", f"Someone here is already called {taken.name}.", name=taken.name)


def check_free_seat(st: RoomState) -> None:
    if len(st.players) >= st.max_seats:
        raise RoomError("room_full", f"This room is full ({st.max_seats} seats).", seats=st.max_seats)


def require_host(st: RoomState, player: Player) -> None:
    if player.seat != st.host:
        raise RoomError("not_host", f"Only the host ({st.name_of(st.host)}) can do that.", host=st.host)


def join(st: RoomState, settings: Settings, name: str) -> tuple[Player, str]:
    """A person takes the next seat: the player and their bearer token (shown to them once)."""
    name = clean_name(settings, name)
    if st.status != WAITING:
        raise RoomError("room_started" if st.status != OVER else "room_finished",
                        "This game has already started; you can watch it." if st.status != OVER
                        else "This game has finished.")
    check_free_seat(st)
    check_name_free(st, name, None)
    token = new_token()
    player = Player(name=name, token_hash=hash_token(token), seat=len(st.players))
    st.players.append(player)
    if len(st.players) == 1 or st.players[st.host].bot:  # the first person hosts (bots never do)
        st.host = player.seat
    st.note("joined", seat=player.seat, name=name)
    return player, token


def add_bot(st: RoomState, host: Player, level: str | None = None) -> Player:
    """The host seats a bot of ``level`` (one of ``LEVELS``; None: the default)."""
    require_host(st, host)
    level = DEFAULT_LEVEL if level is None else level
    if level not in LEVELS:
        raise RoomError("bad_bot_level", f"A bot's level is one of: {', '.join(LEVELS)}.", 422,
                        levels=list(LEVELS))
    if st.status != WAITING:
        raise RoomError("room_started", "Bots can only be added before the game starts.")
    check_free_seat(st)
    n = 1  # the first "Bot n" that looks like no seated name (a person may be called "B0t 1")
    while any(confusable(p.name, f"Bot {n}") for p in st.players):
        n += 1
    name = f"Bot {n}"
    # A token nobody holds: the seat can never be connected to, only played by the room.
    bot = Player(name=name, token_hash=hash_token(new_token()), seat=len(st.players), bot=True, auto=True,
                 level=level)
    st.players.append(bot)
    st.note("bot_added", seat=bot.seat, bot=name, by=host.seat, level=level)
    return bot


def rename(st: RoomState, settings: Settings, player: Player, name: str) -> None:
    name = clean_name(settings, name)
    check_name_free(st, name, player)
    old, player.name = player.name, name
    st.note("renamed", seat=player.seat, old=old, name=name)


def remove(st: RoomState, player: Player) -> None:
    """Take a seat away (before a match): the seats close up, and hosting stays with a person."""
    host = st.players[st.host] if st.players else None
    st.players.remove(player)
    st.renumber()
    if st.private:
        # Only after a match can a seat hold private log entries (seats are never removed
        # during one).  They are kept by the match's seat numbers, which the room's no longer
        # follow once the seats close up: kept, the leaver's entries would be shown to the next
        # seat up, and everyone else's would name the wrong seat.  A finished match needs none.
        st.private.clear()
    if host is player or host is None:
        st.host = next_host(st)
    else:
        st.host = host.seat


def next_host(st: RoomState) -> int:
    """The longest-seated person (a bot never hosts); seat 0 if only bots are left."""
    return next((p.seat for p in st.players if not p.bot), 0)


def seats_record(st: RoomState) -> rec.SeatsChanged:
    return rec.SeatsChanged(st.code, tuple(rec.SeatInfo(p.seat, p.name, p.token_hash, p.bot, p.level)
                                         for p in st.players))


def room_record(st: RoomState) -> rec.RoomChanged:
    return rec.RoomChanged(st.code, st.status, st.host)
