"""The view differ emits RFC 6902 patches that turn the old view into the new one exactly."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

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
