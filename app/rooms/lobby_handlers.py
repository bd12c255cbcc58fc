"""A room's seats and who is there: joining, bots added, seats renamed, left and removed; sockets
attached and detached (seats', spectators' and screens'); chat; the host's options for spectators.

Handlers of the inbox's messages (``on_*``) and of a seat's commands (``cmd_*``), dispatched by
the tables in ``handlers.py``.  The count of watchers is taken when its timer runs out
(``timer_handlers.on_count_watchers``), coalesced: ``watchers_changed`` sets that timer.
"""

from __future__ import annotations

from . import records as rec
from . import rematch, screen, seating
from .commands import AddBotCmd, ChatCmd, KickCmd, LeaveCmd, OptionsCmd, RenameCmd
from .errors import CLOSE_REMOVED, CLOSE_REPLACED, RoomError
from .inbox import AddBot, Attach, CountWatchers, Detach, GetSummary, Join, MatchShown
from .options import check_spectator_chat, check_spectator_delay
from .outcome import Outcome
from .parts import RoomParts
from .room_state import BETWEEN, OVER, PLAYING, WAITING, Player
from .text import clean_text


def seats_changed(room: RoomParts, out: Outcome) -> None:
    out.store(seating.seats_record(room.state), seating.room_record(room.state))


# ---------------------------------------------------------------------- seats and sockets


def on_join(room: RoomParts, msg: Join, out: Outcome) -> None:
    st = room.state
    player, token = seating.join(st, room.settings, msg.name)
    room.streams.add(player.token_hash)
    seats_changed(room, out)
    out.resolve(msg.reply, {"code": st.code, "seat": player.seat, "token": token, "name": player.name,
                            "host": player.seat == st.host, "ws_path": f"/ws/rooms/{st.code}"})


def on_get_summary(room: RoomParts, msg: GetSummary, out: Outcome) -> None:
    # As a spectator would know it: in a room with a delay, the summary of that long ago.
    out.resolve(msg.reply, room.reveal.summary(room.state.clock.monotonic()))


def on_match_shown(room: RoomParts, msg: MatchShown, out: Outcome) -> None:
    # Answered after this message's publish, which sends the spectators every frame due by now.
    out.resolve(msg.reply, room.reveal.match_shown(msg.match_id, room.state.clock.monotonic()))


def on_add_bot(room: RoomParts, msg: AddBot, out: Outcome) -> None:
    host = room.state.by_token(msg.token)
    if host is None:
        raise RoomError("bad_token", "That token does not belong to a seat in this room.", 401)
    bot = seating.add_bot(room.state, host, msg.level)
    room.streams.add(bot.token_hash, bot=True)
    seats_changed(room, out)
    out.resolve(msg.reply, {"code": room.state.code, "seat": bot.seat, "name": bot.name, "bot": True,
                            "level": bot.level})


def cmd_add_bot(room: RoomParts, player: Player, cmd: AddBotCmd, out: Outcome) -> None:
    bot = seating.add_bot(room.state, player, cmd.level)
    room.streams.add(bot.token_hash, bot=True)
    seats_changed(room, out)


def on_attach(room: RoomParts, msg: Attach, out: Outcome) -> None:
    if msg.token is None and msg.screen_key is not None:
        screen.on_attach_screen(room, msg, out)
        return
    if msg.token is None:
        screen.check_watcher_caps(room, msg.address)
        room.streams.watch(msg.outlet, msg.address)
        out.watch = True  # its snapshot; the seats' views do not change (the count follows, coalesced)
        watchers_changed(room)
        out.resolve(msg.reply, None)
        return
    player = room.state.by_token(msg.token)
    if player is None:
        raise RoomError("bad_token", "That token does not belong to a seat in this room.", 401)
    out.dirty = True
    replaced = room.streams.attach(player.token_hash, msg.outlet, msg.last_seq, msg.acks_in_patch)
    if replaced is not None:
        out.closing.append((replaced, CLOSE_REPLACED, "replaced by a newer connection"))
    player.connected = True
    player.away_since = None  # back: the seat is theirs again (the planning takes the bot off)
    out.resolve(msg.reply, player.seat)


def watchers_changed(room: RoomParts) -> None:
    """Spectators came or went: the count in everyone's view follows within the coalescing
    window, once, however many come and go meanwhile (not a publish to every seat per socket)."""
    room.streams.later("watchers", room.settings.watchers_coalesce_seconds, CountWatchers())


def on_detach(room: RoomParts, msg: Detach, out: Outcome) -> None:
    watcher = room.streams.spectators.get(msg.outlet)
    if watcher is not None and not watcher.screen:
        watchers_changed(room)
    player = room.player(room.streams.detach(msg.outlet))
    if watcher is not None and watcher.screen:
        screen.screen_left(room, out)
    if player is not None:
        player.connected = False
        player.away_since = room.state.clock.monotonic()
        out.dirty = True


def cmd_rename(room: RoomParts, player: Player, cmd: RenameCmd, out: Outcome) -> None:
    seating.rename(room.state, room.settings, player, cmd.name)
    seats_changed(room, out)


def _unseat(room: RoomParts, player: Player, reason: str, out: Outcome) -> None:
    seating.remove(room.state, player)
    outlet = room.streams.remove(player.token_hash)
    if outlet is not None:
        # Closed after this message's answer, so a leaving player still gets its ack.
        out.closing.append((outlet, CLOSE_REMOVED, reason))
    seats_changed(room, out)


def cmd_leave(room: RoomParts, player: Player, cmd: LeaveCmd, out: Outcome) -> None:
    st = room.state
    if st.status in (PLAYING, BETWEEN):
        raise RoomError("in_game", "You cannot leave a seat during a match; just close the game.")
    st.note("left", seat=player.seat, name=player.name)  # (seats close up: the name stays with it)
    _unseat(room, player, "you left the room", out)
    if st.status == OVER:
        rematch.settle(room, out)  # the others may all be ready for a rematch now


def cmd_kick(room: RoomParts, player: Player, cmd: KickCmd, out: Outcome) -> None:
    st = room.state
    seating.require_host(st, player)
    if st.status != WAITING:
        raise RoomError("in_game", "Seats can only be removed before the game starts.")
    if not cmd.seat < len(st.players) or cmd.seat == player.seat:
        raise RoomError("bad_seat", "Choose another seated player to remove.")
    target = st.players[cmd.seat]
    st.note("kicked", seat=cmd.seat, name=target.name, by=player.seat)
    _unseat(room, target, "removed by the host", out)


# ---------------------------------------------------------------------- chat and options


def chat_text(room: RoomParts, cmd: ChatCmd) -> str:
    """A chat line as it is kept, a seat's or a spectator's alike: cleaned, not empty, not too long."""
    text = clean_text(cmd.text)
    if not text:
        raise RoomError("bad_chat", "Say something.")
    limit = room.settings.chat_max_chars
    if len(text) > limit:
        raise RoomError("bad_chat", f"Chat messages are at most {limit} characters.", max=limit)
    return text


def cmd_chat(room: RoomParts, player: Player, cmd: ChatCmd, out: Outcome) -> None:
    text = chat_text(room, cmd)
    st = room.state
    st.add_chat(player.seat, text)
    out.store(rec.ChatPosted(st.code, player.seat, player.name, text, cmd.id, player.token_hash))


def spectator_chat(room: RoomParts, spectator: int, cmd: ChatCmd, out: Outcome) -> None:
    """A spectator's chat line, when the host allows it; ``spectator`` numbers them in the room."""
    st = room.state
    if not st.spectator_chat:
        raise RoomError("spectator_chat_off",
                        "Spectators can't chat in this room; the host can allow it.", 403)
    text = chat_text(room, cmd)
    name = f"Spectator {spectator}"
    st.add_chat(None, text, name, watcher=spectator)
    out.store(rec.ChatPosted(st.code, None, name, text, None, None))


def cmd_options(room: RoomParts, player: Player, cmd: OptionsCmd, out: Outcome) -> None:
    st = room.state
    seating.require_host(st, player)
    chat = st.spectator_chat if cmd.spectator_chat is None else check_spectator_chat(cmd.spectator_chat)
    delay = st.spectator_delay if cmd.spectator_delay is None else check_spectator_delay(cmd.spectator_delay)
    if (chat, delay) == (st.spectator_chat, st.spectator_delay):
        return
    st.spectator_chat, st.spectator_delay = chat, delay
    # The options as they are now replace the stored ones: a restart keeps them.
    out.store(rec.OptionsChanged(st.code, st.options().stored()))
