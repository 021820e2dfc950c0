"""No import circles in the core or the front end.

Every import counts, at module level or inside a function: an import moved
into a function to dodge a circle still ties the two files together, and the
first caller pays for it at the worst moment. The module seams
(``fieldops.modules`` and ``ui.modules``) find their modules by name at run
time; that is how a module plugs in without the seam depending on it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _modules(package: str) -> dict[str, Path]:
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports, anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            wanted = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        for target in wanted:
            while target and target not in known:
                target = target.rpartition(".")[0]
            # A package's own __init__ is not a circle with the files inside it.
            if target and target != name and not name.startswith(target + "."):
                targets.add(target)
    return targets


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


@pytest.mark.parametrize("package", ["fieldops", "ui"])
def test_no_module_imports_itself_round_a_circle(package):
    known = {**_modules("fieldops"), **_modules("ui")}
    graph = {
        name: _imports(name, path, known)
        for name, path in known.items()
        if name.split(".")[0] == package
    }
    assert _circles(graph) == []


def test_the_finder_sees_a_circle_hidden_in_a_function(tmp_path, monkeypatch):
    # The check itself can fail: two files that import each other, one of them
    # inside a function, are a circle.
    a = tmp_path / "a.py"
    b = tmp_path / "b.py"
    a.write_text("import b\n")
    b.write_text("def f():\n    from a import x\n")
    known = {"a": a, "b": b}
    graph = {n: _imports(n, p, known) for n, p in known.items()}
    assert _circles(graph) == [["a", "b"]]
