"""One operand or observed result of ``fpinspector eval`` as an integer, and the ranges of the
integer kinds; shared by single-value and batch evaluation (neither imports the other)."""

from __future__ import annotations

from ...model.formats import FORMATS, get_format
from ...model.reading import excerpt

__all__ = ["INT_RANGES", "kind_range", "read_operand", "read_integer"]

#: Inclusive value ranges of the integer/code operand and result kinds of the rule engine.
INT_RANGES: dict[str, tuple[int, int]] = {
    "i32": (-2**31, 2**31 - 1), "u32": (0, 2**32 - 1),
    "unorm8": (0, 255), "snorm8": (-128, 127), "unorm16": (0, 65535),
    "snorm16": (-32768, 32767), "srgb8": (0, 255), "bool": (0, 1),
}


def kind_range(kind: str) -> tuple[int, int]:
    """Inclusive range of a pattern (format kinds) or integer code kind."""
    if kind in FORMATS:
        return 0, FORMATS[kind].mask
    return INT_RANGES[kind]


def read_integer(text: str) -> int:
    """The one integer reader of ``eval`` operands, single or batch: an optional sign, then
    decimal digits (leading zeros allowed: ``010`` is 10, as the vectorized batch reader
    reads it) or ``0x`` hex. ValueError otherwise (the text quoted, at most 40 characters)."""
    t = text.strip()
    body = t[1:] if t[:1] in "+-" else t
    try:
        if len(t) > 40 or not body[:1].isdigit():
            raise ValueError
        v = int(body[2:], 16) if body[:2].lower() == "0x" else int(body, 10)
    except ValueError:
        shown = t if len(t) <= 40 else t[:37] + "..."
        raise ValueError(f"{shown!r} is not an integer") from None
    return -v if t.startswith("-") else v


def read_operand(text: str, kind: str) -> int:
    """One operand or observed result as an integer: a 0x pattern, a decimal value encoded
    with nearest-even (formats), an integer (int/code kinds) or true/false (bool)."""
    t = text.strip()
    if kind == "bool" and t.lower() in ("true", "false"):
        return int(t.lower() == "true")
    if kind not in FORMATS:  # integer / code operands
        try:
            return read_integer(t)
        except ValueError as exc:
            raise ValueError(f"operand {exc}") from None
    if t.lower().startswith(("0x", "-0x")) and "p" not in t.lower():
        try:
            v = int(t, 16)
        except ValueError:
            raise ValueError(f"operand {excerpt(t, 40)}: not a hex pattern") from None
        if v < 0:
            raise ValueError(f"operand {excerpt(t, 40)}: a bit pattern cannot be negative "
                             "(write the sign bit into the pattern)")
        return v
    try:
        return int(get_format(kind).encode(t))
    except (ValueError, ArithmeticError):
        raise ValueError(f"operand {excerpt(t, 40)}: not a pattern or a decimal value"
                         ) from None
