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

# A card's JSON (the engine's, shared and never changed) -> the same without its id, made once:
# nearly every event carries cards, and copying them again for every entry was half of ``scrub``.
_CLEAN_CARDS: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
_CLEAN_CARDS_KEPT = 4096  # every card of every edition, with room to spare


def scrub(value: Any) -> Any:
    """A deep copy of event data with every card's ``id`` removed (see the module doc).  A card's
    copy is shared between the entries that show it: entries, like views, are read-only."""
    if isinstance(value, dict):
        if "face" in value:
            held = _CLEAN_CARDS.get(id(value))
            if held is not None and held[0] is value:
                return held[1]
            clean = {str(k): scrub(v) for k, v in value.items() if k != "id"}
            if len(_CLEAN_CARDS) < _CLEAN_CARDS_KEPT:
                _CLEAN_CARDS[id(value)] = (value, clean)  # holding the card keeps its id from being reused
            return clean
        # JSON object keys are strings: make them so now, so that views equal their JSON.
        return {str(k): scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(v) for v in value]
    return value
