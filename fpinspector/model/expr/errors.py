"""ExprError: every refusal of an expression (syntax, names, types, bindings) with its position."""

from __future__ import annotations

__all__ = ["ExprError"]


class ExprError(ValueError):
    """An expression the language refuses, with where in the text it happened.

    Parameters
    ----------
    message : str
        What is wrong, in the user's terms (no Python internals).
    pos : int
        0-based character offset of the offending text (``len(text)`` for "unexpected end").
    end : int, optional
        End of the offending span (exclusive); defaults to ``pos + 1``.

    Notes
    -----
    ``str(err)`` reads "message (at column N)", columns counting from 1, which is what the
    CLI prints; :meth:`caret` draws the text with a caret line under the span for a
    terminal, and the app selects ``pos..end`` in its text field.
    """

    def __init__(self, message: str, pos: int, end: int | None = None) -> None:
        self.message = message
        self.pos = max(0, int(pos))
        self.end = max(self.pos + 1, int(end) if end is not None else self.pos + 1)
        super().__init__(f"{message} (at column {self.pos + 1})")

    @property
    def column(self) -> int:
        """1-based column of the start of the offending span."""
        return self.pos + 1

    def caret(self, text: str, window: int = 80) -> str:
        """Two lines: ``text`` and ``^~~`` under the offending span; a text longer than
        ``window`` characters is shown as the window around the span ("..." where cut)."""
        line = text.replace("\n", " ").replace("\t", " ")
        width = max(1, min(self.end, len(line) + 1) - self.pos)
        start = 0
        if len(line) > window:
            start = max(0, min(self.pos - window // 4, len(line) - window))
            shown = line[start:start + window]
            pre = "..." if start else ""
            line = pre + shown + ("..." if start + window < len(line) else "")
            start -= len(pre)
            width = min(width, window - (self.pos - start - len(pre)))
        return f"{line}\n{' ' * (self.pos - start)}^{'~' * (max(width, 1) - 1)}"
