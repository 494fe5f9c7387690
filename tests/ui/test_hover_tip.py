"""``qt_utils.HoverTip`` / ``HoverTipAt``: the one way the views make a tooltip when it is
hovered (exact expansions, allowed-set ends, conversion rules), instead of on every edit."""

from __future__ import annotations

from _qt_probes import send_tooltip_event
from PySide6 import QtWidgets

from fpinspector.ui.qt_utils import HoverTip, HoverTipAt


def test_the_tip_is_made_on_hover_only_and_none_keeps_the_widgets_own(qtbot) -> None:
    label = QtWidgets.QLabel("x")
    qtbot.addWidget(label)
    label.setToolTip("the label's explanation")
    asked: list[int] = []
    answer: list[str | None] = ["exact 0.1000000000000000055511151231257827"]

    def tip() -> str | None:
        asked.append(1)
        return answer[0]

    HoverTip(label, tip)
    label.setText("y")  # (an edit asks nothing)
    assert not asked and label.toolTip() == "the label's explanation"
    send_tooltip_event(label)
    assert len(asked) == 1 and label.toolTip() == answer[0]
    answer[0] = None  # nothing to add: the tooltip stands as set
    label.setToolTip("a message")
    send_tooltip_event(label)
    assert len(asked) == 2 and label.toolTip() == "a message"


def test_an_item_views_tip_comes_from_the_position_hovered(qtbot) -> None:
    table = QtWidgets.QTableWidget(2, 1)
    qtbot.addWidget(table)
    table.setItem(0, 0, QtWidgets.QTableWidgetItem("a"))
    table.setItem(1, 0, QtWidgets.QTableWidgetItem("b"))
    table.item(1, 0).setToolTip("b's own tip")
    table.show()
    qtbot.waitExposed(table)
    HoverTipAt(table, lambda pos: "made for a" if table.indexAt(pos).row() == 0 else None)
    vp = table.viewport()
    assert send_tooltip_event(vp, table.visualItemRect(table.item(0, 0)).center())  # (shown by the filter)
    assert QtWidgets.QToolTip.text() == "made for a"
    QtWidgets.QToolTip.hideText()
    send_tooltip_event(vp, table.visualItemRect(table.item(1, 0)).center())  # (left to Qt: the item's)
    assert QtWidgets.QToolTip.text() != "made for a"
