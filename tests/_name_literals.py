"""The source checks of issue 37 ("no code compares a format or rule-set name"): every
comparison in a module's source with one of a set of names written as a literal."""

from __future__ import annotations

import ast
from collections.abc import Iterable


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
