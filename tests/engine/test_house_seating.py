"""Shuffled seats (RULES.md §7.9: HR-28)."""

from __future__ import annotations

from app.engine import (
    BETWEEN,
    HouseRules,
    Layout,
    Match,
    MatchConfig,
    config_of,
    new_match,
    replay,
    start_next_round,
    view,
)
from app.engine.house import seating

from .scenario import play

HANDS = [["red 1", "red 2", "red 3"], ["red 4", "red 5", "red 6"], ["red 7", "red 8", "red reverse"],
         ["blue 1", "blue 2", "red skip"]]


def shuffled(seed: int = 3, **rules: object) -> tuple[Match, list[str]]:
    config = MatchConfig("classic", 4, None, HouseRules.from_json({"shuffle_seats": True, **rules}))
    match, events = new_match(config, seed, layout=Layout(HANDS, "red 9"))
    return match, [e.kind for e in events]


def test_a_round_plays_in_a_random_cyclic_order_whose_first_seat_deals__HR_28() -> None:
    m, kinds = shuffled()
    order = view(m, None)["table"]["seat_order"]
    assert sorted(order) == [0, 1, 2, 3]
    assert m.dealer == order[0] and "dealer_draw" not in kinds  # C-2's draw is skipped
    assert m.round.current == order[1]  # C-4
    first = m.round.current
    play(m, first, next(n for n in ("red 1", "red 4", "red 7", "red skip") if n in names_of(m, first)))
    assert m.round.current == (order[3] if first == 3 else order[2])  # seat 3's red skip jumps over order[2]


def names_of(m: Match, seat: int) -> list[str]:
    return [m.round.cards[c].name for c in m.round.hands[seat]]


def test_orders_come_from_each_rounds_seed__HR_28() -> None:
    on = HouseRules(shuffle_seats=True)
    orders = {tuple(seating.order(on, 6, (), f"s/{k}") or ()) for k in range(1, 30)}
    assert len(orders) > 10 and all(sorted(o) == list(range(6)) for o in orders)
    assert seating.order(on, 6, (), "s/1") == seating.order(on, 6, (), "s/1")
    assert seating.order(HouseRules(), 6, (), "s/1") is None
    assert 4 not in (seating.order(on, 6, (4,), "s/1") or [])


def test_partners_stay_half_the_table_apart__HR_28__HR_26() -> None:
    on = HouseRules(shuffle_seats=True, team_play=True)
    for k in range(20):
        ring = seating.order(on, 6, (), f"t/{k}")
        assert ring is not None and sorted(ring) == list(range(6))
        assert all((ring[i] - ring[i + 3]) % 6 == 3 for i in range(3))


def test_a_reverse_turns_back_along_the_order_and_replays__HR_28() -> None:
    for seed in range(40):
        m, _ = shuffled(seed)
        order = m.round.ring
        assert order is not None
        if m.round.current != 2:
            continue
        play(m, 2, "red reverse")
        assert m.round.current == order[0]  # the seat before seat 2 in the order (the dealer)
        again = replay(config_of(m), seed, m.log, layout=Layout(HANDS, "red 9"))
        assert again.fingerprint() == m.fingerprint()
        return
    raise AssertionError("no seed put seat 2 first")


def test_every_round_is_shuffled_anew__HR_28() -> None:
    config = MatchConfig("classic", 4, None, HouseRules(shuffle_seats=True))
    m, _ = new_match(config, 11)
    seen = [m.round.ring]
    for k in range(2, 6):
        m.phase = BETWEEN  # no need to play the rounds out: the deal is what is checked
        start_next_round(m, f"secret-{k}")
        assert m.dealer == m.round.ring[0]  # type: ignore[index]
        seen.append(m.round.ring)
    assert len(set(seen)) > 1
