"""What the tokenizer gives (:class:`Token`) and the error of text that cannot be read
(:class:`ParseError`): apart from the tokenizer, so that the passes over its tokens
(gdb's register views, ...) need not import it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ParseError", "Token"]


class ParseError(ValueError):
    """Text that cannot be read as values; names the offending position.

    Attributes
    ----------
    index : int
        Offset of the problem in the text (0-based).
    line, column : int
        1-based line and column of ``index``.
    reason : str
        The message without the caret excerpt.
    """

    def __init__(self, reason: str, text: str = "", index: int = 0) -> None:
        index = max(0, min(int(index), len(text)))
        line_start = text.rfind("\n", 0, index) + 1
        line_end = text.find("\n", index)
        if line_end < 0:
            line_end = len(text)
        line_no = text.count("\n", 0, index) + 1
        col = index - line_start
        # show at most 60 characters either side so a long paste stays readable
        lo = max(line_start, index - 60)
        hi = min(line_end, index + 60)
        excerpt = text[lo:hi].replace("\t", " ").replace("\r", " ")
        caret = " " * (index - lo) + "^"
        self.index = index
        self.line = line_no
        self.column = col + 1
        self.reason = reason
        where = f"at index {index} (line {line_no}, column {col + 1})"
        msg = f"{reason} {where}" if not text else f"{reason} {where}:\n  {excerpt}\n  {caret}"
        super().__init__(msg)


@dataclass
class Token:
    """One lexical piece: ``kind`` is hex, byte, bin, dec, hexfloat, special, int, int_word,
    type, open, close, repeat, member and amember (a view of a gdb register union, x86 and AArch64 names), wide (a vector
    register's bits) or nl; ``fmt`` is a format hint from a suffix or type word."""

    kind: str
    text: str
    start: int
    end: int
    fmt: str | None = None
    extra: object = None
