"""The history list measures each entry once: an edit with a full history (200 entries)
lays out the list without measuring the text of every entry again, and every entry
still gets its full width (nothing elided) and new metrics after a font change."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from fpinspector.ui.shell.history import HistoryList

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


def _rows(h: HistoryList) -> list[tuple[str, int]]:
    return [h.item(r).data(QtCore.Qt.ItemDataRole.UserRole) for r in range(h.count())]


def test_rows_behind_a_tab_catch_up_to_what_a_seen_list_shows(qtbot) -> None:
    """Two lists on one state: one on the front tab, one behind it. The hidden one's rows
    wait (no row work per edit) while its entries follow every edit; raised, its rows are
    exactly those of the list that was seen all along (moves to the top, drags as one
    entry, the oldest dropped past the limit, and more waiting edits than the limit)."""
    import random

    from fpinspector.model.state import InspectorState

    state = InspectorState()
    seen, hidden = HistoryList(state, limit=20), HistoryList(state, limit=20)
    tabs = QtWidgets.QTabWidget()
    tabs.addTab(seen, "seen")
    tabs.addTab(hidden, "hidden")
    qtbot.addWidget(tabs)
    tabs.resize(300, 300)
    tabs.show()
    qtbot.waitExposed(tabs)
    rng = random.Random(15)
    for rounds in (30, 7, 130):  # (130 edits: more than twice the limit wait)
        rows_before = _rows(hidden)
        for _ in range(rounds):
            if rng.random() < 0.1:
                seen.hold()
                hidden.hold()
                for bits in rng.sample(range(40), 3):  # a drag: its steps replace each other
                    state.update(fmt="f16", bits=0x3C00 + bits)
                seen.release()
                hidden.release()
            else:
                state.update(fmt=rng.choice(["f32", "f16"]), bits=rng.randrange(25))
            assert hidden.entries() == seen.entries()
        assert _rows(hidden) == rows_before  # nothing done to the rows behind the tab
        assert _rows(seen) == seen.entries()
        tabs.setCurrentWidget(hidden)
        qtbot.waitUntil(lambda: not hidden.visibleRegion().isEmpty())
        hidden.catch_up()  # (the window calls it when a dock tab is raised)
        assert _rows(hidden) == seen.entries()
        assert [hidden.item(r).text() for r in range(hidden.count())] == \
            [seen.item(r).text() for r in range(seen.count())]
        tabs.setCurrentWidget(seen)
        qtbot.waitUntil(lambda: hidden.visibleRegion().isEmpty())


def test_the_window_raises_the_history_tab_with_its_rows_caught_up(make_window, qtbot) -> None:
    win = make_window()
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    win.docks["conversions"].raise_()  # (the History tab behind it)
    QtWidgets.QApplication.processEvents()
    h = win.history
    rows = _rows(h)
    for bits in (0x3F800000, 0x40000000, 0x3F800000, 0x40400000):
        win.state.update(fmt="f32", bits=bits)
    assert h.entries()[:3] == [("f32", 0x40400000), ("f32", 0x3F800000), ("f32", 0x40000000)]
    assert _rows(h) == rows and h.is_stale()
    win.docks["history"].raise_()
    qtbot.waitUntil(lambda: not h.is_stale())
    assert _rows(h) == h.entries()


def test_an_entry_makes_its_exact_tooltip_when_hovered_not_when_added(qtbot, monkeypatch) -> None:
    """Adding entries asks the model for no exact expansion; a hover over an entry shows
    its pattern's exact value (0.1f, by hand with Fraction) and hex float."""
    from fractions import Fraction

    from PySide6 import QtGui

    from fpinspector.ui import bridge

    asked: list[tuple[str, int]] = []
    real = bridge.exact_tip
    monkeypatch.setattr(bridge, "exact_tip", lambda f, b: asked.append((f, b)) or real(f, b))
    h = _history(qtbot, 400)
    for bits in (0x3FC00000, 0x3DCCCCCD):  # 1.5, then 0.1f on top
        h.add("f32", bits)
    assert asked == []
    item = h.item(0)
    QtWidgets.QToolTip.hideText()
    pos = h.visualItemRect(item).center()
    vp = h.viewport()
    QtWidgets.QApplication.sendEvent(
        vp, QtGui.QHelpEvent(QtCore.QEvent.Type.ToolTip, pos, vp.mapToGlobal(pos)))
    assert asked == [("f32", 0x3DCCCCCD)]
    tip = item.toolTip()
    exact = Fraction(0xCCCCCD, 1 << 23) * Fraction(1, 16)  # 1.6000000238... x 2^-4
    digits = str(exact.numerator * 10**27 // exact.denominator)  # a binary fraction: ends
    assert exact.denominator == 2**27 and "0." + digits.rjust(27, "0") in tip.replace("\n", "")
    assert "0x1.99999ap-4" in tip
    assert QtWidgets.QToolTip.text() == tip
