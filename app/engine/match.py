"""A match: rounds played to the edition's target score (C-2, C-14, C-15).

The match's core: it starts from an edition and a rule set already assembled (``Rulebook``) and
reads of its configuration only what ``MatchSettings`` names.  Validating a configuration and
assembling its house rules into that rule set is ``config.py``'s (``new_match``, ``replay``).

A match is determined by (config, seed, secrets, log): the first dealer is drawn from the
seed, round *k* is dealt from ``f"{secret}/{k}"`` where the round's secret is the one given
to ``start_next_round`` (the room draws a fresh one per round, so that revealing one round's
secret tells nothing of the others) or, when none was given, the match seed itself; the
log records every applied action with its round, so ``config.replay`` rebuilds an identical match.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from .actions import BLITZ_BY_CLOCK_ONLY, BLITZ_EXPIRY, CLOCK_SEAT, Action
from .batch_offer import BatchOffer
from .errors import ConfigError, IllegalAction, Refusal
from .events import Event
from .layout import Layout
from .round import Round
from .rulebook import Rulebook
from .turns import finish
from .variants import Variant

ROUND = "round"  # a round is being played
BETWEEN = "between"  # a round is over; the next one has not started
OVER = "over"  # someone reached the target score


class MatchSettings(Protocol):
    """What the core reads of a match's configuration (``config.MatchConfig`` is one): not its
    house rules, whose hooks the core asks of the round's rule set (``Round.book``)."""

    @property
    def edition(self) -> str: ...

    @property
    def seats(self) -> int: ...

    @property
    def target_score(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


class RoundResult(NamedTuple):
    number: int
    dealer: int
    seed: str
    winner: int
    points: int
    cards_left: tuple[int, ...]  # cards each seat held at the end
    gained: tuple[int, ...] = ()  # what each seat's total gained (house/scoring.py)


class LogEntry(NamedTuple):
    round: int
    seat: int
    action: Action


@dataclass
class Match:
    config: MatchSettings
    variant: Variant
    seed: int | str
    dealer: int
    round: Round
    round_no: int = 1
    phase: str = ROUND
    scores: list[int] = field(default_factory=list)
    winner: int | None = None
    history: list[RoundResult] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    secrets: dict[int, str] = field(default_factory=dict)  # round -> its own secret, when it was given one
    out: list[int] = field(default_factory=list)  # seats eliminated (HR-29), in the order they went out

    def round_secret(self, number: int) -> str:
        """The secret round ``number`` was dealt from: its own, or the match seed (round 1, and the
        default)."""
        return self.secrets.get(number, str(self.seed))

    @property
    def target(self) -> int:
        return self.config.target_score

    def card_ids(self, name: str) -> tuple[int, ...]:
        """The ids of every card named ``name`` (``"red 5"``, ``"wild_draw4"``) in this match's deck."""
        return self.variant.card_ids(name)

    def card_id(self, name: str, seat: int | None = None) -> int:
        """The id of a card named ``name``: one in ``seat``'s hand, or with no seat the deck's first.

        Raises KeyError when there is none.
        """
        ids = self.variant.card_ids(name)
        if seat is None:
            return ids[0]
        for card in self.round.hands[seat]:
            if card in ids:
                return card
        raise KeyError(f"seat {seat} holds no {name!r}")

    def wins(self) -> list[int]:
        """Rounds won, per seat."""
        return [sum(r.winner == s for r in self.history) for s in range(self.config.seats)]

    def standings(self) -> list[int]:
        """The seats, best first, as the match ranks them (the rulebook's scoring: house/scoring.py)."""
        return self.round.book.scoring.standings(self.scores, self.wins())

    def fingerprint(self) -> tuple[Any, ...]:
        return (self.config, self.seed, self.dealer, self.round_no, self.phase, tuple(self.scores),
                self.winner, tuple(self.history), tuple(self.log), tuple(sorted(self.secrets.items())),
                tuple(self.out), self.round.fingerprint())


def round_seed(seed: int | str, number: int) -> str:
    return f"{seed}/{number}"


def draw_for_dealer(variant: Variant, seats: int, seed: int | str) -> tuple[int, list[Event]]:
    """C-2: everyone draws a card, the highest number deals, ties redraw among the tied.

    An edition without numbers (All Wild) draws its first dealer at random from the seed.
    """
    rng = random.Random(f"{seed}/dealer")
    if not variant.dealer_by_draw:
        dealer = rng.randrange(seats)
        return dealer, [Event("dealer_chosen", {"dealer": dealer, "draws": []})]
    events: list[Event] = []
    contenders = list(range(seats))
    while True:
        deck = list(range(len(variant.cards)))
        rng.shuffle(deck)
        drawn = {seat: deck.pop() for seat in contenders}
        rank = {seat: int(variant.cards[c].face) if variant.cards[c].face.isdigit() else 0
                for seat, c in drawn.items()}
        best = max(rank.values())
        events.append(Event("dealer_draw", {"draws": [{"seat": s, "card": variant.card_json[c]}
                                                      for s, c in drawn.items()]}))
        contenders = [seat for seat in contenders if rank[seat] == best]
        if len(contenders) == 1:
            events.append(Event("dealer_chosen", {"dealer": contenders[0]}))
            return contenders[0], events


def start_match(variant: Variant, book: Rulebook, settings: MatchSettings, seed: int | str, *,
                dealer: int | None = None, layout: Layout | None = None) -> tuple[Match, list[Event]]:
    """Start a match of ``variant`` (one ``settings`` is valid for) under the rule set ``book``, and
    its first round.  ``dealer`` and ``layout`` stack the first round for tests.  ``config.new_match``
    validates a configuration and assembles its rule set, then starts the match here."""
    seats = settings.seats
    events: list[Event] = []
    order = None if book.seat_order is None else book.seat_order(seats, (), round_seed(seed, 1))
    if dealer is None and order is not None:  # HR-28: the order's first seat deals, with no draw
        dealer = order[0]
        events = [Event("dealer_chosen", {"dealer": dealer, "draws": []})]
    elif dealer is None:
        dealer, events = draw_for_dealer(variant, seats, seed)
    elif not 0 <= dealer < seats:
        raise ConfigError("bad_dealer", f"There is no seat {dealer}.")
    rnd = Round(variant, seats, dealer, round_seed(seed, 1), layout, book, order=order)
    match = Match(settings, variant, seed, dealer, rnd, scores=[0] * seats)
    if rnd.void:  # HR-13 at the deal (only a stacked deck can do it)
        match.phase = BETWEEN
    events.append(Event("round_start", {"round": 1, "dealer": dealer}))
    events.extend(rnd.events)
    rnd.events = []
    return match, events


def card_id(match: Match, name: str, seat: int | None = None) -> int:
    """``match.card_id``: the id of a card named ``name`` (in ``seat``'s hand, if given)."""
    return match.card_id(name, seat)


def card_ids(match: Match, name: str) -> tuple[int, ...]:
    """``match.card_ids``: the ids of every card named ``name`` in the match's deck."""
    return match.card_ids(name)


def legal_actions(match: Match, seat: int) -> list[Action]:
    """Every action ``seat`` may take now but HR-8's batches, which ``batch_offers`` describes."""
    if match.phase != ROUND:
        return []
    return match.round.legal_actions(seat)


def batch_offers(match: Match, seat: int) -> list[BatchOffer]:
    """HR-8: the batches ``seat`` may play now, one ``BatchOffer`` per group of its hand (house/volume.py)."""
    if match.phase != ROUND:
        return []
    return match.round.batch_offers(seat)


def apply(match: Match, seat: int, action: Action) -> list[Event]:
    """Apply ``seat``'s action; return what happened.  Raises ``IllegalAction``, changing nothing."""
    if action.kind == BLITZ_EXPIRY:
        return _expire(match, seat, action)
    if match.phase != ROUND:
        over = "The round is over." if match.phase == BETWEEN else "The match is over."
        raise IllegalAction(Refusal.ROUND_OVER, over)
    rnd = match.round
    events = rnd.apply(seat, action)
    # Not LogEntry's Python __new__: hot.
    match.log.append(tuple.__new__(LogEntry, (match.round_no, seat, action)))
    if rnd.winner is not None:
        events.extend(_score_round(match))
    elif rnd.void:
        match.phase = BETWEEN  # HR-13: nothing is scored; the next dealer deals anew
    return events


def _expire(match: Match, seat: int, action: Action) -> list[Event]:
    """HR-25: the match clock ran out (house/pace.py); only the room sends it, as ``CLOCK_SEAT``."""
    blitz = match.round.book.blitz
    if seat != CLOCK_SEAT or blitz is None:
        raise IllegalAction(Refusal.BAD_ACTION, BLITZ_BY_CLOCK_ONLY)
    if match.phase == OVER:
        raise IllegalAction(Refusal.ROUND_OVER, "The match is over.")
    match.log.append(LogEntry(match.round_no, seat, action))
    if match.phase == BETWEEN:  # D-8: nothing to score; the match ends at once
        last = match.history[-1].winner if match.history else None
        return [Event("blitz_expiry", {"seat": None}),
                *_match_over(match, blitz.champion(match.scores, match.wins(), last))]
    rnd = match.round
    sizes = [len(h) for h in rnd.hands]
    winner = blitz.round_winner(sizes, [sum(rnd.cards[c].value for c in h) for h in rnd.hands], match.out)
    rnd.events, rnd.reveal = [], None  # the pending decision, T and catch windows lapse with the round
    finish(rnd, winner)
    rnd.events[-1].data["blitz"] = True  # round_over: won by the fewest cards, not by going out
    rnd.moved()
    events = [Event("blitz_expiry", {"seat": winner, "hand_sizes": sizes}), *rnd.events]
    rnd.events = []
    return events + _score_round(match, blitz=True)


def _match_over(match: Match, champion: int) -> list[Event]:
    match.phase = OVER
    match.winner = champion
    over: dict[str, Any] = {"winner": champion, "scores": list(match.scores)}
    teams = match.round.book.teams
    if teams is not None:
        over["team"] = sorted(teams.team_of(champion))
    return [Event("match_over", over)]


def _score_round(match: Match, *, blitz: bool = False) -> list[Event]:
    """Score the round just won; ``blitz``: the match clock stopped it, and the match ends (HR-25)."""
    rnd = match.round
    winner = rnd.winner
    assert winner is not None
    book = rnd.book
    scoring = book.scoring
    cards = rnd.cards
    values = [sum(cards[c].value for c in hand) for hand in rnd.hands]
    gained = scoring.gains(winner, values)
    for seat, gain in enumerate(gained):
        match.scores[seat] += gain
    match.history.append(RoundResult(match.round_no, rnd.dealer, str(rnd.seed), winner, rnd.points,
                                     tuple(len(h) for h in rnd.hands), tuple(gained)))
    data: dict[str, Any] = {"scores": list(match.scores)}
    if scoring.shows_gains:
        data["gained"] = gained  # what each total gained, when it is not the round's points to its winner
    if book.teams is not None:  # HX-14: the totals the match ranks are the teams'
        data["teams"] = book.teams.groups()
        data["team_scores"] = book.teams.side_totals(match.scores)
    events = [Event("scores", data)]
    if blitz:
        assert book.blitz is not None  # only a match clock stops a round
        return events + _match_over(match, book.blitz.champion(match.scores, match.wins(), winner))
    eliminate = book.eliminate
    gone = (None if eliminate is None
            else eliminate.loser(winner, [len(h) for h in rnd.hands], values, match.out))
    if gone is not None:
        assert eliminate is not None
        match.out.append(gone)
        events.append(Event("eliminated", {"seat": gone}))
        champion = eliminate.champion(match.config.seats, match.out)
    else:
        # HX-14: ``rounds`` counts scored rounds only, not HR-13's void ones.
        # Counting the rounds won walks the whole history: only when the champion is ranked by them.
        wins = match.wins() if scoring.ranks_by_wins() else []
        champion = scoring.champion(match.scores, wins, len(match.history), winner, match.target)
    if champion is not None:
        events.extend(_match_over(match, champion))
    else:
        match.phase = BETWEEN
    return events


def start_next_round(match: Match, secret: str | None = None) -> list[Event]:
    """Deal the next round; the deal passes to the next seat clockwise (C-2).

    ``secret``: the round's own randomness (None: derived from the match seed, as always)."""
    if match.phase != BETWEEN:
        raise IllegalAction(Refusal.NO_NEXT_ROUND, "The next round can only start between rounds.")
    match.round_no += 1
    match.dealer = (match.dealer + 1) % match.config.seats
    while match.dealer in match.out:  # HR-30: the deal passes over an eliminated seat
        match.dealer = (match.dealer + 1) % match.config.seats
    if secret is not None:
        match.secrets[match.round_no] = secret
    seed = round_seed(match.round_secret(match.round_no), match.round_no)
    book = match.round.book
    order = None if book.seat_order is None else book.seat_order(match.config.seats, match.out, seed)
    if order is not None:
        match.dealer = order[0]  # HR-28
    match.round = Round(match.variant, match.config.seats, match.dealer, seed, None, book,
                        out=frozenset(match.out), order=order)
    match.phase = BETWEEN if match.round.void else ROUND
    events = [Event("round_start", {"round": match.round_no, "dealer": match.dealer}), *match.round.events]
    match.round.events = []
    return events
