"""How a turn's draw goes and what a card may answer, as a view tells them (``turn_draw``,
``penalty_answers``: app/engine/card_shapes.py), are what the engine judges: a client offering moves
at a no-hints table (HR-32) reads them, naming no edition and reading no house option, and offers every
draw and answer the engine would accept.  Table-wide rules only, the same for every seat."""

from __future__ import annotations

import random
from typing import Any

from app.engine import (
    VARIANTS,
    HouseRules,
    Layout,
    Match,
    MatchConfig,
    apply,
    legal_actions,
    new_match,
    view,
    views,
)
from app.engine.view_parts import ViewParts

from .house_sets import random_match

C6 = {"draw": "always", "special": None, "limit": None}
AW = {"draw": "never", "special": {"hand_of": "wild", "next_holds": 1}, "limit": None}


def next_of(v: dict[str, Any], seat: int) -> int:
    """The next seat as a client works it out: HR-28's order when the view carries it, seats out skipped."""
    table = v["table"]
    out = set(v.get("eliminated", ()))
    order = [s for s in table.get("seat_order", range(len(table["hand_sizes"]))) if s not in out]
    at: int = order[(order.index(seat) + table["direction"]) % len(order)]
    return at


def client_draws(v: dict[str, Any], seat: int) -> set[str]:
    """The draws a client offers on its turn from ``turn_draw``, its own hand and the hands' sizes
    (static/js/table/unhinted.js ``draws``)."""
    rule, table = v["turn_draw"], v["table"]
    held = table["hand_sizes"][seat]
    if rule["limit"] is not None and held >= rule["limit"]:
        return set()
    special = rule["special"]
    if special and all(c["face"] == special["hand_of"] for c in table["hand"]) \
            and table["hand_sizes"][next_of(v, seat)] == special["next_holds"]:
        return {"special_draw"}
    return {"draw"} if rule["draw"] == "always" or (rule["draw"] == "last_card" and held == 1) else set()


def check(match: Match, seat: int) -> None:
    """The seat owing the decision: every draw and answer the engine lists, the client offers too."""
    rnd = match.round
    v = view(match, seat)
    pending = v["table"]["pending"]
    legal = legal_actions(match, seat)
    assert next_of(v, seat) == rnd.next_seat(seat)
    if pending["kind"] == "turn":
        listed = {a.kind for a in legal} & {"draw", "special_draw"}
        offered = client_draws(v, seat)
        assert listed <= offered, (listed, offered, v["turn_draw"])
        if offered == {"special_draw"} and rnd.can_draw():  # AW-6 holds exactly where the client says
            assert listed == offered
    elif pending["kind"] in ("stack", "challenge"):
        kind = pending.get("draw_kind")
        # HX-3: an answer is listed only for a kind the view names, and a kind it names is answered by some card.
        if any(a.kind == "play" for a in legal):
            assert kind in v["penalty_answers"]
        assert (kind in v["penalty_answers"]) is bool(rnd.rules.stacking.answering(rnd))
        if pending["kind"] == "stack":
            assert kind in v["penalty_answers"]


def test_random_play_every_listed_draw_and_answer_is_one_the_view_allows__AW_5_AW_6_HR_12_HX_3_HR_32() -> None:
    rng = random.Random(41)
    seen: set[str] = set()
    for edition in sorted(VARIANTS):
        for game in range(10):
            match = random_match(rng, edition, f"{edition}-{game}")
            for _ in range(300):
                rnd = match.round
                if match.phase != "round" or rnd.pending is None:
                    break
                seat = rnd.pending.seat
                check(match, seat)
                seen.add(rnd.pending.kind)
                moves = [(s, a) for s in range(rnd.n) for a in legal_actions(match, s)]
                seat, action = rng.choice(moves)
                apply(match, seat, action)
    assert {"turn", "stack", "challenge"} <= seen  # or this test proves little


def aw_match(house: HouseRules, hands: list[list[str]], direction: int = 1) -> Match:
    match, _ = new_match(MatchConfig("all_wild", len(hands), house=house), 1, dealer=len(hands) - 1,
                         layout=Layout(hands, "wild", ["wild_skip", "wild"]))
    match.round.direction = direction
    return match


def test_all_wild_special_draw_and_hand_limit_as_the_view_tells_them__AW_5_AW_6_HR_12() -> None:
    wilds = ["wild", "wild"]
    cases: list[tuple[HouseRules, list[list[str]], int, set[str]]] = [
        (HouseRules(), [wilds, ["wild"], ["wild", "wild_skip"]], 1, {"special_draw"}),  # AW-6
        (HouseRules(), [wilds, ["wild", "wild_skip"], ["wild"]], -1, {"special_draw"}),  # the next seat, either way
        (HouseRules(), [wilds, ["wild", "wild_skip"], ["wild"]], 1, set()),
        (HouseRules(), [["wild", "wild_skip"], ["wild"], ["wild", "wild"]], 1, set()),  # an action card: AW-5
        (HouseRules(hand_limit=15), [wilds, ["wild"], ["wild", "wild_skip"]], 1, {"special_draw"}),
        (HouseRules(finish_with="no_draw"), [["wild_draw2"], ["wild", "wild"], ["wild", "wild"]], 1, {"draw"}),  # HR-15
        (HouseRules(), [["wild_draw2"], ["wild", "wild"], ["wild", "wild"]], 1, set()),
    ]
    for house, hands, direction, listed in cases:
        match = aw_match(house, hands, direction)
        assert {a.kind for a in legal_actions(match, 0)} & {"draw", "special_draw"} == listed, hands
        assert client_draws(view(match, 0), 0) == listed, hands
        check(match, 0)
    v = view(aw_match(HouseRules(hand_limit=15, finish_with="no_draw"), [wilds, ["wild"], ["wild"]]), 0)
    assert v["turn_draw"] == {**AW, "draw": "last_card", "limit": 15}
    assert view(new_match(MatchConfig("classic", 3, house=HouseRules(hand_limit=20)), 1)[0], 0)["turn_draw"] \
        == {**C6, "limit": 20}


def test_penalty_answers_name_the_kinds_the_house_rules_let_a_card_answer__HX_3() -> None:
    def answers(edition: str, **options: Any) -> list[str]:
        kinds: list[str] = view(new_match(MatchConfig(edition, 3, house=HouseRules(**options)), 1)[0], None)[
            "penalty_answers"]
        return kinds

    assert answers("classic") == []
    assert answers("classic", stacking=True) == ["small", "big"]
    assert answers("classic", stacking=True, stack_only="small") == ["small"]  # HR-1: a big Draw takes none
    assert answers("classic", stacking=True, stack_only="big") == ["big"]
    assert answers("classic", stacking=True, stack_only="small", reverse_deflect="all") == ["small", "big"]  # HR-3
    assert answers("classic", stacking=True, cross_stack="both") == ["small", "big"]  # HR-2
    assert answers("classic", reverse_deflect="small") == ["small"]
    assert answers("classic", skip_deflect="all") == ["small", "big"]  # HR-4
    assert answers("all_wild", stacking=True) == ["small", "big"]


def test_every_seat_and_a_spectator_share_one_turn_draw_and_penalty_answers_kept_across_builds__HR_32() -> None:
    """Table-wide rules, hiding nothing (C-16, HR-32): one object for every seat and a spectator, and the
    same object build after build, so a patch never carries them again."""
    match, _ = new_match(MatchConfig("all_wild", 3, house=HouseRules(stacking=True, no_hints=True)), 1)
    parts = ViewParts()
    first = views(match, (None, 0, 1, 2), parts)
    for key in ("turn_draw", "penalty_answers"):
        shared = first[None][key]
        assert all(one[key] is shared for one in first.values())
        match.round_no += 1  # the match's part is built anew; these are kept
        assert views(match, (0,), parts)[0][key] is shared
