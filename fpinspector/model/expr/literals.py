"""Literals: decimal floats round to nearest even once (as a compiler folds them); integers
stay exact until their context makes them float values or uint bits."""

from __future__ import annotations

from dataclasses import dataclass

from ..formats import FloatFormat
from .errors import ExprError
from .nodes import Num

__all__ = ["Literal", "read_literal", "float_bits"]


@dataclass(frozen=True)
class Literal:
    """``value`` is an int (integer literal) or the float pattern ``bits`` (float literal)."""

    text: str
    integer: int | None = None
    bits: int | None = None
    unsigned: bool = False


def read_literal(node: Num, fmt: FloatFormat) -> Literal:
    """Read a numeric literal; refuses suffixes the language does not model."""
    t = node.text
    if t[:2].lower() == "0x":
        unsigned = t[-1] in "uU"
        if len(t.rstrip("uU")[2:].lstrip("0")) > 8:
            raise ExprError(f"integer literal {_short(t)} is outside 32 bits", node.pos,
                            node.end)
        v = int(t[2:].rstrip("uU"), 16)
        return _int_lit(node, v, unsigned)
    suffix = t[-1] if t[-1].isalpha() and t[-1] not in "eE" else ""
    body = t[:-1] if suffix else t
    is_float = any(c in body for c in ".eE")
    if not is_float:
        if len(body.lstrip("0")) > 10:  # (also before int(): Python refuses 4300+ digits)
            raise ExprError(f"integer literal {_short(t)} is outside 32 bits", node.pos,
                            node.end)
        if suffix in ("u", "U"):
            return _int_lit(node, int(body), True)
        if suffix:
            raise ExprError(f"integer literal with suffix '{suffix}': write {body}.0f for a "
                            "float", node.pos, node.end)
        return _int_lit(node, int(body), False)
    if suffix in ("h", "H", "l", "L"):
        kind = "half" if suffix in "hH" else "double"
        raise ExprError(f"{kind} literals ('{t}') are not supported: floats follow the "
                        "expression's format", node.pos, node.end)
    if suffix and suffix not in "fF":
        raise ExprError(f"unknown literal suffix '{suffix}' in '{t}'", node.pos, node.end)
    if body[-1] in "eE":
        raise ExprError(f"literal '{_short(t)}' has an exponent without digits (write e.g. "
                        f"{body}3)", node.pos, node.end)
    try:
        bits = int(fmt.encode(body))
    except ValueError:
        raise ExprError(f"'{_short(t)}' is not a number literal", node.pos, node.end) from None
    if (bits & ~fmt.sign_mask) == fmt.pos_inf:
        raise ExprError(f"literal {_short(body)} overflows {fmt.name} (largest finite "
                        f"{fmt.max:.9g})", node.pos, node.end)
    return Literal(t, bits=bits)


def _short(text: str) -> str:
    """A literal as quoted in a message: at most 40 characters of it."""
    return text if len(text) <= 40 else text[:37] + "..."


def _int_lit(node: Num, v: int, unsigned: bool) -> Literal:
    if v > 0xFFFFFFFF:
        raise ExprError(f"integer literal {_short(node.text)} is outside 32 bits", node.pos,
                        node.end)
    return Literal(node.text, integer=v, unsigned=unsigned)


def float_bits(value: int, fmt: FloatFormat, node_pos: int, node_end: int) -> int:
    """An integer used as a float: its value, rounded to nearest even (a compile-time fold)."""
    bits = int(fmt.encode(int(value)))
    if (bits & ~fmt.sign_mask) == fmt.pos_inf:
        raise ExprError(f"{value} overflows {fmt.name}", node_pos, node_end)
    return bits
