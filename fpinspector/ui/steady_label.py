"""A label whose new text re-lays out the window only when the text needs a new height."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["SteadyLabel"]

_SELECTABLE = (QtCore.Qt.TextInteractionFlag.TextSelectableByMouse
               | QtCore.Qt.TextInteractionFlag.TextSelectableByKeyboard)


class SteadyLabel(QtWidgets.QWidget):
    """Holds ``label`` with no layout of its own, ``min_lines`` lines tall at least.

    Why: ``QLabel.setText`` always calls ``updateGeometry``, which invalidates every layout
    up to the window unless the label's size is fixed. In the central scroll area that was
    a relayout and a repaint of the whole operations panel on every edit (4 of the 5 ms an
    operand click took to paint, offscreen). Here the label's layout request stops at this
    holder, which asks the window for a new layout only when the height the text needs at
    the current width changes (a long text still gets its lines: nothing is clipped).
    """

    def __init__(self, label: QtWidgets.QLabel, min_lines: int = 1,
                 parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        self._lines = min_lines
        self._min_h = self._h = self._reserved()
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                           QtWidgets.QSizePolicy.Policy.Fixed)

    def _reserved(self) -> int:
        return self._lines * self.label.fontMetrics().lineSpacing() + 2

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(self.label.sizeHint().width(), self._h)

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(0, self._h)

    def needed_height(self) -> int:
        """The height the label's text needs at the holder's width (at least min_lines).

        Also lays out now the text of a label that has a text control (rich or selectable
        text): such a label otherwise lays it out in its next paint, and that layout asks
        for a repaint, so every new text was painted twice (a second paint pass of the
        window after each edit)."""
        lab, w = self.label, self.width()
        text = lab.text()
        if (w > 0 and "<" not in text and "\n" not in text
                and lab.fontMetrics().horizontalAdvance(text) + 2 * lab.margin() + 8 <= w):
            if lab.textInteractionFlags() & _SELECTABLE:
                lab.heightForWidth(w)  # (the text control's layout, now)
            return self._min_h  # plain text on one line (most edits): no other layout
        if lab.wordWrap() and w > 0:
            need = lab.heightForWidth(w)
        else:
            need = lab.sizeHint().height()
        return max(self._min_h, need)

    def _refit(self) -> None:
        need = self.needed_height()
        if need != self._h:
            self._h = need
            self.updateGeometry()

    def resizeEvent(self, event: QtCore.QEvent) -> None:  # type: ignore[override]
        self.label.setGeometry(0, 0, self.width(), self.height())
        self._refit()

    def event(self, event: QtCore.QEvent) -> bool:  # type: ignore[override]
        kind = event.type()
        if kind == QtCore.QEvent.Type.LayoutRequest:  # (posted by the label)
            self._refit()
            return True
        handled = super().event(event)
        if kind in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._min_h = self._reserved()  # (a new font: new line heights)
            self._refit()
        return handled
