"""Layering: the import graph of cudaport/ has no cycle, and the core never imports the
command line (click, cli.py, tree.py, commands/)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "cudaport"
CLI = ("cudaport.cli.main", "cudaport.cli.tree", "cudaport.cli.commands", "cudaport.__main__",
       "cudaport.cli.entry")


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Module -> the cudaport modules it imports (at any depth of the file, lazy imports
    included), and module -> the outside top-level packages it imports."""
    mods = modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    outside: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = ".".join(package[:len(package) - node.level + 1] if node.level else [])
                module = ".".join(x for x in (base, node.module or "") if x) if node.level \
                    else node.module or ""
                wanted = [f"{module}.{a.name}" for a in node.names] or [module]
                wanted = [w if w in mods else module for w in wanted]
            elif isinstance(node, ast.Import):
                wanted = [a.name for a in node.names]
            else:
                continue
            for target in wanted:
                if not target.startswith("cudaport"):
                    outside[name].add(target.split(".")[0])
                    continue
                while target not in mods and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in mods and target != name:
                    graph[name].add(target)
    return graph, outside


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_import_graph_has_no_cycle():
    graph, _ = import_graph()
    assert len(graph) > 50 and graph["cudaport.translate.pipeline"]  # the walk found the package
    assert cycles(graph) == []


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_core_never_imports_the_command_line():
    graph, outside = import_graph()
    for name in graph:
        if name.startswith(CLI):
            continue
        assert "click" not in outside[name], f"{name} imports click"
        assert not [t for t in graph[name] if t.startswith(CLI)], f"{name} imports the CLI"


def test_no_code_branches_on_a_target_name():
    """Target facts live in rules/<target>/: no ``if target == "musa"`` in the code."""
    names = {"hip", "musa", "maca", "dcu", "metax"}
    found = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left] + node.comparators
            if any(isinstance(s, ast.Attribute) and s.attr == "launch" for s in sides):
                continue  # --launch hip is a launch style, not a target
            for side in sides:
                values = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
                if any(isinstance(v, ast.Constant) and v.value in names for v in values):
                    found.append(f"{name}:{node.lineno}")
    assert found == []
