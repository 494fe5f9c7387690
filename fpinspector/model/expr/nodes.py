"""The syntax tree of an expression: plain dataclasses with the source span of each node."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Node", "Num", "Var", "Call", "Unary", "Binary", "Select", "Swizzle"]


@dataclass(frozen=True)
class Node:
    """Base: ``pos``..``end`` is the node's span in the source text."""

    pos: int
    end: int


@dataclass(frozen=True)
class Num(Node):
    """A literal as written (``1.5``, ``1.5f``, ``2``, ``0x3f800000``)."""

    text: str


@dataclass(frozen=True)
class Var(Node):
    """A variable name."""

    name: str


@dataclass(frozen=True)
class Call(Node):
    """``name(args...)``: an intrinsic or a vector constructor (``float3(...)``)."""

    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    """``-x`` or ``+x``."""

    op: str
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    """``a op b`` for arithmetic and comparisons; ``op_pos`` is where the operator is."""

    op: str
    left: Node
    right: Node
    op_pos: int


@dataclass(frozen=True)
class Select(Node):
    """``cond ? a : b``."""

    cond: Node
    a: Node
    b: Node


@dataclass(frozen=True)
class Swizzle(Node):
    """``base.xyz``: components picked by name (xyzw or rgba)."""

    base: Node
    comps: str
    name_pos: int
