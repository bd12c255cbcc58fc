"""docs/ENGINE.md: the worked example runs as written, and every view key is documented."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from app.engine import BETWEEN, ROUND, VARIANTS, HouseRules, MatchConfig, apply, legal_actions, new_match, views
from app.engine import start_next_round as next_round

DOC = Path(__file__).resolve().parents[2] / "docs" / "ENGINE.md"


def test_engine_doc_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks, "docs/ENGINE.md should carry a worked example"
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})


def keys_of(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            out.add(key)
            if key == "card_rules":  # keyed by the edition's faces: only its shapes' keys are the view's
                for shape in inner.values():
                    keys_of(shape, out)
            else:
                keys_of(inner, out)
    elif isinstance(value, list):
        for inner in value:
            keys_of(inner, out)


def view_keys() -> set[str]:
    """Every key of every view over random games of every edition, two rounds each."""
    keys: set[str] = set()
    for edition in VARIANTS:
        for seed in range(6):
            house = HouseRules(stacking=seed % 2 == 1, seven_o=seed % 3 == 0)
            match, _ = new_match(MatchConfig(edition, 3, house=house), seed)
            rng = random.Random(seed)
            for _ in range(3000):
                if match.phase == BETWEEN and match.round_no < 2:
                    next_round(match)
                if match.phase != ROUND:
                    break
                moves = [(s, a) for s in range(3) for a in legal_actions(match, s)]
                seat, action = rng.choice(moves)
                apply(match, seat, action)
                for one in views(match, [None, 0, 1, 2]).values():
                    keys_of(one, keys)
    return keys


@pytest.mark.slow
def test_every_view_key_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Views"):text.index("## Determinism")]
    keys = view_keys()
    # The rarer parts must have shown up, or this test proves little.
    assert {"revealed", "drawn", "result", "history", "replaced_colour", "reason", "item", "uno"} <= keys
    undocumented = sorted(k for k in keys if f"`{k}`" not in section)
    assert not undocumented, f"view keys missing from the Views section of docs/ENGINE.md: {undocumented}"
