"""A new pattern or diff outline repaints only the run of cells that changed (the widget
is not opaque: a whole repaint also repaints the panel behind it), and what is on screen
afterwards is exactly what a full repaint of the final state shows."""

from __future__ import annotations

from _qt_probes import on_screen, shown_bit_cells
from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector.model import FORMATS
from fpinspector.ui.inspector.bit_cells import BitCells, format_segments


class _PaintRegions(QtCore.QObject):
    def __init__(self) -> None:
        super().__init__()
        self.rects: list[QtCore.QRect] = []

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QtCore.QEvent.Type.Paint:
            self.rects.append(event.region().boundingRect())
        return False


def test_one_changed_bit_repaints_one_cell(qtbot) -> None:
    win, cells = shown_bit_cells(qtbot)
    cells.set_bits(0x3F800000)
    QtWidgets.QApplication.processEvents()
    seen = _PaintRegions()
    cells.installEventFilter(seen)
    cells.set_bits(0x3F800001)  # bit 0: the rightmost cell
    QtWidgets.QApplication.processEvents()
    assert len(seen.rects) == 1
    r, cell = seen.rects[0], cells.cell_rect(0)
    assert r.width() <= cell.width() + 3 and r.contains(cell.center().toPoint())
    seen.rects.clear()
    cells.set_diff_mask(1 << 31 | 1 << 30)  # the sign and the top exponent bit
    QtWidgets.QApplication.processEvents()
    assert len(seen.rects) == 1
    assert seen.rects[0].width() <= 2 * cells.cell_rect(31).width() + 3


def test_partial_repaints_leave_what_a_full_repaint_shows(qtbot) -> None:
    win, cells = shown_bit_cells(qtbot)
    steps = [(0x3F800000, 0), (0x3F800001, 0), (0xBF800001, 1 << 4), (0x00000000, 1 << 4 | 1 << 5),
             (0x7F7FFFFF, 1 << 5), (0x7F7FFFFE, 0), (0x80000001, 1 << 31)]
    for bits, diff in steps:
        cells.set_bits(bits)
        cells.set_diff_mask(diff)
        QtWidgets.QApplication.processEvents()
    fresh_win, fresh = shown_bit_cells(qtbot)
    fresh.set_bits(steps[-1][0])
    fresh.set_diff_mask(steps[-1][1])
    fresh.update()
    QtWidgets.QApplication.processEvents()
    assert on_screen(win) == on_screen(fresh_win)


def test_every_cell_shows_its_own_digit(qtbot) -> None:
    """Each cell's picture changes between a 0 and a 1 (after partial repaints too), so
    no digit is left out of a repaint."""
    win, cells = shown_bit_cells(qtbot)
    pictures = []
    for bits in (0x00000000, 0xFFFFFFFF, 0x00000000):
        cells.set_bits(bits)
        QtWidgets.QApplication.processEvents()
        pictures.append(on_screen(win))
    offset = cells.mapTo(win, QtCore.QPoint(0, 0))
    for bit in range(32):
        r = cells.cell_rect(bit).toAlignedRect().adjusted(2, 2, -2, -2).translated(offset)
        zero, one, zero_again = (p.copy(r) for p in pictures)
        assert zero != one, f"bit {bit}: the cell did not change with its bit"
        assert zero == zero_again, f"bit {bit}: the cell did not come back to its 0"


def _cells_picture(win: QtWidgets.QWidget, cells: BitCells):
    return on_screen(win).copy(QtCore.QRect(cells.mapTo(win, QtCore.QPoint(0, 0)), cells.size()))


def test_clicks_cursor_moves_and_focus_repaint_only_their_cells(qtbot) -> None:
    """A click, a key that moves the cursor and a focus change repaint the old and the new
    cursor cell, not the whole row (nor the panel behind it); afterwards the row is what a
    full repaint of the same state shows (no focus mark left behind)."""
    win = QtWidgets.QWidget()
    cells = BitCells(32, format_segments(FORMATS["f32"]))
    other = QtWidgets.QLineEdit()
    lay = QtWidgets.QVBoxLayout(win)
    lay.addWidget(cells)
    lay.addWidget(other)
    win.resize(700, 130)
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitActive(win)
    cells.set_bits(0x3F800000)
    QtWidgets.QApplication.processEvents()
    one = cells.cell_rect(0)
    two_cells = 2 * (one.width() + 3) * (one.height() + 3)  # (each with its 1 px margin)
    regions: list[QtGui.QRegion] = []

    class Seen(QtCore.QObject):
        def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
            if event.type() == QtCore.QEvent.Type.Paint:
                regions.append(QtGui.QRegion(event.region()))
            return False

    seen = Seen()
    cells.installEventFilter(seen)

    def painted_area() -> float:
        QtWidgets.QApplication.processEvents()
        area = sum(r.width() * r.height() for reg in regions for r in reg)
        regions.clear()
        return area

    steps = [
        lambda: qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton,
                                 pos=cells.cell_rect(3).center().toPoint()),  # focus in, bit 3
        lambda: qtbot.keyClick(cells, QtCore.Qt.Key.Key_Left),  # cursor 3 -> 4
        lambda: qtbot.keyClick(cells, QtCore.Qt.Key.Key_Space),  # bit 4 toggled
        lambda: qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton,
                                 pos=cells.cell_rect(30).center().toPoint()),
        lambda: other.setFocus(),  # focus out: the mark goes
    ]
    for step in steps:
        step()
        area = painted_area()
        assert 0 < area <= two_cells, area
    assert cells.bits() == 0x3F800000 ^ (1 << 3 | 1 << 4 | 1 << 30)
    assert not cells.hasFocus()
    fresh_win, fresh = shown_bit_cells(qtbot)
    fresh.set_bits(cells.bits())
    fresh.update()
    QtWidgets.QApplication.processEvents()
    assert _cells_picture(win, cells) == _cells_picture(fresh_win, fresh)
