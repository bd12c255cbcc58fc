"""An action as JSON: the one validator of an untrusted action object.

Every action that reaches the engine from outside comes through ``action_from_json``: a
client's (``app/rooms/commands.py`` runs it at the socket's edge), a stored one read back on a
restore or an audit, a bot's.  Its bounds come from the engine itself — its action kinds, its
colours, the largest deck and table — so the edge and the engine can never disagree.
"""

from __future__ import annotations

from .actions import KINDS, Action
from .cards import COLOURS
from .errors import IllegalAction, Refusal
from .variants import VARIANTS

MAX_CARD_ID = max(len(v.cards) for v in VARIANTS.values())  # ids index an edition's expanded deck
MAX_SEATS = max(v.max_seats for v in VARIANTS.values())
FIELDS = frozenset({"kind", "card", "colour", "target", "uno", "more"})
MAX_MORE = 7  # HR-8: no deck has more than 8 cards of one number


def action_from_json(data: object) -> Action:
    """Parse untrusted input; anything malformed raises ``IllegalAction('bad_action')``."""
    if not isinstance(data, dict):
        raise IllegalAction(Refusal.BAD_ACTION, "An action must be a JSON object.")
    unknown = set(data) - FIELDS
    if unknown:
        raise IllegalAction(Refusal.BAD_ACTION,
                            f"Unknown action field(s): {', '.join(sorted(map(str, unknown)))}.")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise IllegalAction(Refusal.BAD_ACTION, f"Unknown action kind {kind!r}.")
    card, target = data.get("card"), data.get("target")
    colour, uno = data.get("colour"), data.get("uno", False)
    for name, value, bound in (("card", card, MAX_CARD_ID), ("target", target, MAX_SEATS)):
        if value is not None and (type(value) is not int or not 0 <= value < bound):
            raise IllegalAction(Refusal.BAD_ACTION, f"'{name}' must be an integer from 0 to {bound - 1}.")
    if colour is not None and colour not in COLOURS:
        raise IllegalAction(Refusal.BAD_ACTION, f"'colour' must be one of {', '.join(COLOURS)}.")
    if type(uno) is not bool:
        raise IllegalAction(Refusal.BAD_ACTION, "'uno' must be true or false.")
    more = data.get("more", [])
    if (not isinstance(more, list) or len(more) > MAX_MORE
            or any(type(c) is not int or not 0 <= c < MAX_CARD_ID for c in more)):
        raise IllegalAction(Refusal.BAD_ACTION, f"'more' must be a list of at most {MAX_MORE} card ids.")
    if more and (kind != "play" or card is None):
        raise IllegalAction(Refusal.BAD_ACTION, "'more' goes only with a 'play' of a card.")
    return Action(kind, card, colour, target, uno, tuple(more))
