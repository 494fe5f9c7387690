"""New text in a result or verdict label repaints the label, not the panel: the window's
layout is asked again only when the text needs another height, and a long text still
gets every line it needs (nothing clipped)."""

from __future__ import annotations

from _qt_probes import shown_in_panel
from PySide6 import QtCore, QtWidgets

from fpinspector.ui.steady_label import SteadyLabel


def _panel(qtbot) -> tuple[QtWidgets.QWidget, SteadyLabel, QtWidgets.QLabel]:
    label = QtWidgets.QLabel("first text")
    label.setWordWrap(True)
    held = SteadyLabel(label, 2)
    return shown_in_panel(qtbot, held), held, label


def test_text_that_fits_asks_no_layout_of_the_panel(qtbot, layout_requests) -> None:
    panel, held, label = _panel(qtbot)
    spy = layout_requests(panel)
    before = held.height()
    for text in ("exact 1.0", "another value, still one line", "0.1 + 5.55e-18"):
        label.setText(text)
        QtWidgets.QApplication.processEvents()
    assert spy.count == 0
    assert held.height() == before
    assert label.geometry() == held.rect()


def test_new_selectable_text_is_painted_once(qtbot, paints) -> None:
    """A selectable label lays its text out when it is set: laid out in its first paint,
    it asked for a second one (every edit painted such labels twice)."""
    panel, held, label = _panel(qtbot)
    label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
    for wrap in (True, False):
        label.setWordWrap(wrap)
        for text in ("exact 1.0", "another value, still one line", "0.1 + 5.55e-18"):
            label.setText(text + str(wrap))
            spy = paints(label)
            for _ in range(3):
                QtWidgets.QApplication.processEvents()
            assert spy.count == 1, (wrap, text)
            label.removeEventFilter(spy)


def test_a_long_text_gets_its_lines_and_the_panel_relays_out(qtbot, layout_requests) -> None:
    panel, held, label = _panel(qtbot)
    spy = layout_requests(panel)
    short_h = held.height()
    label.setText(" ".join(["a long verdict reason that wraps"] * 12))
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()
    assert spy.count >= 1
    assert held.height() > short_h
    assert held.height() >= label.heightForWidth(held.width())  # every line shown
    label.setText("short again")
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()
    assert held.height() == short_h  # back to its reserved lines


def test_a_narrower_panel_rewraps_to_more_lines(qtbot) -> None:
    panel, held, label = _panel(qtbot)
    label.setText(" ".join(["wrapping words"] * 6))
    QtWidgets.QApplication.processEvents()
    wide_h = held.height()
    panel.resize(120, 300)
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()
    assert held.height() > wide_h
    assert held.height() >= label.heightForWidth(held.width())


def test_a_bigger_font_reserves_taller_lines(qtbot) -> None:
    panel, held, label = _panel(qtbot)
    before = held.height()
    font = panel.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    panel.setFont(font)  # (propagates to the holder and its label)
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()
    assert held.height() >= 2 * label.fontMetrics().lineSpacing()
    assert held.height() > before


def test_a_label_below_shares_the_lines_and_follows_the_one_above(qtbot, layout_requests) -> None:
    """A headline and its detail in one holder (the verdict): new text that fits the
    reserved lines asks no layout of the panel; the detail starts where the headline ends,
    also when the headline takes a second line inside the same reservation; a text that
    needs more lines gets them."""
    head, detail = QtWidgets.QLabel("NOT CONFORMANT: flushed"), QtWidgets.QLabel("ULP error 0")
    for lab in (head, detail):
        lab.setWordWrap(True)
    held = SteadyLabel(head, 3, below=detail)
    panel = shown_in_panel(qtbot, held)  # (kept: the panel owns the holder)
    spy = layout_requests(panel)
    reserved = held.height()
    line = head.fontMetrics().lineSpacing()
    for top, below in (("CONFORMANT: exact", "ULP error 0.25; 1 bit differs"),
                       ("NOT CONFORMANT: a denormal result must be flushed to +0: F32-FTZ",
                        "ULP error 0")):
        head.setText(top)
        detail.setText(below)
        QtWidgets.QApplication.processEvents()
        QtWidgets.QApplication.processEvents()
        assert spy.count == 0 and held.height() == reserved
        assert detail.y() == head.geometry().bottom() + 1  # right under the headline
        assert head.height() >= head.heightForWidth(held.width())  # every line of it
    assert head.height() >= 2 * line  # (the long headline took its second line)
    detail.setText(" ".join(["a detail that wraps over many lines"] * 8))
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()
    assert held.height() > reserved and spy.count >= 1
    assert detail.geometry().bottom() < held.height()
    assert detail.height() >= detail.heightForWidth(held.width())
