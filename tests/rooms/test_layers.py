"""The dependency direction of ARCHITECTURE.md: engine ← rooms ← persistence, transport, web, cluster;
only main (and the entry point) wires; and no import cycle anywhere in app/."""

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


def test_the_cluster_is_a_layer_above_the_rooms() -> None:
    """Rooms ask a ``Tenancy`` port (app/rooms/ports.py), which app.cluster implements; the store
    enforces fencing with types of its own (app/persistence/fencing.py).  Nothing below the
    cluster imports it, and it imports neither the transport, the web nor the composition root."""
    for below in ("rooms", "persistence", "transport", "web", "engine", "bots"):
        assert not any(m.startswith("app.cluster") for m in imports(below)), below
    assert not any(m.startswith(("app.transport", "app.web", "app.main", "app.server")) for m in imports("cluster"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every module of app/ and the modules of app/ it imports: anywhere in the file, functions
    and ``if TYPE_CHECKING:`` blocks included (a cycle hidden there is still a cycle of design)."""
    modules = {module_name(p): p for p in APP.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                # "from package import module" imports the module; "from module import name", the module.
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_sees_what_it_must() -> None:
    """The graph is built right: it finds the imports it should (else no cycle would be found either)."""
    graph = import_graph()
    assert "app.rooms.ports" in graph["app.rooms.registry"]  # a relative import
    assert "app.persistence.fencing" in graph["app.cluster.node"]  # an absolute one
    assert "app.main" in graph["app.server"]  # one inside a function
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_anywhere_in_app() -> None:
    found = cycles(import_graph())
    assert not found, "modules that import each other, directly or through others: " + "; ".join(
        " <-> ".join(c) for c in found)


def test_no_module_is_over_its_size__python_400_lines_javascript_300() -> None:
    """Small modules whose names explain them: none grows past what one can hold in one's head
    (the app, the benchmarks, the tests and the browser's scripts)."""
    root = APP.parent
    python = [*APP.rglob("*.py"), *(root / "bench").rglob("*.py"), *(root / "tests").rglob("*.py")]
    scripts = list((root / "static" / "js").rglob("*.js"))
    long = {str(p.relative_to(root)): n for paths, most in ((python, 400), (scripts, 300)) for p in paths
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > most}
    assert not long, long
