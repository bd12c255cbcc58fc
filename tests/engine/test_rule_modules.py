"""A rule lives with its card (docs/ENGINE.md, "Rule → module"): the code naming the challenge
(CL-5, CL-6, MK-4, PP-5, PP-6), the Item Box (MK-2, MK-5..MK-10) and the Dip (PP-4) is in the
rule's own module and its edition's table, plus the few files the table names for the vocabulary
the core reads without knowing the rule — and in none of the round's core modules.

Comments and docstrings are left out: a module may say where a rule lives without holding it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "app" / "engine"
ENGINE_DOC = ROOT / "docs" / "ENGINE.md"

# The round's core: it reaches a rule through CardRule effects, Pending kinds and reasons and the
# edition's continuations only, never by the rule's own names.
CORE = {"turns.py", "legality.py", "plays.py", "fast_path.py", "round.py", "uno.py", "views.py", "state.py", "match.py"}


def code_of(path: Path) -> str:
    """The module's tokens but its comments and docstrings."""
    source = path.read_text(encoding="utf-8")
    docs: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                docs.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return " ".join(tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline)
                    if tok.type != tokenize.COMMENT and tok.start[0] not in docs)


def naming(pattern: str) -> set[str]:
    """The engine files whose code matches ``pattern`` (the independent reference listing apart:
    it keeps its own plain version of every rule, docs/ENGINE.md "The fast path and its reference")."""
    found = set()
    for path in ENGINE.rglob("*.py"):
        if path.name != "reference.py" and re.search(pattern, code_of(path)):
            found.add(path.relative_to(ENGINE).as_posix())
    return found


# rule -> (what names its code, its module, its edition's table(s), the other files that may name it and why)
RULES: dict[str, tuple[str, str, set[str], dict[str, str]]] = {
    "challenge": (
        r"guilt|\bevidence\b|hand_revealed|challenge_lost|\bchallenge\s*\.|ask_challenge",
        "variants/challenge.py",
        {"variants/classic.py", "variants/mario_kart.py", "variants/pocket_pizza.py", "variants/base.py"},
        {
            "pending.py": "the challenge decision's Pending fields (guilty, evidence)",
            "state.py": "the Edition hook guilty_now, declared",
            "house/stacking.py": "an answering big Draw is challenged too (HX-3, D-4)",
            "house/drawing.py": "HR-11 keeps a guilty big Draw (through the hook)",
            "face_down.py": "D-5: the evidence a challenger sees of a blind draw's cards (FaceDown.shown)",
            "penalty_cards.py": "an edition's big Draw and its guilt (Guilt), in its row of §7's table",
        },
    ),
    "item box": (
        r"\bITEMS\b|\bitem_box\b|ITEM_BOX|green_shell|bob_omb|banana_peel|lightning|mushroom|\"item\"",
        "variants/item_box.py",
        {"variants/mario_kart.py"},
        {
            "cards.py": "the face and the deck",
            "pending.py": "its reasons, declared",
            "variants/challenge.py": "MK-4: an Item Box held makes a Wild Draw Four guilty",
        },
    ),
    "dip": (
        r"\bdip\b|WILD_DIP|\"passed\"|pass_on",
        "variants/dip.py",
        {"variants/pocket_pizza.py"},
        {
            "cards.py": "the face and the deck",
            "pending.py": "its reason, declared",
            "face_down.py": "HX-11: the dip's draw comes in face up under blind draw",
        },
    ),
}


@pytest.mark.parametrize("rule", list(RULES))
def test_a_rule_is_named_in_its_module_its_table_and_the_vocabulary_only__CL_6_MK_5_PP_4(rule: str) -> None:
    pattern, module, tables, vocabulary = RULES[rule]
    assert naming(pattern) == {module, *tables, *vocabulary}


# The hooks a rule plugs into, declared by the core: the challenge's ``Edition.guilty_now`` (HR-11 asks it).
HOOKS = {"challenge": {"state.py"}}


@pytest.mark.parametrize("rule", list(RULES))
def test_no_core_module_names_a_rule_but_to_declare_its_hook__CL_6_MK_5_PP_4(rule: str) -> None:
    pattern = RULES[rule][0]
    assert naming(pattern) & CORE == HOOKS.get(rule, set())


def test_the_challenge_decision_is_continued_by_the_challenge_module__CL_6() -> None:
    """The core lists and routes the ``challenge`` decision by its kind; only the challenge module
    and the editions' tables (which register it) name what follows."""
    assert naming(r"\bresolve\b") == {
        "variants/challenge.py", "variants/classic.py", "variants/mario_kart.py", "variants/pocket_pizza.py"}


def test_the_rule_module_table_names_each_rules_module_and_tables() -> None:
    rows = {line.split("|")[1].strip(): line for line in ENGINE_DOC.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ")}
    titles = {"challenge": "Wild Draw Four / Wild Draw 2 challenge", "item box": "Item Box and the items",
              "dip": "Dip Into The Deck"}
    for rule, (_, module, tables, _vocabulary) in RULES.items():
        row = rows[titles[rule]]
        assert f"`{module}`" in row
        for table in tables:
            assert f"`{Path(table).name}`" in row, (rule, table)
