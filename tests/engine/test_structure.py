"""How the engine is put together: no import cycles, a follow-up per reason, enums as plain strings."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from app.engine import (
    VARIANTS,
    Action,
    Face,
    HouseRules,
    IllegalAction,
    MatchConfig,
    Pending,
    PendingKind,
    Reason,
    Refusal,
    card_id,
    card_ids,
    new_match,
    view,
)
from app.engine.card_rules import NoAnswers
from app.engine.house.stacking import Stacking
from app.engine.house.table import rule_table

from .scenario import make, play

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def engine_imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports anywhere in it, under ``TYPE_CHECKING`` too."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.level and node.module else (node.module or base)
            # ``from . import actions`` names a module; ``from .cards import COLOURS`` does not.
            candidates = [f"{target}.{alias.name}" for alias in node.names] + [target]
            found.update(c for c in candidates if c.startswith("app.engine"))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("app.engine"))
    # A module's own packages are imported before it anyway (``from . import actions``): no edge.
    me = module_name(path)
    return {m for m in found if not me.startswith(m + ".")}


def test_engine_modules_import_each_other_without_cycles() -> None:
    modules = {module_name(p): p for p in ENGINE.rglob("*.py")}
    graph = {name: {m for m in engine_imports(path) if m in modules and m != name} for name, path in modules.items()}
    done: set[str] = set()

    def visit(name: str, stack: list[str]) -> None:
        if name in stack:
            raise AssertionError("import cycle: " + " -> ".join([*stack[stack.index(name):], name]))
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*stack, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_round_and_variants_know_each_other_one_way_only() -> None:
    assert not any(m.startswith("app.engine.variants") for m in engine_imports(ENGINE / "round.py"))
    assert not any(m.startswith("app.engine.variants") for m in engine_imports(ENGINE / "state.py"))
    assert "app.engine.round" not in engine_imports(ENGINE / "variants" / "base.py")


def test_the_rule_table_sits_below_the_round() -> None:
    """Each round holds its rule table, so the table's module names no round and no edition."""
    table = engine_imports(ENGINE / "card_rules.py")
    assert "app.engine.card_rules" in engine_imports(ENGINE / "state.py")
    assert not any(m.startswith(("app.engine.state", "app.engine.round", "app.engine.variants")) for m in table)


CHALLENGED = PendingKind.CHALLENGE  # CL-6, PP-6: the challenge is asked with no reason, continued by its kind


@pytest.mark.parametrize(("edition", "reasons"), [
    ("classic", {Reason.FIRST_CARD, CHALLENGED}),
    ("mario_kart", {Reason.FIRST_CARD, Reason.GREEN_SHELL, Reason.BOB_OMB, Reason.PLAIN_WILD, CHALLENGED}),
    ("all_wild", {Reason.FIRST_CARD, Reason.FIRST_TARGETED, Reason.FIRST_SWAP}),
    ("pocket_pizza", {Reason.FIRST_CARD, Reason.DIP, CHALLENGED}),
])
def test_each_edition_continues_the_decisions_its_cards_ask(edition: str,
                                                          reasons: set[Reason | PendingKind]) -> None:
    variant = VARIANTS[edition]
    assert set(variant.continuations) == reasons
    for reason in {*Reason, CHALLENGED} - reasons:
        with pytest.raises(LookupError):
            variant.continuation(reason)
    with pytest.raises(LookupError):
        variant.continuation(None)


def test_an_unknown_reason_raises_instead_of_passing_the_turn() -> None:
    m = make("classic", [["red 5", "red 6"], ["red 7", "red 8"]], "red 1")
    m.round.ask(Pending(PendingKind.TARGET, 0, reason=Reason.GREEN_SHELL))
    with pytest.raises(LookupError):
        m.round.apply(0, Action("choose_target", target=1))


def test_enums_equal_their_strings_and_serialise_as_them() -> None:
    members: list[str] = [Face.WILD_DRAW4, PendingKind.TURN, Refusal.TOO_LATE]
    assert members == ["wild_draw4", "turn", "too_late"]
    assert {"wild": 1}[Face.WILD] == 1
    data = {"face": Face.SKIP, "kind": PendingKind.STACK, "reason": Reason.DIP, "code": Refusal.BAD_SEAT}
    assert json.dumps(data) == '{"face": "skip", "kind": "stack", "reason": "dip", "code": "bad_seat"}'
    assert orjson.dumps(data) == b'{"face":"skip","kind":"stack","reason":"dip","code":"bad_seat"}'
    err = IllegalAction(Refusal.TOO_LATE, "Too late.")
    assert err.code == "too_late" and type(err.to_json()["code"]) is str


def plain(value: Any) -> None:
    """Views hold plain strings only: the room's differ compares values by type too."""
    if isinstance(value, dict):
        for key, inner in value.items():
            assert type(key) is str
            plain(inner)
    elif isinstance(value, list):
        for inner in value:
            plain(inner)
    elif isinstance(value, str):
        assert type(value) is str, repr(value)


def test_views_hold_plain_strings() -> None:
    m = make("mario_kart", [["item_box", "red 6"], ["red 7", "red 8"]], "red 1", ["green 3"])
    play(m, 0, "item_box")  # a Green Shell: the view shows a target decision and its reason
    assert view(m, 0)["table"]["pending"] == {"kind": "target", "seat": 0, "reason": "green_shell"}
    for seat in (None, 0, 1):
        plain(view(m, seat))


def test_card_ids_by_name() -> None:
    m = make("classic", [["red 5", "wild"], ["blue 5", "red 5"]], "red 3")
    both = card_ids(m, "red 5")
    assert len(both) == 2 and all(m.round.cards[c].name == "red 5" for c in both)
    assert m.card_id("red 5", seat=1) == m.round.hands[1][1]
    assert card_id(m, "red 5", 0) == m.round.hands[0][0]
    assert card_id(m, "wild_draw4") in card_ids(m, "wild_draw4")
    with pytest.raises(KeyError):
        m.card_id("blue 5", seat=0)
    with pytest.raises(KeyError):
        card_ids(new_match(MatchConfig("all_wild", 2), 1)[0], "red 5")


# The engine's core: every module directly in app/engine/ (not its packages ``variants/`` and ``house/``)
# but the assembly layer above it: the package's top (the API it gathers), the match's configuration
# (``config.py``, where a table's house rules are assembled into its rule set and the match started), and
# the modules that start a match from a stored configuration, house rules and all
# (``MatchConfig.from_json``): the export and its rebuild (``audit.py``), the verifier (``verify.py``) and
# the replays (``playback.py``).  Editions (``variants/``) and the house rules (``house/``) build on the core.
ASSEMBLY = {"app.engine.config", "app.engine.audit", "app.engine.verify", "app.engine.playback"}
ABOVE_CORE = {"app.engine", *ASSEMBLY}
CORE = {module_name(p): p for p in ENGINE.glob("*.py") if module_name(p) not in ABOVE_CORE}


def test_the_core_imports_no_house_rule_module_and_house_rules_import_the_core_only() -> None:
    """The core asks the hooks a table's rule set assembled (``rulebook.py``) and imports nothing of
    ``house/``; the house families import the core (and each other), never what sits above it."""
    for name, path in CORE.items():
        assert not [m for m in engine_imports(path) if m.startswith("app.engine.house")], name
    for path in (ENGINE / "house").glob("*.py"):
        above = {m for m in engine_imports(path) if m in ABOVE_CORE or m in ("app.engine.match", "app.engine.views")}
        assert not above, (path.name, above)


def test_the_core_imports_nothing_of_the_assembly_above_it() -> None:
    """The match starts from an edition and a rule set already assembled (``match.start_match``) and
    reads of its configuration only ``MatchSettings``: ``config.py``'s ``new_match`` validates and
    assembles, so no core module imports ``config.py`` or the modules built on it (issue 41)."""
    assert {"app.engine.match", "app.engine.views", "app.engine.rulebook"} <= set(CORE)
    for name, path in CORE.items():
        assert not engine_imports(path) & ABOVE_CORE, name
    for name in ASSEMBLY - {"app.engine.config"}:  # each starts a match from a stored configuration
        path = ENGINE / f"{name.rpartition('.')[2]}.py"
        assert engine_imports(path) & {"app.engine.config", "app.engine.audit"}, name


def test_the_editions_import_no_house_rule_module() -> None:
    """An edition is its cards, their rules and its row of §7's table (``penalty_cards.py``): it
    names no house rule.  The house rules edit its rule table (``house/table.py``) and read what it
    refuses by its key (``house/options.py``); the configuration assembles the two."""
    for path in (ENGINE / "variants").glob("*.py"):
        imported = engine_imports(path)
        assert not [m for m in imported if m.startswith("app.engine.house")], path.name
        assert not imported & ABOVE_CORE, path.name


def test_an_editions_rule_tables_are_shared_by_the_house_rules_that_change_card_rules_alike() -> None:
    """One table per edition and combination of the options that change card rules
    (``house/table.py``): matches whose house rules differ elsewhere hold the very same table, and
    what is kept with it."""
    for variant in VARIANTS.values():
        plain = rule_table(variant, HouseRules())
        assert rule_table(variant, HouseRules(jump_in=True, uno_penalty=4)) is plain
        assert isinstance(plain.stacking, NoAnswers)
        stacked = rule_table(variant, HouseRules(stacking=True))
        assert stacked is not plain and isinstance(stacked.stacking, Stacking)
        assert rule_table(variant, HouseRules(stacking=True, no_hints=True)) is stacked
        assert rule_table(variant, HouseRules(stacking=True)) is stacked
        match, _ = new_match(MatchConfig(variant.key, 2, house=HouseRules(stacking=True)), 1)
        assert match.round.rules is stacked


def test_each_family_declares_its_options_below_the_set_of_options() -> None:
    """Every family declares its options in its own module (§6's in ``room.py``), as a class that
    ``HouseRules`` (``options.py``) is composed of: so no module declaring options imports
    ``options.py``, anywhere in it (docs/ENGINE.md, "House rules")."""
    declaring = {path.name: path for path in (ENGINE / "house").glob("*.py")
                 if path.name != "options.py" and "\n@declared\n" in path.read_text(encoding="utf-8")}
    assert set(declaring) == {"room.py", "stacking.py", "exchange.py", "volume.py", "drawing.py", "finishing.py",
                              "calls.py", "scoring.py", "pace.py", "teams.py", "elimination.py", "information.py"}
    for name, path in declaring.items():
        assert "app.engine.house.options" not in engine_imports(path), name


def house_reads(path: Path) -> list[str]:
    """Every attribute read of something named ``house`` in ``path`` (``rnd.house.jump_in``, ``house.scoring``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute):
            inner = node.value
            named = inner.attr if isinstance(inner, ast.Attribute) else inner.id if isinstance(inner, ast.Name) else ""
            if named == "house":
                found.append(f"{path.name}:{node.lineno} house.{node.attr}")
    return found


def test_no_core_module_reads_a_house_option() -> None:
    """What a house rule changes, the core asks its round's ``Rulebook`` (``RoundState.book``), never an option."""
    reads = [read for path in CORE.values() for read in house_reads(path)]
    assert reads == []
    assert house_reads(ENGINE / "config.py")  # the check sees a read: the configuration's own
