"""The pure UNO rules engine: standard library only, no I/O, deterministic from a seed.

Typical use::

    match, events = new_match(MatchConfig("classic", seats=3), seed=42)
    seat = match.round.current
    action = legal_actions(match, seat)[0]
    events = apply(match, seat, action)      # raises IllegalAction, changing nothing
    my_view = view(match, seat)              # only what that seat may see

See docs/ENGINE.md.
"""

from .actions import Action
from .cards import COLOURS, CardType
from .errors import ConfigError, EngineError, IllegalAction
from .events import Event
from .house import HouseRules
from .match import (
    BETWEEN,
    OVER,
    ROUND,
    LogEntry,
    Match,
    MatchConfig,
    RoundResult,
    apply,
    legal_actions,
    new_match,
    replay,
    start_next_round,
)
from .round import Layout, Pending, Round
from .variants import VARIANTS, Variant
from .views import view, views

__all__ = [
    "BETWEEN", "COLOURS", "OVER", "ROUND", "VARIANTS", "Action", "CardType", "ConfigError", "EngineError",
    "Event", "HouseRules", "IllegalAction", "Layout", "LogEntry", "Match", "MatchConfig", "Pending", "Round",
    "RoundResult", "Variant", "apply", "legal_actions", "new_match", "replay", "start_next_round", "view", "views",
]
