"""Read sweep domain specs (``all``, ``bits:LO:HI[:N]``, ``lin:A:B[:N]``, ``log:A:B[:N]``,
``SPEC_A x SPEC_B``) into :mod:`.domain` objects, with clear ValueErrors."""

from __future__ import annotations

from ..formats import CodeFormat, FloatFormat, operand_format
from .domain import MAX_ELEMENTS, Axis, Domain, GridDomain, UnaryDomain

__all__ = ["parse_axis", "parse_domain"]


def _num(text: str) -> float:
    t = text.strip().lower()
    try:
        if t.startswith(("0x", "-0x", "+0x")) and "p" in t:
            return float.fromhex(t)
        return float(t)
    except (ValueError, OverflowError):
        raise ValueError(f"{text!r} is not a number") from None


def _count(text: str) -> int:
    """The N of a spec: a whole number of samples, at least 1 (``0x`` hex allowed)."""
    try:
        n = int(text, 0)
    except ValueError:
        raise ValueError(f"N must be a whole number of samples, got {text!r}") from None
    if n < 1:
        raise ValueError(f"N must be at least 1, got {n}")
    if n > MAX_ELEMENTS:
        raise ValueError(f"N = {n} samples; a sweep covers at most 2^36 = {MAX_ELEMENTS}")
    return n


def _pattern(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number (patterns are 0x... hex or "
                         "decimal)") from None


def parse_axis(spec: str, fmt: str | FloatFormat | CodeFormat, default_n: int = 1024) -> Axis:
    """Read an axis spec: ``all``, ``bits:LO:HI[:N]``, ``lin:A:B[:N]``, ``log:A:B[:N]``.

    Patterns are integers (hex ``0x3F800000`` or decimal); values are decimal or hex floats.
    Integer code types (``i32``, ``unorm8``, ...) take ``all`` or ``bits`` over their codes
    (negative codes allowed for signed types). Bad specs raise ``ValueError`` naming what
    is wrong.
    """
    f = operand_format(fmt)
    parts = [p.strip() for p in spec.strip().split(":")]
    kind = parts[0].lower()
    try:
        if kind == "all":
            if len(parts) != 1:
                raise ValueError("'all' takes no arguments")
            return Axis.every(f)
        if kind in ("bits", "lin", "linear", "log") and len(parts) not in (3, 4):
            raise ValueError("expected KIND:START:STOP[:N]")
        n = _count(parts[3]) if len(parts) == 4 else None
        if kind == "bits":
            return Axis.bit_range(f, _pattern(parts[1]), _pattern(parts[2]), n)
        if kind in ("lin", "linear", "log"):
            if isinstance(f, CodeFormat):
                raise ValueError(f"{f.name} operands are integer codes: use bits:LO:HI[:N] "
                                 "or all")
            make = Axis.log if kind == "log" else Axis.linear
            return make(f, _num(parts[1]), _num(parts[2]), default_n if n is None else n)
    except ValueError as exc:
        raise ValueError(f"bad domain {spec!r}: {exc}") from None
    raise ValueError(f"bad domain {spec!r}: kind must be all, bits, lin or log")


def parse_domain(spec: str, fmt: str | FloatFormat, arity: int, default_n: int = 1024) -> Domain:
    """Read a domain: one axis spec for unary ops; ``SPEC_A x SPEC_B`` (or one spec used
    for both operands) for binary ops."""
    if arity not in (1, 2):
        raise ValueError(f"sweeps cover one- and two-operand ops, not {arity}-operand ones "
                         "(fix the others: e.g. mad sweeps A x B with C given)")
    parts = [p for p in spec.split(" x ")] if " x " in spec else [spec]
    if arity == 1:
        if len(parts) != 1:
            raise ValueError(f"a unary op takes one axis, got {spec!r}")
        return UnaryDomain(parse_axis(parts[0], fmt, default_n))
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise ValueError(f"a binary op takes 'A x B', got {spec!r}")
    return GridDomain(parse_axis(parts[0], fmt, default_n), parse_axis(parts[1], fmt, default_n))
