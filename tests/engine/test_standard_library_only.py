"""The engine imports nothing but the standard library and itself: it is what the browser's
verifier loads into Pyodide (``GET /api/engine/source.zip``) and what ``python -m
app.engine.verify`` runs with no server.  Checking an export's signature needs the
``cryptography`` package, so it lives outside (``app/signatures.py``), imported by the command
only when asked, by name, at run time."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"


def test_the_engine_imports_only_the_standard_library_and_itself() -> None:
    foreign: list[str] = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and not name.startswith("app.engine"):
                    foreign.append(f"{path.relative_to(ENGINE)}: {name}")
    assert not foreign, foreign
