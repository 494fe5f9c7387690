"""The history list measures each entry once: an edit with a full history (200 entries)
lays out the list without measuring the text of every entry again, and every entry
still gets its full width (nothing elided) and new metrics after a font change."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from fpinspector.ui.history import HistoryList

_HINT = QtCore.Qt.ItemDataRole.SizeHintRole


class _CountingDelegate(QtWidgets.QStyledItemDelegate):
    """Counts the entries whose size had to be measured (no stored size to read back)."""

    def __init__(self) -> None:
        super().__init__()
        self.measured = 0

    def sizeHint(self, option, index) -> QtCore.QSize:  # noqa: N802 (Qt's name)
        if index.data(_HINT) is None:
            self.measured += 1
        return super().sizeHint(option, index)


def _history(qtbot, width: int = 140) -> HistoryList:
    h = HistoryList()
    h.resize(width, 300)
    qtbot.addWidget(h)
    h.show()
    qtbot.waitExposed(h)
    return h


def test_an_edit_with_a_full_history_measures_only_the_new_entry(qtbot) -> None:
    h = _history(qtbot)
    counting = _CountingDelegate()
    h.setItemDelegate(counting)
    for k in range(200):
        h.add("f32", 0x40000000 + k)
    QtWidgets.QApplication.processEvents()
    counting.measured = 0
    for k in range(5):  # five edits, each laid out before the next (as clicks are)
        h.add("f16", 0x3C00 + k)
        QtWidgets.QApplication.processEvents()
    assert h.count() == 200
    assert counting.measured <= 5


def test_a_long_entry_keeps_its_full_width_under_short_ones(qtbot) -> None:
    h = _history(qtbot, width=120)
    h.add("f16", 0x3C00)
    h.add("f64", 0x0000000000000001)  # "5e-324" behind 16 hex digits: the widest here
    h.add("f16", 0x3C01)
    QtWidgets.QApplication.processEvents()
    long_item = h.item(1)
    assert long_item.text().startswith("f64")
    need = h.fontMetrics().horizontalAdvance(long_item.text())
    assert h.visualItemRect(long_item).width() >= need
    assert h.horizontalScrollBar().maximum() > 0  # wider than the view: it scrolls


def test_entries_are_measured_again_after_a_font_change(qtbot) -> None:
    h = _history(qtbot)
    h.set_entries([("f32", 0x3F800000), ("f64", 0x3FF0000000000000), ("f16", 0x3C00)])
    QtWidgets.QApplication.processEvents()
    before = [h.item(r).sizeHint() for r in range(h.count())]
    assert all(s.isValid() for s in before)
    font = h.font()
    font.setPointSize(font.pointSize() * 2)
    h.setFont(font)
    QtWidgets.QApplication.processEvents()
    for r, old in enumerate(before):
        item = h.item(r)
        new = item.sizeHint()
        assert new.height() > old.height() and new.width() > old.width()
        assert h.visualItemRect(item).width() >= h.fontMetrics().horizontalAdvance(item.text())
