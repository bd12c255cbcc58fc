"""The view differ emits RFC 6902 patches that turn the old view into the new one exactly."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import jsonpatch
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import MatchConfig, apply, legal_actions, new_match, views
from app.rooms.diff import make_patch

# Python's == cannot tell True from 1 or 1 from 1.0, and the differ leans on == for speed; a view
# keeps one JSON type per path, so documents mix booleans or floats with ints only where types differ.
scalars = st.none() | st.integers(-3, 3) | st.sampled_from(["a", "b", "~/", "1.0", "true"])
keys = st.sampled_from(["a", "b", "c", "~", "/", "x/y", "0", ""])
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner,
                                                                                                 max_size=4),
                           max_leaves=25)


def roundtrip(old: Any, new: Any) -> None:
    ops = make_patch(old, new)
    # Through JSON, as a client gets it; compared through JSON, where True != 1.
    got = jsonpatch.apply_patch(json.loads(json.dumps(old)), json.loads(json.dumps(ops)))
    assert json.dumps(got, sort_keys=True) == json.dumps(new, sort_keys=True), ops


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(json_values, json_values)
def test_any_two_documents(old: Any, new: Any) -> None:
    roundtrip({"v": old}, {"v": new})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=30), st.integers(0, 20), st.lists(st.integers(0, 50), max_size=8))
def test_bounded_log_shift(log: list[int], drop: int, added: list[int]) -> None:
    """The shape of a capped event log: drop from the front, append at the back."""
    old = {"log": [{"n": i} for i in log]}
    new = copy.deepcopy(old)
    new["log"] = new["log"][drop:] + [{"n": i} for i in added]
    roundtrip(old, new)


def test_shift_is_cheap() -> None:
    old = {"log": [{"n": i, "text": "x" * 50} for i in range(60)]}
    new = {"log": [*old["log"][2:], {"n": 60, "text": "y"}, {"n": 61, "text": "z"}]}
    ops = make_patch(old, new)
    assert [op["op"] for op in ops] == ["remove", "remove", "add", "add"]


def test_type_changes_are_seen_where_types_differ() -> None:
    assert make_patch({"a": "1"}, {"a": 1}) == [{"op": "replace", "path": "/a", "value": 1}]
    assert make_patch({"a": [None]}, {"a": [0]}) == [{"op": "replace", "path": "/a/0", "value": 0}]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["classic", "mario_kart", "all_wild", "pocket_pizza"]),
       st.integers(2, 4), st.integers(1, 40))
@pytest.mark.slow
def test_shared_views_diffed_with_one_memo_give_each_seat_its_own_patch(seed: int, edition: str, seats: int,
                                                                      steps: int) -> None:
    """``room_views.seat_views`` shares what all seats see; one memo across their diffs changes nothing."""
    rng = random.Random(seed)
    match, _ = new_match(MatchConfig(edition=edition, seats=seats), seed=seed)
    everyone: list[int | None] = [*range(seats), None]
    old = views(match, everyone)
    assert old[0]["table"]["top"] is old[None]["table"]["top"]  # shared, not copied
    for _ in range(steps):
        moves = [(s, a) for s in range(seats) for a in legal_actions(match, s)]
        if not moves:
            break
        apply(match, *rng.choice(moves))
        new = views(match, everyone)
        memo: dict[Any, Any] = {}
        for seat in everyone:
            assert make_patch(old[seat], new[seat], memo) == make_patch(old[seat], new[seat])
            roundtrip(old[seat], new[seat])
        old = new


def test_a_card_is_replaced_whole_by_another_card() -> None:
    red5 = {"id": 1, "name": "red 5", "colour": "red", "face": "5", "value": 5}
    red8 = {"id": 9, "name": "red 8", "colour": "red", "face": "8", "value": 8}
    assert make_patch({"top": red5}, {"top": red8}) == [{"op": "replace", "path": "/top", "value": red8}]
    roundtrip({"t": {"top": red5, "n": 1}}, {"t": {"top": red8, "n": 2}})
