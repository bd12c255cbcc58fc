"""The dependency direction of ARCHITECTURE.md: engine ← rooms ← transport, web; only main wires."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def imports(package: str) -> set[str]:
    found: set[str] = set()
    for path in (APP / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return found


def test_rooms_never_import_transport_web_or_frameworks() -> None:
    mods = imports("rooms")
    assert not any(m.startswith(("app.transport", "app.web", "app.main", "fastapi", "starlette")) for m in mods)


def test_transport_and_web_do_not_import_each_other() -> None:
    assert not any(m.startswith("app.web") for m in imports("transport"))
    assert not any(m.startswith("app.transport") for m in imports("web"))


def test_persistence_implements_the_rooms_ports_and_rooms_never_import_it() -> None:
    assert not any(m.startswith("app.persistence") for m in imports("rooms"))
    assert not any(m.startswith(("app.transport", "app.web", "fastapi")) for m in imports("persistence"))


def test_no_module_in_app_is_over_400_lines() -> None:
    """Small modules whose names explain them: none grows past what one can hold in one's head."""
    long = {str(p.relative_to(APP)): n for p in APP.rglob("*.py") if (n := len(p.read_text().splitlines())) > 400}
    assert not long, long
