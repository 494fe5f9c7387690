"""Tokens of the expression language: numbers, names, operators; anything else is refused here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .errors import ExprError

__all__ = ["Token", "tokenize", "iter_tokens"]

_NUMBER = re.compile(
    r"0[xX][0-9a-fA-F]+[uU]?"  # hex integer (asfloat(0x3f800000))
    r"|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[a-zA-Z]?"  # decimal, optional suffix letter
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_OPS = ("<=", ">=", "==", "!=", "+", "-", "*", "/", "<", ">", "?", ":", ",", "(", ")", ".")
#: characters that mean another language's construct: say which, not just "unexpected"
_FOREIGN = {
    '"': "string literals are not part of the expression language",
    "'": "string literals are not part of the expression language",
    "[": "brackets are not part of the expression language (pick components with .x .xy ...)",
    "]": "brackets are not part of the expression language",
    "{": "braces are not part of the expression language",
    "}": "braces are not part of the expression language",
    "=": "assignment is not part of the expression language (bind variables separately)",
    "%": "the % operator is not supported",
    "&": "bitwise and logical operators are not supported",
    "|": "bitwise and logical operators are not supported",
    "^": "bitwise operators are not supported",
    "~": "bitwise operators are not supported",
    "!": "logical not is not supported (compare with == / !=)",
    ";": "one expression only: no statements",
    "@": "the @ operator is not supported",
    "#": "comments and directives are not supported",
    "\\": "backslashes are not part of the expression language",
}


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is "num", "name", "op" or "end"; ``pos``/``end`` its span."""

    kind: str
    text: str
    pos: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens (whitespace skipped), ending with an "end" token.

    Raises
    ------
    ExprError
        On a character that belongs to no token, with its position.
    """
    return list(iter_tokens(text))


def iter_tokens(text: str) -> Iterator[Token]:
    """Tokens one at a time (the parser pulls them, so the first error found is the
    leftmost one: ``__import__("os")`` is refused at ``__import__``, not at the quote)."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        m = _NUMBER.match(text, i) if (c.isdigit() or (c == "." and text[i + 1:i + 2].isdigit())) else None
        if m:
            yield Token("num", m.group(), i, m.end())
            i = m.end()
            continue
        m = _NAME.match(text, i)
        if m:
            yield Token("name", m.group(), i, m.end())
            i = m.end()
            continue
        for op in _OPS:
            if text.startswith(op, i):
                yield Token("op", op, i, i + len(op))
                i += len(op)
                break
        else:
            if text.startswith("&&", i) or text.startswith("||", i):
                raise ExprError("logical operators are not supported (use ?: and comparisons)", i, i + 2)
            why = _FOREIGN.get(c, f"unexpected character {c!r}")
            raise ExprError(why, i)
    yield Token("end", "", n, n)
