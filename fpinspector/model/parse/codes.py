"""Read integer operand codes (i32, u32, unorm8, snorm16, ...) from typed or pasted text."""

from __future__ import annotations

import re

from ..formats import CodeFormat, operand_format

__all__ = ["code_type", "parse_code", "parse_codes"]

_INT_TOKEN = re.compile(r"^(?:[+-]?[0-9][0-9_]*|0[xX][0-9a-fA-F_]+)$")


def code_type(fmt: str) -> CodeFormat:
    """The integer code type named ``fmt``; ValueError for a float format or a bad name."""
    t = operand_format(fmt)
    if not isinstance(t, CodeFormat):
        raise ValueError(f"{t.name} is a float format, not an integer code type")
    return t


def parse_code(fmt: str, text: str) -> int:
    """Read a decimal integer or a 0x pattern as the code's pattern; ValueError when it is
    not an integer or lies outside the type (e.g. 256 for unorm8, -1 for u32)."""
    code = code_type(fmt)
    t = text.strip().replace("_", "").replace(" ", "")
    if t.lower().startswith("0x"):
        try:
            value = int(t, 16)
        except ValueError:
            raise ValueError(f"{text.strip()!r} is not an integer or a 0x pattern") from None
        if value >> code.bits:
            raise ValueError(f"0x{value:X} is wider than {code.bits} bits")
        return value
    try:
        value = int(t, 10)
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not an integer or a 0x pattern") from None
    if not code.lo <= value <= code.hi:
        raise ValueError(f"{value} is outside {code.name} ({code.lo}..{code.hi})")
    return code.pattern(value)


def parse_codes(fmt: str, text: str) -> list[int] | None:
    """Pasted text as operand codes of ``fmt``, or None when it is not a list of integers.

    Why: with itof picked, "16777217" or "0xFFFFFFFF" are codes; reading them as float
    values first would round 2^24 + 1 or make a NaN. Tokens split at commas and spaces;
    an integer outside the type raises ValueError naming it. Float formats give None.
    """
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if not isinstance(operand_format(fmt), CodeFormat) or not tokens \
            or not all(_INT_TOKEN.match(t) for t in tokens):
        return None
    return [parse_code(fmt, t) for t in tokens]
