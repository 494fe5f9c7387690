"""A SteadyLabel measures a text once per font (qt_utils.text_width).

Issue 36's latency: Decode's rows and All formats' rule labels are SteadyLabels, and each
new text was measured to decide whether it still fits on one line (about 13 texts an
all-formats row click, wide), most of them shown before (a class, an exponent, a rule
list). These tests prove a text shown before is not measured again in the same font, and
that a new font measures afresh, so a text that no longer fits gets its lines.
"""

from __future__ import annotations

from _qt_probes import measured_texts, shown_in_panel
from PySide6 import QtGui, QtWidgets

from fpinspector.ui.steady_label import SteadyLabel

_TEXTS = ("127 (0x7F), unbiased 2^0", "123 (0x7B), unbiased 2^-4", "127 (0x7F), unbiased 2^0")


def _shown(qtbot) -> tuple[QtWidgets.QWidget, SteadyLabel, QtWidgets.QLabel]:
    label = QtWidgets.QLabel("first text")
    label.setWordWrap(True)
    held = SteadyLabel(label)
    return shown_in_panel(qtbot, held), held, label


def test_a_text_shown_before_is_not_measured_again(qtbot, monkeypatch) -> None:
    """Exponent texts A, B, A: A and B are measured when first set, A's return is not
    (on main: measured each time); the holder keeps its one line throughout."""
    panel, held, label = _shown(qtbot)
    one_line = held.height()
    texts = measured_texts(monkeypatch)
    counts = []
    for text in _TEXTS:
        texts.clear()
        label.setText(text)
        QtWidgets.QApplication.processEvents()  # (the holder's layout event)
        counts.append(texts.count(text))
        assert held.height() == one_line
    assert counts == [1, 1, 0], counts


def test_a_new_font_measures_afresh_and_the_text_gets_its_lines(qtbot, monkeypatch) -> None:
    """A text measured on one line, then a font four times as big on the label: set
    again after another text, it is measured in the new font and wraps (the holder grows
    to hold its lines); kept widths of the old font would have left it clipped."""
    panel, held, label = _shown(qtbot)
    long_line = "0x3FC00000 = 1.5, the next pattern up"
    label.setText(long_line)
    QtWidgets.QApplication.processEvents()
    one_line = held.height()
    font = QtGui.QFont(label.font())
    font.setPointSizeF(font.pointSizeF() * 4)
    label.setFont(font)
    label.setText("x")
    QtWidgets.QApplication.processEvents()
    texts = measured_texts(monkeypatch)
    label.setText(long_line)
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()
    assert long_line in texts
    assert held.height() > one_line
    assert held.height() >= label.heightForWidth(held.width())
