"""Engine events as log entries: their data, in a form safe to keep in a room's log.

The server does not put events into words.  A log entry is its ``kind`` and its data; the
browser client words every kind from its catalogues (static/js/narrate.js and
static/i18n/*.json), in the reader's language, and other clients can do the same from the
data (docs/PROTOCOL.md lists the kinds and their fields).

Log entries drop card ``id``s: an id is a handle for *acting* on a card you hold, and a
card seen on the table earlier may later be reshuffled into someone's hand.  Keeping ids
out of the log means a card id in any frame always names a card the reader may see now.
"""

from __future__ import annotations

from typing import Any


def scrub(value: Any) -> Any:
    """A deep copy of event data with every card's ``id`` removed (see the module doc)."""
    if isinstance(value, dict):
        # JSON object keys are strings: make them so now, so that views equal their JSON.
        return {str(k): scrub(v) for k, v in value.items() if not (k == "id" and "face" in value)}
    if isinstance(value, list | tuple):
        return [scrub(v) for v in value]
    return value
