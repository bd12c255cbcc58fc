"""The turn clock under several cards of one number (RULES.md HR-8, HX-8): never a batch."""

from __future__ import annotations

from app.engine import HouseRules, Layout, MatchConfig, new_match, view
from app.rooms.automation import no_batch


def test_the_turn_clock_never_plays_a_batch__HR_8__HX_8() -> None:
    config = MatchConfig("classic", 2, house=HouseRules(multi_play=True))
    m, _ = new_match(config, 0, dealer=1, layout=Layout([["red 5", "blue 5", "green 5", "yellow 9"],
                                                        ["red 1", "red 2"]], "red 3"))
    legal = view(m, 0)["table"]["legal"]
    offer = next(a for a in legal if a["kind"] == "batch")  # HR-8: the group of 5s, offered once
    chosen = {"kind": "play", "card": offer["leads"][0], "more": offer["cards"][1:]}
    single = no_batch(legal, chosen)
    assert single == {"kind": "play", "card": chosen["card"]} and single in legal
    assert no_batch(legal, legal[0]) == legal[0]
