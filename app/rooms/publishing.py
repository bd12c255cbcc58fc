"""The *publish* step: what one stored message shows, in the one order every client relies on.

Once a message's records are stored (``storing.py``), its outcome is shown: ``Streams.publish``
sends the seats' and spectators' views as patches, then the frames the message made, then the
sender's answer (an ``ack`` with its stream's ``seq``, or its error), which it owns; then come
the sockets the message closes and the replies to whoever asked over HTTP.  The game views the
publish built are returned for the bots' next move (``bot_moves.py``), so none is built twice.
Nothing here runs for a message whose records were not stored.
"""

from __future__ import annotations

from typing import Any

from .outcome import Outcome
from .streams import Streams


def publish(streams: Streams, out: Outcome) -> dict[int | None, Any] | None:
    """The one publish of a message: views, frames and the answer, then closes and results.
    Returns the game views built (None: none was), for the bots."""
    games = streams.publish(out)
    for outlet, code, reason in out.closing:
        outlet.close(code, reason)
    for future, value in out.results:
        if not future.done():  # the asker may have gone (an HTTP client hung up)
            future.set_result(value)
    return games
