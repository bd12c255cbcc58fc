"""The hooks a table's house rules plug into the round and the match: what the core asks instead of options.

The core (``state.py``, ``round.py``, ``legality.py``, ``plays.py``, ``turns.py``, ``uno.py``,
``match.py``, ``views.py``) never reads a house option and imports nothing of ``house/``: it asks
the ``Rulebook`` its round holds (``RoundState.book``), as it asks the ``Edition`` for the editions.
A ``Rulebook`` as made here, every hook at its default, is a table without house rules: the sheets'
C- rules.  ``house/rulebook.py`` assembles a table's from its ``HouseRules`` and edition, each family
module plugging in its own hooks (docs/ENGINE.md, "House rules", lists which family fills which).

Hooks that the hot path asks are resolved once per match: a flag, a value or None while their family
is off, so that a table without them pays one attribute read.  Like ``card_rules.py``, this module sits
below ``state.py``: a hook's round is typed ``Any`` here, and each hook is written and checked for
``RoundState`` where it is defined.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from typing import Any, NamedTuple

from .actions import Action
from .card_rules import RuleTable
from .errors import IllegalAction


class UnoCalls(NamedTuple):
    """C-11's calls as the table plays them (``RoundState.calls``); the house rules' are ``house/calls.py``'s.

    ``penalty``: what a caught seat draws; ``with_play``: may UNO! be said with an action or just before
    playing from two cards; ``exposes``: does a hand dropping to one card expose its holder;
    ``window_ends_at_turn``: does the next turn action close the catch window."""

    penalty: int = 2
    with_play: bool = True
    exposes: bool = True
    window_ends_at_turn: bool = True


C_11 = UnoCalls()


class Scoring:
    """How a round is scored and a match won: here C-14 and C-15 (the house rules' are
    ``house/scoring.py``'s)."""

    # Does the ``round_over`` event say the points are the others' own (HR-23)?  Does the ``scores``
    # event carry what each total gained (when that is not the round's points to its winner)?
    penalty = False
    shows_gains = False

    def gains(self, winner: int, hand_values: Sequence[int]) -> list[int]:
        """C-14: what each seat's total gains from a round its ``winner`` went out of."""
        points = sum(v for seat, v in enumerate(hand_values) if seat != winner)
        return [points if seat == winner else 0 for seat in range(len(hand_values))]

    def standings(self, scores: Sequence[int], wins: Sequence[int]) -> list[int]:
        """The seats, best first: highest total, then rounds won, then seat."""
        return sorted(range(len(scores)), key=lambda s: (-scores[s], -wins[s], s))

    def ranks_by_wins(self) -> bool:
        """Does ``champion`` look at the rounds won?  Only then need they be counted."""
        return False

    def champion(self, scores: Sequence[int], wins: Sequence[int], rounds_played: int, round_winner: int,
                 target: int) -> int | None:
        """C-15: the round's winner once its total reaches the target."""
        return round_winner if scores[round_winner] >= target else None


class Teams:
    """Who plays with whom (HR-26, HR-27: ``house/teams.py``'s ``TeamPlay``).  The core asks only when the
    table has teams (``Rulebook.teams``); without, every seat is a side of its own."""

    def partners(self, a: int, b: int) -> bool:
        raise NotImplementedError

    def team_of(self, seat: int) -> set[int]:
        """The seats on ``seat``'s side, itself included."""
        raise NotImplementedError

    def groups(self) -> list[list[int]]:
        """The sides whose totals the match ranks."""
        raise NotImplementedError

    def side_totals(self, scores: Sequence[int]) -> list[int]:
        """Each side's total, per side of ``groups``."""
        return [sum(scores[s] for s in side) for side in self.groups()]


class Misplay:
    """HR-20 (``house/misplay.py``): is a refused action a misplay, and its penalty."""

    def applies(self, rnd: Any, seat: int, action: Action, refused: IllegalAction) -> bool:
        return False

    def penalise(self, rnd: Any, seat: int, action: Action) -> None:
        return None


class Batches:
    """HR-8, HR-9 (``house/volume.py``): the batches a seat may play, why one is refused, and the bomb."""

    def offers(self, rnd: Any, seat: int) -> list[Any]:
        """The seat's ``BatchOffer``s, one per group of its hand."""
        return []

    def refusal(self, rnd: Any, seat: int, action: Action) -> IllegalAction | None:
        return None

    def lay(self, rnd: Any, seat: int, action: Action) -> None:
        """The batch leaves the hand; its cards but the last go onto the pile (``turns.put_down``
        lays that)."""
        return None

    def bomb(self, rnd: Any, seat: int, size: int) -> None:
        return None


class OpenHands:
    """HR-31 (``house/information.py``): which hands are face up for all, and their face-up cards."""

    def is_open(self, rnd: Any, seat: int) -> bool:
        return False

    def hands(self, rnd: Any) -> dict[int, list[int]]:
        return {}


class Blitz:
    """HR-25's match clock (``house/pace.py``): who wins the round it stops, and the match."""

    def round_winner(self, sizes: Sequence[int], values: Sequence[int], out: Collection[int]) -> int:
        raise NotImplementedError

    def champion(self, scores: Sequence[int], wins: Sequence[int], last_winner: int | None) -> int:
        raise NotImplementedError


class Elimination:
    """HR-29, HR-30 (``house/elimination.py``): who a round's end puts out, and the match's last seat in."""

    def loser(self, winner: int, sizes: Sequence[int], values: Sequence[int],
              out: Collection[int]) -> int | None:
        raise NotImplementedError

    def champion(self, seats: int, out: Collection[int]) -> int | None:
        raise NotImplementedError


class Rulebook:
    """A table's hooks (the defaults: no house rules).  One per match: every round holds it."""

    __slots__ = (
        "batches", "blind_draw", "blitz", "calls", "draw_until_playable", "eliminate", "forced_play",
        "hand_limit", "jump_in", "key", "may_keep", "misplay", "no_hints", "no_last", "open_hands",
        "options_json", "pass_stuck", "scoring", "seat_order", "settle", "table", "teams",
    )

    def __init__(self, table: RuleTable, key: Hashable = None,
                 options_json: Callable[[], dict[str, Any]] = dict) -> None:
        self.table = table  # the edition's card rules as the house rules edit them (stacking, Seven-O)
        self.key = key  # what the round's fingerprint names the rules by (the HouseRules)
        self.options_json = options_json  # the options as views carry them (``house_rules``)
        self.calls = C_11  # C-11's calls (HR-16 … HR-19)
        # §6: Jump-In; draw-until-playable.
        self.jump_in = False
        self.draw_until_playable = False
        # HR-10 forced play; HR-11: may a seat keep the playable card it drew (None: always); HR-12's limit
        # and the passes it makes after every action (HR-13: True when the round died of them).
        self.forced_play = False
        self.may_keep: Callable[[Any, int, int], bool] | None = None
        self.hand_limit: int | None = None
        self.pass_stuck: Callable[[Any], bool] | None = None
        # HR-14, HR-15: the card ids that may not be a hand's last card.
        self.no_last: frozenset[int] = frozenset()
        # HR-20's misplays; HR-8's batches (and HR-9's bomb).
        self.misplay: Misplay | None = None
        self.batches: Batches | None = None
        # HR-31: the open hands by seat; HR-32: every draw on a turn offers ``drawn``; HR-33: draws come in
        # face down (``RoundState.face_down``), turned up after every turn action (``settle``).
        self.open_hands: OpenHands | None = None
        self.no_hints = False
        self.blind_draw = False
        self.settle: Callable[[Any], None] | None = None
        # The match's: scoring (HR-22, HR-23, §6's endings), teams (HR-26, HR-27), each round's order of play
        # (HR-28: seats, seats out, the round's seed), who a round eliminates (HR-29, HR-30) and the match
        # clock (HR-25).
        self.scoring = Scoring()
        self.teams: Teams | None = None
        self.seat_order: Callable[[int, Collection[int], str], list[int] | None] | None = None
        self.eliminate: Elimination | None = None
        self.blitz: Blitz | None = None
