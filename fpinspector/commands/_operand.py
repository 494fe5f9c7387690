"""One operand or observed result of ``fpinspector eval`` as an integer, and the ranges of the
integer kinds; shared by single-value and batch evaluation (neither imports the other)."""

from __future__ import annotations

from ..model.formats import FORMATS, get_format

__all__ = ["INT_RANGES", "kind_range", "read_operand"]

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


def read_operand(text: str, kind: str) -> int:
    """One operand or observed result as an integer: a 0x pattern, a decimal value encoded
    with nearest-even (formats), an integer (int/code kinds) or true/false (bool)."""
    t = text.strip()
    if kind == "bool" and t.lower() in ("true", "false"):
        return int(t.lower() == "true")
    if kind not in FORMATS:  # integer / code operands
        try:
            return int(t, 0)
        except ValueError:
            raise ValueError(f"operand {t!r}: expected an integer") from None
    if t.lower().startswith(("0x", "-0x")) and "p" not in t.lower():
        try:
            v = int(t, 16)
        except ValueError:
            raise ValueError(f"operand {t!r}: not a hex pattern") from None
        if v < 0:
            raise ValueError(f"operand {t!r}: a bit pattern cannot be negative "
                             "(write the sign bit into the pattern)")
        return v
    try:
        return int(get_format(kind).encode(t))
    except (ValueError, ArithmeticError):
        raise ValueError(f"operand {t!r}: not a pattern or a decimal value") from None
