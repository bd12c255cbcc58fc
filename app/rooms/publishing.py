"""The *publish* step: what one stored message shows, in the one order every client relies on.

Once a message's records are stored (``storing.py``), its outcome is shown: the seats' and
spectators' views as patches (``streams.py``), then the frames it made, then the sender's
answer (an ``ack`` with its stream's ``seq``, or its error), then the sockets it closes and the
replies to whoever asked over HTTP.  Nothing here runs for a message whose records were not
stored.
"""

from __future__ import annotations

from .frames import dumps
from .outcome import Answer, Outcome
from .streams import Streams


def publish(streams: Streams, out: Outcome) -> None:
    """The one publish of a message: views, then frames and answers, then closes and results."""
    if out.dirty:
        acked = streams.publish(out.answer.in_patch_ack() if out.answer is not None else None)
        if out.answer is not None:
            out.answer.in_patch = acked  # then one frame, not two
    elif out.watch:
        streams.publish_spectators()
    streams.release()  # delayed spectator frames that are due by now
    for outlet, seat, text in out.frames:
        streams.emit(outlet, seat, text)
    if out.answer is not None:
        send_answer(streams, out.answer)
    for outlet, code, reason in out.closing:
        outlet.close(code, reason)
    for future, value in out.results:
        if not future.done():  # the asker may have gone (an HTTP client hung up)
            future.set_result(value)


def send_answer(streams: Streams, a: Answer) -> None:
    """The sender's answer, remembered by its id; sent as a frame of its own unless its patch
    carried it."""
    if a.error is not None:
        text = dumps(a.error)
    else:
        seq = a.stream.seq if a.stream is not None else 0
        text = dumps({"type": "ack", "id": a.cid, "seq": seq})
    if a.cid is not None and a.token_hash is not None:
        streams.remember(a.token_hash, a.cid, text)  # a resend of the id gets a plain ack
    if not a.in_patch:
        streams.emit(a.outlet, a.seat, text)
