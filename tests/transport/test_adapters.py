"""Every reach into a dependency's private parts is confined to that dependency's adapter module.

uvicorn's internals are used in app/transport/uvicorn_adapter.py only, websockets' in
websockets_adapter.py, uvloop's loop in accept.py; app/server.py uses uvicorn's public
``Config`` and ``Server``.  Each adapter names what it needs and why, tests/transport/
test_uvicorn_internals.py checks those parts, and scripts/canary.sh tries the newest releases.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
TRANSPORT = "app/transport"

# Dependency -> the modules of app/ allowed to import it at all.
ADAPTERS = {
    "uvicorn": {f"{TRANSPORT}/uvicorn_adapter.py", "app/server.py"},
    "websockets": {f"{TRANSPORT}/uvicorn_adapter.py", f"{TRANSPORT}/websockets_adapter.py"},
    "h11": {f"{TRANSPORT}/uvicorn_adapter.py"},
    "uvloop": {f"{TRANSPORT}/accept.py"},
}
# Where a private part of each may be touched (a module or name that starts with "_", or one of
# the private attributes below): the dependency's own adapter, and nowhere else.
PRIVATE_HOME = {"uvicorn": f"{TRANSPORT}/uvicorn_adapter.py", "websockets": f"{TRANSPORT}/websockets_adapter.py"}
PRIVATE_ATTRIBUTES = {
    "parser": "websockets", "parser_exc": "websockets",  # the frame parser of a websockets Protocol
    "pending_ping_payload": "uvicorn", "read_paused": "uvicorn", "initial_response": "uvicorn",
    "handshake_complete": "uvicorn", "close_sent": "uvicorn",  # uvicorn's WebSocket protocol state
}
PUBLIC_UVICORN = {"Config", "Server"}  # what app/server.py may take from uvicorn


def modules() -> dict[str, ast.Module]:
    return {str(p.relative_to(APP.parent)): ast.parse(p.read_text()) for p in APP.rglob("*.py")}


@pytest.mark.slow
def test_each_dependency_is_imported_by_its_adapters_only() -> None:
    wrong = []
    for path, tree in modules().items():
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            for name in names:
                top = name.split(".")[0]
                if top in ADAPTERS and path not in ADAPTERS[top]:
                    wrong.append(f"{path} imports {name}")
    assert not wrong, wrong


@pytest.mark.slow
def test_private_parts_are_touched_in_their_adapter_only() -> None:
    wrong = []
    for path, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                top = node.module.split(".")[0]
                private = any(part.startswith("_") for part in node.module.split(".")) or any(
                    a.name.startswith("_") for a in node.names)
                if top in PRIVATE_HOME and private and path != PRIVATE_HOME[top]:
                    wrong.append(f"{path}: from {node.module} import {', '.join(a.name for a in node.names)}")
            elif isinstance(node, ast.Attribute) and node.attr in PRIVATE_ATTRIBUTES:
                owner = PRIVATE_ATTRIBUTES[node.attr]
                # uvicorn's protocol state is read by our subclasses, which live in its adapter.
                if path != PRIVATE_HOME[owner]:
                    wrong.append(f"{path}: .{node.attr} ({owner}'s)")
    assert not wrong, wrong


def test_the_entry_point_uses_uvicorn_s_public_api_only() -> None:
    tree = modules()["app/server.py"]
    used = {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "uvicorn"}
    assert used and used <= PUBLIC_UVICORN, used
    assert "_TrustedHosts" not in "".join(p.read_text() for p in APP.rglob("*.py"))
