"""Computer players.  A bot sees exactly what a human in its seat sees: ``view(match, seat)``.

Bots play at a level (``levels.LEVELS``: ``easy.py``, ``normal.py``, ``hard.py``; ``make_bot``),
each a player whose ``act(view, rng)`` picks one of the view's legal actions (a JSON action
dict) or None when the seat has nothing to do.  ``heuristic.choose_action`` is the play they
build on; ``pauses.bot_delay_s`` says how long a human-like player would take before acting
(a catch: as long as a person, never less), and ``quickest.quickest`` which of several bots
acts first.
"""

from .heuristic import choose_action
from .levels import DEFAULT_LEVEL, LEVELS, Bot, make_bot
from .pauses import CATCH_PAUSE_S, bot_delay_s, scaled_pause_s
from .quickest import quickest

__all__ = ["CATCH_PAUSE_S", "DEFAULT_LEVEL", "LEVELS", "Bot", "bot_delay_s", "choose_action", "make_bot",
           "quickest", "scaled_pause_s"]
