"""Bit cells keep their static layer (cells, grid, bit numbers, field labels) per size,
layout, font and palette, and read the font's key once per font change, not on each
paint: a new font, set on the cells or on a window they inherit it from, is drawn at the
next repaint, exactly as cells made with that font show it."""

from __future__ import annotations

import pytest
from _qt_probes import on_screen, shown_bit_cells
from PySide6 import QtGui, QtWidgets

from fpinspector.ui.inspector.bit_cells import BitCells


def _window(qtbot, font: QtGui.QFont | None = None) -> tuple[QtWidgets.QWidget, BitCells]:
    win, cells = shown_bit_cells(qtbot, font)
    cells.set_bits(0x3F800001)
    QtWidgets.QApplication.processEvents()
    return win, cells


@pytest.mark.parametrize("where", ["window", "cells"])
def test_a_new_font_is_drawn_as_cells_made_with_it_show_it(qtbot, where) -> None:
    win, cells = _window(qtbot)
    before = on_screen(win)
    big = QtGui.QFont(win.font())
    big.setPointSizeF(win.font().pointSizeF() * 1.4)
    big.setBold(True)
    (win if where == "window" else cells).setFont(big)
    QtWidgets.QApplication.processEvents()
    cells.repaint()
    QtWidgets.QApplication.processEvents()
    after = on_screen(win)
    fresh_win, fresh = _window(qtbot, big)
    assert fresh.font().key() == cells.font().key()
    assert fresh.size() == cells.size()
    assert after != before  # (the labels and bit numbers did change)
    assert after == on_screen(fresh_win)  # (a layer kept under the old font fails here)
