"""The source checks of issue 37 ("no code compares a format or rule-set name"): every
comparison in a module's source with one of a set of names written as a literal."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from pathlib import Path


def _names(node: ast.AST, names: frozenset[str]) -> set[str]:
    """``names`` written as a literal, alone or in a tuple/list/set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & names
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*(_names(e, names) for e in node.elts))
    return set()


def name_comparisons(source: str, names: Iterable[str]) -> list[str]:
    """Every comparison (``==``, ``!=``, ``in``...) with a literal of ``names``."""
    wanted = frozenset(names)
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
                _names(x, wanted) for x in (node.left, *node.comparators)):
            out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


def literal_names(node: ast.AST, names: Iterable[str]) -> set[str]:
    """The ``names`` a node writes as a literal, alone or in a tuple/list/set."""
    return _names(node, frozenset(names))


def comparisons_in(folders: Iterable[Path], root: Path,
                   find: Callable[[str], list[str]]) -> dict[str, list[str]]:
    """``find``'s hits in every module under ``folders``, keyed by the path from ``root``
    (modules without a hit left out): what a source check asserts empty."""
    found = {}
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            hits = find(path.read_text(encoding="utf-8"))
            if hits:
                found[str(path.relative_to(root))] = hits
    return found
