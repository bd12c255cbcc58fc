"""The *handle* step for a client's command: who sent it, and where it goes.

A socket's command reaches the room as one ``Command`` message (``actor.py`` hands it here).
A ping is answered at once; a spectator may only chat and react (a screen not even that,
D-14); a seat must still be held by its token; a command whose id was answered already gets
the same answer again, never a second apply (a resend after a reconnect).  Only then does the
command table (``handlers.py``) change the room, and its refusal becomes the sender's answer.
"""

from __future__ import annotations

from .errors import RoomError
from .frames import dumps
from .handlers import COMMAND_HANDLERS, REFUSALS, spectator_chat
from .inbox import Command
from .outcome import Answer, Outcome, error_frame
from .parts import RoomParts
from .reactions import spectator_react


def handle_command(parts: RoomParts, msg: Command, out: Outcome) -> None:
    """What ``msg`` does, put in ``out``: its records, its answer, its frames."""
    out.resolve(msg.done, None)
    body = msg.body
    if body.type == "ping":
        out.frames.append((msg.outlet, None, dumps({"type": "pong", "id": body.id})))
        return
    streams = parts.streams
    player = parts.player(msg.seat_token)
    watching = streams.spectators.get(msg.outlet) if msg.seat_token is None else None
    if watching is not None and body.type in ("chat", "react") and not watching.screen:  # (screens: D-14)
        out.answer = Answer(msg.outlet, None, body.id, None, watching)
        try:
            if body.type == "chat":
                spectator_chat(parts, watching.number, body, out)
            else:
                spectator_react(parts, watching.number, body, out)
        except RoomError as err:
            out.answer.error = error_frame(body.id, err.code, err.message, err.params)  # as a seat's refusal
        return
    if player is None:
        code, text = (("not_seated", "You no longer have a seat here.") if msg.seat_token is not None
                      else ("spectator", "Spectators can only watch."))
        out.answer = Answer(msg.outlet, None, body.id, None, None, error_frame(body.id, code, text))
        return
    stream = streams.seats.get(player.token_hash)
    if body.id is not None and stream is not None:
        again = stream.answered(body.id)
        if again is not None:
            # A resend (typically after a reconnect): the same answer, never a second apply.
            out.frames.append((msg.outlet, player.seat, again))
            return
    out.answer = Answer(msg.outlet, player.seat, body.id, player.token_hash, stream)
    try:
        COMMAND_HANDLERS[body.type](parts, player, body, out)
    except REFUSALS as err:
        out.answer.error = error_frame(body.id, err.code, err.message, err.params)
