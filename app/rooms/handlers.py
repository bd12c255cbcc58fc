"""What each message does to a room: two dispatch tables, one by inbox message, one by command.

A handler changes the room's state and notes in an ``Outcome`` what to store and what to
answer; it never writes to the store or a socket (the actor does both, in that order).
A refusal raises ``RoomError`` (or the engine's ``IllegalAction``) before anything changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.engine import ConfigError, IllegalAction, action_from_json

from . import blitz, play, reactions, rematch, screen, seating
from . import records as rec
from .commands import (
    ActionCmd,
    AddBotCmd,
    ChatCmd,
    KickCmd,
    LeaveCmd,
    OptionsCmd,
    RenameCmd,
    StartCmd,
    WhyCmd,
)
from .errors import CLOSE_REMOVED, CLOSE_REPLACED, RoomError
from .inbox import (
    AddBot,
    Attach,
    BlitzExpired,
    BotTurn,
    CountWatchers,
    Detach,
    GetSummary,
    Join,
    MatchShown,
    NextRound,
    RematchDue,
    ScreenLink,
    SpectatorsDue,
    Tick,
    TurnTimeout,
)
from .options import check_spectator_chat, check_spectator_delay
from .outcome import Outcome
from .parts import RoomParts
from .room_state import BETWEEN, OVER, PLAYING, WAITING, Player
from .text import clean_text

log = logging.getLogger("app.rooms")

REFUSALS = (RoomError, IllegalAction, ConfigError)  # what a command may be refused with


def seats_changed(room: RoomParts, out: Outcome) -> None:
    out.store(seating.seats_record(room.state), seating.room_record(room.state))


# ---------------------------------------------------------------------- inbox messages


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


def on_count_watchers(room: RoomParts, msg: CountWatchers, out: Outcome) -> None:
    count = room.streams.watching
    if count != room.state.watchers:
        room.state.watchers = count
        out.dirty = True


def on_spectators_due(room: RoomParts, msg: SpectatorsDue, out: Outcome) -> None:
    """Nothing changes: the publish step sends the delayed spectator frames that are due."""


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


def on_next_round(room: RoomParts, msg: NextRound, out: Outcome) -> None:
    st = room.state
    m = st.match
    if st.status == BETWEEN and m is not None and st.match_no == msg.match_no and m.round_no == msg.round_no:
        out.store(*play.next_round(st, room.races))


def move_for(room: RoomParts, player: Player, action: dict[str, Any], out: Outcome) -> bool:
    """The room moves for a seat (a bot, or the clock), through the same path as a person's action."""
    try:
        out.store(*play.act(room.state, room.races, room.settings, player, action_from_json(action)))
        return True
    except REFUSALS as err:
        log.warning("room %s: move %s for seat %d refused: %s", room.state.code, action, player.seat, err)
        room.automation.replan_bot()
        out.dirty = True
        return False


def on_bot_turn(room: RoomParts, msg: BotTurn, out: Outcome) -> None:
    st = room.state
    if msg.key != room.automation.bot.key or st.status != PLAYING or not 0 <= msg.seat < len(st.players):
        return  # stale: the table changed since the move was planned
    room.automation.bot.handle = None
    player = st.players[msg.seat]
    if player.auto:
        move_for(room, player, msg.action, out)


def on_turn_timeout(room: RoomParts, msg: TurnTimeout, out: Outcome) -> None:
    st = room.state
    m = st.match
    if msg.turn != room.automation.turn.key or st.status != PLAYING or m is None or m.round.pending is None:
        return
    room.automation.turn.cancel()  # whatever happens next gets a fresh clock
    seat = m.round.pending.seat
    player = st.players[seat]
    st.note("timeout", seat=seat)
    out.dirty = True
    action = room.automation.timeout_action(seat)
    if action is None or not move_for(room, player, action, out):
        return
    if action["kind"] == "draw" and st.status == PLAYING and st.match is m:
        # The minimal move: draw, then keep what was drawn (if it could have been played).
        pending = m.round.pending
        if pending is not None and pending.seat == seat:
            keep = room.automation.timeout_action(seat)
            if keep is not None and keep["kind"] == "keep":
                move_for(room, player, keep, out)


def on_tick(room: RoomParts, msg: Tick, out: Outcome) -> None:
    """Nothing to do but plan again (the actor always does, after every message)."""


MESSAGE_HANDLERS: dict[type, Callable[[RoomParts, Any, Outcome], None]] = {
    Join: on_join,
    GetSummary: on_get_summary,
    MatchShown: on_match_shown,
    AddBot: on_add_bot,
    Attach: on_attach,
    Detach: on_detach,
    NextRound: on_next_round,
    RematchDue: rematch.on_rematch_due,
    BotTurn: on_bot_turn,
    TurnTimeout: on_turn_timeout,
    BlitzExpired: blitz.on_blitz_expired,
    Tick: on_tick,
    CountWatchers: on_count_watchers,
    ScreenLink: screen.on_screen_link,
    SpectatorsDue: on_spectators_due,
}


# ---------------------------------------------------------------------- a seat's commands


def cmd_action(room: RoomParts, player: Player, cmd: ActionCmd, out: Outcome) -> None:
    try:
        out.store(*play.act(room.state, room.races, room.settings, player, cmd.action, cmd.id, sent=True))
    except IllegalAction:
        out.dirty = True  # a refused UNO! attempt still updates the race receipt
        raise


def cmd_why(room: RoomParts, player: Player, cmd: WhyCmd, out: Outcome) -> None:
    """The engine's reason an action would be refused now (a dimmed card tapped), without acting."""
    m = room.state.match
    if room.state.status != PLAYING or m is None:
        raise RoomError("not_playing", "No round is being played now.")
    if room.state.house.no_hints:  # HR-32
        raise RoomError("no_hints", "No hints at this table: the rules do not say why before you act.")
    refused = m.round.refusal(player.seat, cmd.action)
    if refused is not None:
        try:
            raise refused
        finally:  # the error's traceback holds this frame: not the error too, a cycle that holds the room
            del refused


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
        raise RoomError("spectator_chat_off", "Spectators can't chat in this room; the host can allow it.", 403)
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


def cmd_rename(room: RoomParts, player: Player, cmd: RenameCmd, out: Outcome) -> None:
    seating.rename(room.state, room.settings, player, cmd.name)
    seats_changed(room, out)


def cmd_ready(room: RoomParts, player: Player, cmd: Any, out: Outcome) -> None:
    if room.state.status == OVER:  # ready for a rematch (rematch.py)
        rematch.ready(room, player, cmd.ready, out)
        return
    player.ready = cmd.ready
    out.dirty = True
    if play.everyone_ready(room.state):
        out.store(*play.next_round(room.state, room.races))


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


def cmd_add_bot(room: RoomParts, player: Player, cmd: AddBotCmd, out: Outcome) -> None:
    bot = seating.add_bot(room.state, player, cmd.level)
    room.streams.add(bot.token_hash, bot=True)
    seats_changed(room, out)


def cmd_start(room: RoomParts, player: Player, cmd: StartCmd, out: Outcome) -> None:
    seating.require_host(room.state, player)
    if room.state.status != WAITING:
        raise RoomError("already_started", "The game has already started.")
    out.store(*play.start_match(room.state, room.races))


COMMAND_HANDLERS: dict[str, Callable[[RoomParts, Player, Any, Outcome], None]] = {
    "action": cmd_action,
    "chat": cmd_chat,
    "rename": cmd_rename,
    "ready": cmd_ready,
    "leave": cmd_leave,
    "kick": cmd_kick,
    "add_bot": cmd_add_bot,
    "start": cmd_start,
    "rematch": rematch.cmd_rematch,
    "options": cmd_options,
    "why": cmd_why,
    "react": reactions.cmd_react,
    "next_match": rematch.cmd_next_match,
}
