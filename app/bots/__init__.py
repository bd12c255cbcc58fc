"""Computer players.  A bot sees exactly what a human in its seat sees: ``view(match, seat)``.

``heuristic.choose_action(view, rng)`` picks one of the view's legal actions (a JSON action
dict) or None when the seat has nothing to do; ``heuristic.bot_delay_s`` says how long a
human-like player would take before acting, and ``quickest.quickest`` which of several bots
acts first.
"""

from .heuristic import bot_delay_s, choose_action
from .quickest import quickest

__all__ = ["bot_delay_s", "choose_action", "quickest"]
