"""Architecture metrics of the code base: ``python -m tests.architecture.report [--json]
[--root PATH]`` (stdlib only: the source is read with :mod:`ast`, nothing is imported).

It reads the layout of the tree it is run on, the one before issue 44 (the Tempus
presentation in ``bot/tempus/``) or the one after (it in ``games/tempus/``, beside the
shared ``games/port``, ``games/controls``, ``games/custom_ids``, ``games/registry``), and prints:

1. imports of game code (``engine``, ``render``, ``bot.tempus``, ``games.<a game>``) from
   the host modules (``bot`` and its subpackages but ``bot.tempus``);
2. the package graph of ``bot``'s subpackages (``bot`` itself for ``bot/__main__.py`` and
   ``bot/__init__.py``, ``bot.tempus`` while it exists, all of ``games/`` as one node): the
   pairs that import each other and its strongly connected components (Tarjan);
3. the upward imports against the declared host layers (:data:`LAYERS`);
4. the longest modules and classes of ``bot/`` and ``games/``, with forwarding-only methods;
5. the methods of the storage protocol(s) in ``bot/store/protocol.py``.

Counting rules (they are what the numbers mean):

- an import is one ``import``/``from ... import`` statement, at any nesting level (in
  functions and methods too); a statement naming several modules counts once where a count
  is of statements, and once per module where pairs or layers are concerned;
- statements under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``) are left out of
  every count and reported on their own; their ``else:`` branch counts;
- relative imports are resolved; ``from a.b import c`` is an import of ``a.b.c`` when that
  is a module of the tree, else of ``a.b``; ``importlib.import_module`` is not an import;
- an edge A -> B of the package graph is at least one such import from a module of A of a
  module of B, A != B (importing ``bot.table.x`` also runs ``bot/__init__.py``: no edge);
- lines are physical lines of the file (``wc -l``), a class's from its first decorator.
"""

# Against the numbers counted by hand at cdf7fb3 (docs/bench/issue44-before.txt has this
# report's): 137 imports of game code from 34 modules, 46 of 55 package pairs, 9 upward
# imports, all nine packages in one cycle.
# 1. This counts 141 statements from 35 host modules: the 2 in functions too (in
#    bot/__main__.py, the module ``bot``'s only one, and of ``render`` in
#    bot/client/commands/answers.py), and those of ``render`` (2 more, at module level).
#    Module-level statements of ``engine`` and ``bot.tempus`` alone are 137 from 34 modules:
#    the hand count's, which seems to have left out functions and ``render``.
# 2. 39 of 55 unordered pairs have an import either way (11 nodes: ``bot`` itself, its nine
#    host packages, ``bot.tempus``); 45 of the 110 ordered pairs. No rule tried gives 46
#    (mentions of ``bot.X`` anywhere, docstrings too: 42; module-level imports: 35); the
#    nearest is the 45 ordered pairs, so the hand count may be of ordered pairs over the
#    unordered 55 (with bot.runtime -> bot.tempus, say, which a comment in pyproject.toml
#    still names but which is gone since 0fa6025): a guess.
#    The one cycle has nine packages, ``bot.tempus`` among them; ``bot`` and ``bot.terminal``
#    (imported by ``bot/__main__.py`` only) are outside, so not all nine host packages are.
# 3. 14 upward imports here (a statement and a module it imports of a higher layer) in 10
#    modules, 8 package edges; 9 of the modules import upward at module level (the 10th,
#    bot/operator/migrate_db.py, in a function): the hand count's 9 may be that.

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the host layers, bottom to top, as names of ``bot``'s subpackages. A package may import
#: one in its own layer or below; an import of a higher layer is "upward". Packages sharing
#: a layer (the two front ends) are independent: an import between them is "sideways".
#: ``games``'s shared modules (:data:`GAMES_SHARED`) count as below the lowest layer; the
#: packages named nowhere here (``bot`` itself, ``bot.tempus``, a game's folder, ``engine``,
#: ``render``, ``lang``) have no layer, and imports from or of them are not judged.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("runtime",),
    ("store",),
    ("cluster",),
    ("history",),
    ("timing",),
    ("table",),
    ("publish",),
    ("client", "terminal", "operator"),
)

#: the host's top-level package; its subpackages but :data:`BOT_GAME` are the host packages
HOST_ROOT = "bot"
#: the game code: these packages with all below them, and every game's folder in ``games``
GAME_PACKAGES = ("engine", "render", "bot.tempus")
#: the game presentation's package inside the host (before issue 44)
BOT_GAME = "bot.tempus"
#: the package of the games (after issue 44): one node of the package graph
GAMES_ROOT = "games"
#: ``games/<name>*`` that are shared between the host and the games (the port), not a
#: game's folder: a module or package whose name starts with one of these
GAMES_SHARED = ("port", "controls", "custom_ids", "registry")
#: top-level directories never read
SKIPPED_TOPS = frozenset({"tests", "docs", "data"})
#: where the storage interface is declared: a module, or a package split in several
PROTOCOL_MODULE = Path("bot/store/protocol.py")
PROTOCOL_PACKAGE = Path("bot/store/protocol")
#: how many rows the top lists show
TOP = 10


# --- the tree -------------------------------------------------------------------------


@dataclass(frozen=True)
class Module:
    name: str  # dotted: bot.table.model; a package is named by its __init__.py: bot.table
    path: Path
    is_package: bool  # an __init__.py


def discover(root: Path) -> dict[str, Module]:
    """Every module of the tree's top-level packages (directories with an ``__init__.py``
    directly under ``root``, but :data:`SKIPPED_TOPS`), by dotted name."""
    modules: dict[str, Module] = {}
    for top in sorted(root.iterdir()):
        if (
            not top.is_dir()
            or top.name in SKIPPED_TOPS
            or top.name.startswith(".")
            or not (top / "__init__.py").is_file()
        ):
            continue
        for path in sorted(top.rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            parts = rel.parts
            if any(not p.isidentifier() for p in parts):
                continue  # not importable (a script with a dash, __pycache__ is no .py)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            name = ".".join(parts)
            modules[name] = Module(name, path, is_package)
    return modules


def _is_under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def is_game_shared(name: str) -> bool:
    """``games`` itself and its shared modules (the port), which are no game's code."""
    parts = name.split(".")
    if parts[0] != GAMES_ROOT:
        return False
    return len(parts) == 1 or parts[1].startswith(GAMES_SHARED)


def is_game_code(name: str) -> bool:
    if any(_is_under(name, p) for p in GAME_PACKAGES):
        return True
    return _is_under(name, GAMES_ROOT) and not is_game_shared(name)


def node_of(name: str, packages: set[str]) -> str | None:
    """The package-graph node of a module: ``bot.<sub>`` for a module in a subpackage of
    ``bot``, ``bot`` for its top-level modules, ``games`` for all of ``games``; else None."""
    parts = name.split(".")
    if parts[0] == GAMES_ROOT:
        return GAMES_ROOT
    if parts[0] != HOST_ROOT:
        return None
    if len(parts) >= 2 and f"{HOST_ROOT}.{parts[1]}" in packages:
        return f"{HOST_ROOT}.{parts[1]}"
    return HOST_ROOT


def host_package(name: str, packages: set[str]) -> str | None:
    """The host package of a module (its node), or None when it is no host module."""
    node = node_of(name, packages)
    if node is None or node in (GAMES_ROOT, BOT_GAME):
        return None
    return node


def layer_of(name: str, packages: set[str]) -> int | None:
    """The layer index of a module (-1: ``games``'s shared modules, below all), or None."""
    if is_game_shared(name):
        return -1
    node = host_package(name, packages)
    if node is None or node == HOST_ROOT:
        return None
    sub = node.split(".", 1)[1]
    for index, layer in enumerate(LAYERS):
        if sub in layer:
            return index
    return None


# --- imports --------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    line: int
    targets: tuple[str, ...]  # the modules of the tree it imports, resolved
    type_checking: bool  # under ``if TYPE_CHECKING:``
    nested: bool  # inside a function (not run on import of the module)


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _walk_imports(
    nodes: Iterable[ast.AST], type_checking: bool = False, nested: bool = False
) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    """Every import statement among ``nodes`` and below, with whether it is under ``if
    TYPE_CHECKING:`` and whether it is inside a function."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, type_checking, nested
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _walk_imports(node.body, True, nested)
            yield from _walk_imports(node.orelse, type_checking, nested)
        else:
            inner = nested or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            yield from _walk_imports(ast.iter_child_nodes(node), type_checking, inner)


def _resolve(
    node: ast.Import | ast.ImportFrom, module: Module, known: dict[str, Module]
) -> list[str]:
    """The dotted names a statement imports (external ones too)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        package = module.name.split(".")
        if not module.is_package:
            package = package[:-1]
        if node.level > 1:
            package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, *([node.module] if node.module else [])])
    else:
        base = node.module or ""
    targets = []
    for alias in node.names:
        sub = f"{base}.{alias.name}" if base else alias.name
        targets.append(sub if alias.name != "*" and sub in known else base)
    return targets


def _in_tree(name: str, known: dict[str, Module], tops: set[str]) -> str | None:
    """The module of the tree a dotted name is, or its nearest enclosing one; None when it
    is external (``asyncio``, ``discord``). A name under a top-level package of the tree
    that names no module (it moved away) is kept as it is."""
    if name.split(".")[0] not in tops:
        return None
    probe = name
    while probe:
        if probe in known:
            return probe
        probe = probe.rpartition(".")[0]
    return name


def collect_imports(modules: dict[str, Module], sources: Iterable[str]) -> list[Import]:
    """The import statements of the given modules that import modules of the tree."""
    tops = {name.split(".")[0] for name in modules}
    found = []
    for name in sources:
        module = modules[name]
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        for node, type_checking, nested in _walk_imports(tree.body):
            targets: list[str] = []
            for raw in _resolve(node, module, modules):
                target = _in_tree(raw, modules, tops)
                if target is not None and target not in targets:
                    targets.append(target)
            if targets:
                found.append(Import(name, node.lineno, tuple(targets), type_checking, nested))
    found.sort(key=lambda i: (i.module, i.line))
    return found


# --- 1. game code imported by the host ------------------------------------------------


def game_imports(
    imports: Sequence[Import], packages: set[str], host_modules: Sequence[str] = ()
) -> dict[str, Any]:
    """Statements of host modules that import game code (run-time ones; under
    ``TYPE_CHECKING`` apart); ``host_modules``: all of them, for the share."""
    runtime = []
    typing_only = []
    for imp in imports:
        if host_package(imp.module, packages) is None:
            continue
        if not any(is_game_code(t) for t in imp.targets):
            continue
        (typing_only if imp.type_checking else runtime).append(imp)
    per_module = Counter(i.module for i in runtime)
    per_package: dict[str, Counter[str]] = defaultdict(Counter)
    for imp in runtime:
        per_package[str(host_package(imp.module, packages))][imp.module] += 1
    per_target_top: Counter[str] = Counter()
    for imp in runtime:
        for target in imp.targets:
            if is_game_code(target):
                per_target_top[_game_root(target)] += 1
    return {
        "statements": len(runtime),
        "modules_with_any": len(per_module),
        "host_modules": len(host_modules),
        "in_functions": sum(1 for i in runtime if i.nested),
        "type_checking_statements": len(typing_only),
        "type_checking_modules": len({i.module for i in typing_only}),
        "per_package": {
            pkg: {"statements": sum(c.values()), "modules": len(c)}
            for pkg, c in sorted(per_package.items())
        },
        "per_game_package": dict(sorted(per_target_top.items())),
        "top_modules": [
            {"module": m, "statements": n}
            for m, n in sorted(per_module.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
        ],
        "type_checking": [f"{i.module}:{i.line} -> {', '.join(i.targets)}" for i in typing_only],
    }


def _game_root(name: str) -> str:
    for package in GAME_PACKAGES:
        if _is_under(name, package):
            return package
    return ".".join(name.split(".")[:2])  # games.<a game>


# --- 2. the package graph -------------------------------------------------------------


def package_graph(
    imports: Sequence[Import], nodes: Sequence[str], packages: set[str],
    *, type_checking: bool = False,
) -> dict[str, set[str]]:
    """A -> {B}: a module of A imports a module of B (A != B); with ``type_checking``, the
    imports under ``TYPE_CHECKING`` count too."""
    graph: dict[str, set[str]] = {n: set() for n in nodes}
    for imp in imports:
        if imp.type_checking and not type_checking:
            continue
        source = node_of(imp.module, packages)
        if source not in graph:
            continue
        for target in imp.targets:
            dest = node_of(target, packages)
            if dest is not None and dest != source and dest in graph:
                graph[source].add(dest)
    return graph


def tarjan(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components, each sorted, the larger first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

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
            components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    components.sort(key=lambda c: (-len(c), c))
    return components


def pair_stats(graph: dict[str, set[str]]) -> dict[str, Any]:
    nodes = sorted(graph)
    n = len(nodes)
    ordered = {(a, b) for a in nodes for b in graph[a]}
    unordered = {tuple(sorted(p)) for p in ordered}
    mutual = {p for p in unordered if (p[1], p[0]) in ordered and p in ordered}
    components = tarjan(graph)
    cycles = [c for c in components if len(c) > 1]
    return {
        "nodes": nodes,
        "possible_unordered_pairs": n * (n - 1) // 2,
        "possible_ordered_pairs": n * (n - 1),
        "ordered_pairs": len(ordered),
        "unordered_pairs": len(unordered),  # an import in at least one direction
        "mutual_pairs": len(mutual),  # imports in both directions
        "mutual": [f"{a} <-> {b}" for a, b in sorted(mutual)],
        "not_importing": [
            f"{a} -- {b}" for i, a in enumerate(nodes) for b in nodes[i + 1:]
            if (a, b) not in unordered
        ],
        "cycles": cycles,
        "outside_cycles": sorted(v for c in components if len(c) == 1 for v in c),
        "one_cycle": len(cycles) == 1,
        "all_in_one_cycle": len(cycles) == 1 and len(cycles[0]) == n,
        "edges": {a: sorted(graph[a]) for a in nodes},
    }


# --- 3. upward imports ----------------------------------------------------------------


def layer_imports(imports: Sequence[Import], packages: set[str]) -> dict[str, Any]:
    """Run-time imports from a lower layer of a higher one (upward), and between two
    packages of one layer (sideways); one row per statement and imported module."""
    upward = []
    sideways = []
    for imp in imports:
        if imp.type_checking:
            continue
        source = layer_of(imp.module, packages)
        if source is None:
            continue
        for target in imp.targets:
            dest = layer_of(target, packages)
            if dest is None:
                continue
            row = {
                "module": imp.module, "imported": target, "line": imp.line,
                "in_function": imp.nested,
            }
            if dest > source:
                upward.append(row)
            elif (
                dest == source
                and dest >= 0
                and node_of(imp.module, packages) != node_of(target, packages)
            ):
                sideways.append(row)
    layers = [" | ".join(f"{HOST_ROOT}.{p}" for p in layer) for layer in LAYERS]
    return {
        "layers_bottom_to_top": [f"{GAMES_ROOT}.{{{','.join(GAMES_SHARED)}}}*", *layers],
        "upward": upward,
        "upward_package_edges": _package_edges(upward, packages),
        "sideways": sideways,
    }


def _package_edges(rows: Sequence[dict[str, Any]], packages: set[str]) -> list[str]:
    """The distinct ``package -> package`` of import rows."""
    return sorted({
        f"{node_of(r['module'], packages)} -> {node_of(r['imported'], packages)}" for r in rows
    })


# --- 4. sizes -------------------------------------------------------------------------


def is_forwarding(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The body (a docstring apart) is one ``return self.x.method(...)`` or ``return await
    self.x.method(...)``: a call of a method of an attribute of ``self``
    (``self.x.y.method(...)`` too; ``self.method(...)`` is no forwarding)."""
    body = list(method.body)
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    value = body[0].value
    if isinstance(value, ast.Await):
        value = value.value
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return False
    owner = value.func.value
    depth = 0
    while isinstance(owner, ast.Attribute):
        owner = owner.value
        depth += 1
    return isinstance(owner, ast.Name) and owner.id == "self" and depth >= 1


def _methods(cls: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def sizes(modules: dict[str, Module], sources: Sequence[str]) -> dict[str, Any]:
    module_rows = []
    class_rows = []
    for name in sources:
        module = modules[name]
        text = module.path.read_text(encoding="utf-8")
        module_rows.append({"module": name, "lines": len(text.splitlines())})
        tree = ast.parse(text, str(module.path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            methods = _methods(node)
            class_rows.append({
                "class": f"{name}.{node.name}",
                "lines": (node.end_lineno or node.lineno) - first + 1,
                "methods": len(methods),
                "forwarding": sum(1 for m in methods if is_forwarding(m)),
            })
    by_lines = sorted(module_rows, key=lambda r: (-r["lines"], r["module"]))
    return {
        "modules": len(module_rows),
        "total_lines": sum(r["lines"] for r in module_rows),
        "longest_modules": by_lines[:TOP],
        "longest_classes": sorted(class_rows, key=lambda r: (-r["lines"], r["class"]))[:TOP],
        "most_methods": sorted(class_rows, key=lambda r: (-r["methods"], r["class"]))[:TOP],
        "forwarding_total": sum(r["forwarding"] for r in class_rows),
        "forwarding_classes": sorted(
            ({"class": r["class"], "forwarding": r["forwarding"], "methods": r["methods"]}
             for r in class_rows if r["forwarding"]),
            key=lambda r: (-r["forwarding"], r["class"]),
        )[:TOP],
    }


# --- 5. the storage protocol ----------------------------------------------------------


def _base_names(cls: ast.ClassDef) -> list[str]:
    names = []
    for base in cls.bases:
        if isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names


def protocols(root: Path) -> dict[str, Any]:
    """The ``Protocol`` classes of the storage interface's module (or package), with their
    own methods and all of them (those of the protocols they extend, of the same files,
    included)."""
    if (root / PROTOCOL_PACKAGE).is_dir():
        paths = sorted((root / PROTOCOL_PACKAGE).rglob("*.py"))
    elif (root / PROTOCOL_MODULE).is_file():
        paths = [root / PROTOCOL_MODULE]
    else:
        return {"files": [], "protocols": []}
    classes: dict[str, tuple[ast.ClassDef, Path]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and "Protocol" in _base_names(node):
                classes[node.name] = (node, path)

    def every_method(name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        cls = classes[name][0]
        found = {m.name for m in _methods(cls)}
        for base in _base_names(cls):
            if base in classes and base not in seen:
                found |= every_method(base, seen | {name})
        return found

    rows = []
    for name, (cls, path) in classes.items():
        own = [m.name for m in _methods(cls)]
        rows.append({
            "protocol": name,
            "file": path.relative_to(root).as_posix(),
            "own_methods": len(own),
            "methods": len(every_method(name)),
            "extends": [b for b in _base_names(cls) if b in classes],
            "method_names": own,
        })
    return {"files": [p.relative_to(root).as_posix() for p in paths], "protocols": rows}


# --- the report -----------------------------------------------------------------------


def analyse(root: Path) -> dict[str, Any]:
    root = root.resolve()
    modules = discover(root)
    packages = {m.name for m in modules.values() if m.is_package}
    sources = [n for n in modules if n.split(".")[0] in (HOST_ROOT, GAMES_ROOT)]
    hosts = [n for n in sources if host_package(n, packages) is not None]
    imports = collect_imports(modules, sources)
    nodes = sorted({node for n in sources if (node := node_of(n, packages)) is not None})
    graph = package_graph(imports, nodes, packages)
    graph_tc = package_graph(imports, nodes, packages, type_checking=True)
    pairs = pair_stats(graph)
    pairs["type_checking_statements"] = sum(1 for i in imports if i.type_checking)
    pairs["pairs_only_under_type_checking"] = sorted(
        f"{a} -> {b}" for a in nodes for b in graph_tc[a] - graph[a]
    )
    layout = "after (games/)" if GAMES_ROOT in packages else "before (bot/tempus/)"
    if GAMES_ROOT in packages and BOT_GAME in packages:
        layout = "mixed (bot/tempus/ and games/)"
    return {
        "root": str(root),
        "layout": layout,
        "host_packages": sorted({str(host_package(n, packages)) for n in hosts}),
        "game_imports": game_imports(imports, packages, hosts),
        "game_imports_from_games_shared": sum(
            1 for i in imports
            if not i.type_checking and is_game_shared(i.module)
            and any(is_game_code(t) for t in i.targets)
        ),
        "package_pairs": pairs,
        "layers": layer_imports(imports, packages),
        "sizes": sizes(modules, sources),
        "storage_protocols": protocols(root),
    }


def format_text(report: dict[str, Any]) -> str:
    out: list[str] = []
    add = out.append
    add(f"layout: {report['layout']}")
    add(f"host packages: {', '.join(report['host_packages'])}")

    gi = report["game_imports"]
    add("")
    add("1. Imports of game code (engine, render, bot.tempus, games.<game>) from host modules")
    add(f"   {gi['statements']} import statements from {gi['modules_with_any']} of "
        f"{gi['host_modules']} host modules ({gi['in_functions']} inside functions)")
    add(f"   left out, under TYPE_CHECKING: {gi['type_checking_statements']} statements "
        f"in {gi['type_checking_modules']} modules")
    add("   by host package (statements / modules):")
    for pkg, row in gi["per_package"].items():
        add(f"     {pkg:<16} {row['statements']:>4} / {row['modules']}")
    add("   by game package imported (module references):")
    for pkg, n in gi["per_game_package"].items():
        add(f"     {pkg:<16} {n:>4}")
    add(f"   top {TOP} modules:")
    for row in gi["top_modules"]:
        add(f"     {row['statements']:>4}  {row['module']}")
    if report["game_imports_from_games_shared"]:
        add(f"   (and {report['game_imports_from_games_shared']} from games' shared modules, "
            "not counted above)")

    pp = report["package_pairs"]
    n = len(pp["nodes"])
    add("")
    add(f"2. Package pairs ({n} packages: {', '.join(pp['nodes'])})")
    add(f"   unordered pairs with an import in at least one direction: "
        f"{pp['unordered_pairs']} of {pp['possible_unordered_pairs']}")
    add(f"   ordered pairs (A imports B): {pp['ordered_pairs']} of "
        f"{pp['possible_ordered_pairs']}")
    add(f"   pairs importing each other both ways: {pp['mutual_pairs']}")
    add(f"   pairs with no import either way: {', '.join(pp['not_importing']) or 'none'}")
    add(f"   left out: {pp['type_checking_statements']} statements under TYPE_CHECKING; "
        "edges they alone would add: "
        + (", ".join(pp["pairs_only_under_type_checking"]) or "none"))
    add(f"   strongly connected components with a cycle: {len(pp['cycles'])}")
    for cycle in pp["cycles"]:
        add(f"     {len(cycle)}: {', '.join(cycle)}")
    add(f"   outside any cycle: {', '.join(pp['outside_cycles']) or 'none'}")
    add(f"   all {n} packages in one cycle: {'yes' if pp['all_in_one_cycle'] else 'no'}")

    ly = report["layers"]
    add("")
    add("3. Upward imports (layers bottom to top: "
        + " < ".join(ly["layers_bottom_to_top"]) + ")")
    add(f"   {len(ly['upward'])} upward imports (one a statement and module imported): "
        f"{len({(r['module'], r['line']) for r in ly['upward']})} statements in "
        f"{len({r['module'] for r in ly['upward']})} modules "
        f"({sum(1 for r in ly['upward'] if r['in_function'])} inside functions), "
        f"{len(ly['upward_package_edges'])} package edges")
    for row in ly["upward"]:
        add(f"     {_import_row(row)}")
    add(f"   upward package edges: {', '.join(ly['upward_package_edges']) or 'none'}")
    add(f"   {len(ly['sideways'])} sideways imports (between packages of one layer)"
        + (":" if ly["sideways"] else ""))
    for row in ly["sideways"]:
        add(f"     {_import_row(row)}")

    sz = report["sizes"]
    add("")
    add(f"4. Sizes ({sz['modules']} modules, {sz['total_lines']} lines)")
    add("   longest modules (lines):")
    for row in sz["longest_modules"]:
        add(f"     {row['lines']:>5}  {row['module']}")
    add("   longest classes (lines, methods, forwarding-only methods):")
    for row in sz["longest_classes"]:
        add(f"     {row['lines']:>5} {row['methods']:>4} {row['forwarding']:>4}  {row['class']}")
    add("   most methods (methods, lines, forwarding-only methods):")
    for row in sz["most_methods"]:
        add(f"     {row['methods']:>5} {row['lines']:>4} {row['forwarding']:>4}  {row['class']}")
    add(f"   forwarding-only methods (return [await] self.x.method(...)): "
        f"{sz['forwarding_total']}; most in:")
    for row in sz["forwarding_classes"]:
        add(f"     {row['forwarding']:>5} of {row['methods']:<4} {row['class']}")

    sp = report["storage_protocols"]
    add("")
    add(f"5. Storage protocols ({', '.join(sp['files']) or 'not found'})")
    for row in sp["protocols"]:
        extends = f", extends {', '.join(row['extends'])}" if row["extends"] else ""
        add(f"   {row['protocol']}: {row['methods']} methods ({row['own_methods']} own"
            f"{extends})")
    return "\n".join(out) + "\n"


def _import_row(row: dict[str, Any]) -> str:
    where = ", in a function" if row["in_function"] else ""
    return f"{row['module']} -> {row['imported']}  (line {row['line']}{where})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.architecture.report", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
    parser.add_argument(
        "--root", type=Path, default=Path(__file__).resolve().parents[2],
        help="the tree to read (default: the one this file is in)",
    )
    args = parser.parse_args(argv)
    report = analyse(args.root)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_text(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
