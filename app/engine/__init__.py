"""The pure UNO rules engine: standard library only, no I/O, deterministic from a seed.

Typical use::

    match, events = new_match(MatchConfig("classic", seats=3), seed=42)
    seat = match.round.current
    action = legal_actions(match, seat)[0]
    events = apply(match, seat, action)      # raises IllegalAction, changing nothing
    my_view = view(match, seat)              # only what that seat may see

See docs/ENGINE.md.
"""

from .action_json import action_from_json
from .actions import Action
from .batch_offer import BatchOffer, offer_from_json, offer_plays
from .card_rules import CardRule, HandAfter, Target
from .cards import COLOURS, CardType, Face
from .config import MatchConfig, config_of, new_match, replay
from .errors import ConfigError, EngineError, IllegalAction, Refusal
from .events import Event
from .house import HouseRules
from .layout import Layout
from .match import (
    BETWEEN,
    OVER,
    ROUND,
    LogEntry,
    Match,
    MatchSettings,
    RoundResult,
    apply,
    batch_offers,
    card_id,
    card_ids,
    legal_actions,
    start_next_round,
)
from .pending import Pending, PendingKind, Reason
from .round import Round
from .variants import VARIANTS, Variant
from .views import view, views

__all__ = [
    "BETWEEN",
    "COLOURS",
    "OVER",
    "ROUND",
    "VARIANTS",
    "Action",
    "BatchOffer",
    "CardRule",
    "CardType",
    "ConfigError",
    "EngineError",
    "Event",
    "Face",
    "HandAfter",
    "HouseRules",
    "IllegalAction",
    "Layout",
    "LogEntry",
    "Match",
    "MatchConfig",
    "MatchSettings",
    "Pending",
    "PendingKind",
    "Reason",
    "Refusal",
    "Round",
    "RoundResult",
    "Target",
    "Variant",
    "action_from_json",
    "apply",
    "batch_offers",
    "card_id",
    "card_ids",
    "config_of",
    "legal_actions",
    "new_match",
    "offer_from_json",
    "offer_plays",
    "replay",
    "start_next_round",
    "view",
    "views",
]
