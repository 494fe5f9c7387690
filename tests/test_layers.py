"""Layering (STYLE.md 1, 17): what each layer may import, and no import cycles.

model imports numpy and the standard library; gpu adds moderngl; ui adds PySide6 and
pyqtgraph; commands (the CLI) reach the GPU lazily and the app only through ``gui``. Data
flows model -> gpu -> ui, never back. The import graph is read from the source (``import``,
``from ... import``, also under ``TYPE_CHECKING`` and inside functions, and string imports:
``importlib.import_module("fpinspector...")`` or any call given a literal module path), so a
lazy or string import cannot hide a dependency.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
from functools import cache

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "fpinspector"

#: Third-party packages each layer may import (the standard library is always allowed).
THIRD_PARTY = {
    # mpmath: the engine's exact reference for transcendental ops (engine/exact/)
    "model": {"numpy", "mpmath"},
    # wgpu: the WebGPU capture backend, imported only in gpu/wgpu_devices.py, lazily
    "gpu": {"numpy", "moderngl", "glcontext", "wgpu"},
    "ui": {"numpy", "PySide6", "shiboken6", "pyqtgraph"},
    "commands": {"numpy"},
    "cli": set(),
}
#: fpinspector packages each layer may import (besides itself).
INTERNAL = {
    "model": set(),
    "gpu": {"model"},
    "ui": {"model", "gpu"},
    "commands": {"model", "gpu"},
    "cli": {"commands"},
}
#: The one sanctioned way up: the ``gui`` subcommand starts the app.
EXCEPTIONS = {("fpinspector.commands.gui", "fpinspector.ui.shell.app")}
#: Cycles whose removal is under way elsewhere (none at present). Nothing may be added, and
#: an entry goes as soon as its cycle does (test_known_cycles_are_still_there).
KNOWN_CYCLES: list[set[str]] = []


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, pathlib.Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _absolute(path: pathlib.Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = _module_name(path).split(".")
    if path.name != "__init__.py":
        parts = parts[:-1]  # the package the module sits in
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, imported name) for every import in a file, string imports included; a
    ``from pkg import name`` gives ``pkg.name`` when that is a module, else ``pkg``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mods = _modules()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(path, node)
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in mods]
            if len(subs) < len(node.names):
                found.append((node.lineno, base))
            found += [(node.lineno, s) for s in subs]
        elif isinstance(node, ast.Call):
            for arg in node.args[:1]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                        and arg.value.startswith("fpinspector."):
                    found.append((node.lineno, arg.value))
    return found


def _owner(name: str) -> str | None:
    """The module of ``fpinspector`` that ``name`` is or lies in (None: not ours)."""
    mods = _modules()
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


@cache
def import_graph() -> dict[str, set[str]]:
    """fpinspector module -> the fpinspector modules it imports."""
    graph: dict[str, set[str]] = {}
    for mod, path in _modules().items():
        deps = {_owner(n) for _, n in imports_of(path) if n.startswith("fpinspector")}
        graph[mod] = {d for d in deps if d and d != mod}
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(comp)
    return out


def _layer(module: str) -> str:
    return module.split(".")[1]


@pytest.mark.parametrize("layer", sorted(INTERNAL))
def test_layer_imports_only_what_it_may(layer: str) -> None:
    bad = []
    for mod, path in _modules().items():
        if mod == "fpinspector" or _layer(mod) != layer:
            continue
        for line, name in imports_of(path):
            top = name.split(".")[0]
            if top == "fpinspector":
                target = _owner(name)
                if target is None or target == "fpinspector":
                    continue
                if _layer(target) in INTERNAL[layer] | {layer} or (mod, target) in EXCEPTIONS:
                    continue
            elif top in sys.stdlib_module_names or top in THIRD_PARTY[layer] or top == "":
                continue
            bad.append(f"{path.relative_to(ROOT.parent)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


def test_no_import_cycles() -> None:
    """No two modules import each other, directly or around a loop (STYLE.md 17)."""
    cycles = [c for c in strongly_connected(import_graph()) if c not in KNOWN_CYCLES]
    assert not cycles, "\n".join(" <-> ".join(sorted(c)) for c in cycles)


def test_known_cycles_are_still_there() -> None:
    """The list of tolerated cycles only shrinks: a cycle that is gone leaves the list."""
    cycles = strongly_connected(import_graph())
    gone = [sorted(k) for k in KNOWN_CYCLES if k not in cycles]
    assert not gone, f"no longer cycles, remove them from KNOWN_CYCLES: {gone}"


def _package(module: str) -> str:
    """model.<subpackage> for the model (its concepts), else the layer."""
    parts = module.split(".")
    return ".".join(parts[:3] if parts[1:2] == ["model"] else parts[:2])


def test_model_subpackages_form_layers() -> None:
    """The model's subpackages (formats, parse, describe, convert, state, engine, sweep)
    depend on each other in one direction; and none imports the ``fpinspector.model``
    façade, which imports them all."""
    graph: dict[str, set[str]] = {}
    for mod, deps in import_graph().items():
        graph.setdefault(_package(mod), set()).update(
            _package(d) for d in deps if _package(d) != _package(mod))
    cycles = strongly_connected(graph)
    assert not cycles, "\n".join(" <-> ".join(sorted(c)) for c in cycles)


#: The app's sub-packages, bottom up: each imports only the shared modules at ``ui/``'s root
#: (the model's doorway ``bridge``/``bridge_ops``, Qt helpers, colours) and those before it.
UI_PACKAGES = ("inspector", "operation", "maps", "gpu", "expression", "shell")


def _ui_package(module: str) -> str | None:
    """The ui sub-package a module lies in ("" for ui/'s shared root), None outside ui."""
    parts = module.split(".")
    if parts[1:2] != ["ui"]:
        return None
    return parts[2] if len(parts) > 3 else ""


def test_ui_subpackages_form_layers() -> None:
    """The app's concepts stack in one order (UI_PACKAGES): the inspected value's views
    under the op's, the maps and the GPU above them, the expression panel above those, the
    window's shell on top; ``ui/``'s shared root imports no sub-package. A new folder
    under ``ui/`` must take its place in the list."""
    folders = {p.name for p in (ROOT / "ui").iterdir() if (p / "__init__.py").exists()}
    assert folders == set(UI_PACKAGES), f"ui/ folders not in UI_PACKAGES: {folders}"
    rank = {"": -1} | {name: i for i, name in enumerate(UI_PACKAGES)}
    bad = []
    for mod, deps in import_graph().items():
        here = _ui_package(mod)
        if here is None:
            continue
        for dep in deps:
            there = _ui_package(dep)
            if there is not None and there != here and rank[there] > rank[here]:
                bad.append(f"{mod} imports {dep}")
    assert not bad, "\n".join(sorted(bad))


def test_checker_sees_cycles_and_string_imports(tmp_path: pathlib.Path) -> None:
    """The checker itself: a two-module loop through a string import is found."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(graph) == [{"a", "b", "c"}]
    src = tmp_path / "x.py"
    src.write_text("import importlib\nimportlib.import_module('fpinspector.model.formats')\n")
    assert (2, "fpinspector.model.formats") in imports_of(src)


def test_model_imports_without_qt_or_gl() -> None:
    """The model is a public API usable on a machine with no Qt and no GL."""
    code = (
        "import sys, fpinspector.model, fpinspector.cli;"
        "bad=[m for m in ('PySide6','moderngl','pyqtgraph') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_every_import_names_a_module_that_exists() -> None:
    """Each ``fpinspector`` import statement, lazy ones inside functions included, names a
    module of the package (``from m import name``: ``m`` is one).

    Why: an import inside a function runs only when that path runs, and a relative import
    whose level is off by one after a file moved into a sub-package still resolves to an
    *owner* package, so the layer and cycle checks above pass while the call fails."""
    mods = _modules()
    missing = []
    for path in mods.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [_absolute(path, node)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            missing += [f"{path.relative_to(ROOT.parent)}:{node.lineno}: {n}" for n in names
                        if n.startswith("fpinspector") and n not in mods]
    assert not missing, "imports of modules that do not exist:\n" + "\n".join(missing)
