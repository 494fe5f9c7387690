"""A label whose new text re-lays out the window only when the text needs a new height."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from .qt_utils import text_width

__all__ = ["SteadyLabel"]

_SELECTABLE = (QtCore.Qt.TextInteractionFlag.TextSelectableByMouse
               | QtCore.Qt.TextInteractionFlag.TextSelectableByKeyboard)


class SteadyLabel(QtWidgets.QWidget):
    """Holds ``label`` (and the ``below`` label under it) with no layout of its own,
    ``min_lines`` lines tall at least, both together.

    Why: ``QLabel.setText`` always calls ``updateGeometry``, which invalidates every layout
    up to the window unless the label's size is fixed. In the central scroll area that is
    a relayout and a repaint of the whole operations panel on every edit (4 of the 5 ms an
    operand click takes to paint, offscreen, without this holder). Here the label's layout request stops at this
    holder, which asks the window for a new layout only when the height the text needs at
    the current width changes (a long text still gets its lines: nothing is clipped).
    ``below``: two plain labels in two styles (a verdict's bold, coloured headline and its
    plain detail) instead of one rich-text label, which lays out a text document for
    every new text.
    """

    def __init__(self, label: QtWidgets.QLabel, min_lines: int = 1,
                 parent: QtWidgets.QWidget | None = None, *,
                 below: QtWidgets.QLabel | None = None) -> None:
        super().__init__(parent)
        self.label = label
        self.below = below
        for lab in (label, below):
            if lab is not None:
                lab.setParent(self)
        self._lines = min_lines
        self._min_h = self._h = self._reserved()
        self._split = self._h  # the top label's height (the rest is ``below``'s)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                           QtWidgets.QSizePolicy.Policy.Fixed)

    def _reserved(self) -> int:
        return self._lines * self.label.fontMetrics().lineSpacing() + 2

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(self.label.sizeHint().width(), self._h)

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(0, self._h)

    def needed_height(self) -> int:
        """The height the text needs at the holder's width (at least min_lines).

        Also lays out now the text of a label that has a text control (rich or selectable
        text): such a label otherwise lays it out in its next paint, and that layout asks
        for a repaint, so every new text was painted twice (a second paint pass of the
        window after each edit)."""
        if self.below is None:
            need = _text_height(self.label, self.width())
            return self._min_h if need is None else max(self._min_h, need)
        top, rest = (_text_height(lab, self.width()) for lab in (self.label, self.below))
        self._split = self.label.fontMetrics().lineSpacing() if top is None else top
        rest = self.below.fontMetrics().lineSpacing() if rest is None else rest
        return max(self._min_h, self._split + rest)

    def _place(self) -> None:
        w, h = self.width(), self.height()
        if self.below is None:
            self.label.setGeometry(0, 0, w, h)
        else:
            self.label.setGeometry(0, 0, w, self._split)
            self.below.setGeometry(0, self._split, w, max(0, h - self._split))

    def _refit(self) -> None:
        split = self._split
        need = self.needed_height()
        if need != self._h:
            self._h = need
            self.updateGeometry()
        elif self._split != split:  # (the same height, shared another way)
            self._place()

    def resizeEvent(self, event: QtCore.QEvent) -> None:  # type: ignore[override]
        self._refit()
        self._place()

    def event(self, event: QtCore.QEvent) -> bool:  # type: ignore[override]
        kind = event.type()
        if kind == QtCore.QEvent.Type.LayoutRequest:  # (posted by a label)
            self._refit()
            return True
        handled = super().event(event)
        if kind in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._min_h = self._reserved()  # (a new font: new line heights)
            self._refit()
        return handled


def _text_height(lab: QtWidgets.QLabel, w: int) -> int | None:
    """The height ``lab``'s text needs at width ``w``; None for plain text on one line (most
    edits: no layout asked of the label)."""
    text = lab.text()
    if (w > 0 and "<" not in text and "\n" not in text
            and text_width(lab, text) + 2 * lab.margin() + 8 <= w):  # (kept per font)
        if lab.textInteractionFlags() & _SELECTABLE:
            lab.heightForWidth(w)  # (the text control's layout, now)
        return None
    if lab.wordWrap() and w > 0:
        return lab.heightForWidth(w)
    return lab.sizeHint().height()
