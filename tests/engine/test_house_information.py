"""No hints (RULES.md §7.11 HR-32): the engine's part — every draw on a turn offers ``drawn``."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine import Action, IllegalAction, apply, legal_actions
from app.engine.house.information import hintless

from .scenario import act, card
from .test_house_stacking import house_match


def test_an_unplayable_drawn_card_is_still_offered_and_may_only_be_kept__HR_32() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("yellow 3",), no_hints=True)
    act(m, 0, "draw")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("drawn", 0)
    assert [a.kind for a in legal_actions(m, 0)] == ["keep"]
    with pytest.raises(IllegalAction) as err:
        apply(m, 0, Action("play_drawn", card(m, 0, "yellow 3")))
    assert err.value.code == "card_not_playable"
    act(m, 0, "keep")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("turn", 1)


def test_without_no_hints_an_unplayable_draw_ends_the_turn__HR_32() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("yellow 3",))
    act(m, 0, "draw")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("turn", 1)


def test_play_what_you_draw_keeps_an_unplayable_card_under_no_hints__HR_32__HR_11() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("yellow 3",),
                    no_hints=True, must_play_drawn=True)
    act(m, 0, "draw")
    assert [a.kind for a in legal_actions(m, 0)] == ["keep"]
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("red 3",),
                    no_hints=True, must_play_drawn=True)
    act(m, 0, "draw")
    assert {a.kind for a in legal_actions(m, 0)} == {"play_drawn"}  # a playable one must still be played


def test_hintless_drops_only_the_legal_list__HR_32() -> None:
    game: dict[str, Any] = {"seat": 0, "table": {"hand": [1], "legal": [{"kind": "draw"}], "top": 3}}
    assert hintless(game) == {"seat": 0, "table": {"hand": [1], "top": 3}}
    assert game["table"]["legal"] == [{"kind": "draw"}]  # the view itself is untouched (bots use it)
    assert hintless({"seat": None, "table": {"top": 3}}) == {"seat": None, "table": {"top": 3}}
