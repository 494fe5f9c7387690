"""Map docks (Sweep, Expression) get their column's height while shown, and give it back.

A window like the wide layout's right column: a top dock, and below it a group of two tabs,
a table and a map panel that asks for more height than the group has. Raising the map tab
grows the group (the top dock keeps LEFT_TO_OTHERS); leaving it gives the table the group's
height back; a group the user resized since is left alone. Offscreen, with real QDockWidget
layouts (window_layout.MapRoom)."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from fpinspector.ui.shell import window_layout
from fpinspector.ui.shell.window_layout import LEFT_TO_OTHERS, MapRoom, raise_dock

A = QtCore.Qt.DockWidgetArea
SNAP = 12  # Qt lands a few pixels off a height asked of resizeDocks


class _Tall(QtWidgets.QWidget):
    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt's name)
        return QtCore.QSize(300, 2000)


@pytest.fixture
def column(qtbot, wait_for):
    win = QtWidgets.QMainWindow()
    win.setCentralWidget(QtWidgets.QLabel("central"))
    docks = {}
    for name, widget in (("top", QtWidgets.QLabel("decode")), ("table", QtWidgets.QLabel("t")),
                         ("map", _Tall())):
        dock = QtWidgets.QDockWidget(name, win)
        dock.setObjectName(name)
        area = QtWidgets.QScrollArea()
        area.setWidgetResizable(True)
        area.setWidget(widget)
        dock.setWidget(area)
        win.addDockWidget(A.RightDockWidgetArea, dock)
        docks[name] = dock
    win.splitDockWidget(docks["top"], docks["table"], QtCore.Qt.Orientation.Vertical)
    win.tabifyDockWidget(docks["table"], docks["map"])
    win.docks = docks
    room = MapRoom(win)
    docks["map"].visibilityChanged.connect(lambda shown: room.shown(docks["map"], shown))
    qtbot.addWidget(win)
    win.resize(1000, 800)
    win.show()
    qtbot.waitExposed(win)
    raise_dock(win, docks["table"])
    win.resizeDocks([docks["top"], docks["table"]], [430, 300], QtCore.Qt.Orientation.Vertical)
    assert wait_for(lambda: abs(docks["table"].height() - 300) <= SNAP)
    return win, docks


def test_a_raised_map_dock_takes_the_column_and_gives_it_back(column, wait_for):
    win, docks = column
    top0, table0 = docks["top"].height(), docks["table"].height()
    room = top0 + table0
    raise_dock(win, docks["map"])
    assert wait_for(lambda: docks["map"].height() >= room - LEFT_TO_OTHERS - SNAP)
    assert docks["top"].height() >= LEFT_TO_OTHERS - SNAP  # the top dock keeps its rows
    raise_dock(win, docks["table"])
    assert wait_for(lambda: abs(docks["table"].height() - table0) <= SNAP)
    assert abs(docks["top"].height() - top0) <= SNAP
    for _ in range(4):  # no drift, switch after switch
        raise_dock(win, docks["map"])
        assert wait_for(lambda: docks["map"].height() >= room - LEFT_TO_OTHERS - SNAP)
        raise_dock(win, docks["table"])
        assert wait_for(lambda: abs(docks["table"].height() - table0) <= SNAP)


def test_a_group_the_user_resized_is_left_as_it_is(column, wait_for, qtbot):
    win, docks = column
    table0 = docks["table"].height()
    raise_dock(win, docks["map"])
    room = docks["top"].height() + docks["table"].height()
    assert wait_for(lambda: docks["map"].height() >= room - LEFT_TO_OTHERS - SNAP)
    qtbot.wait(100)  # (settled: MapRoom asks again once where Qt landed off)
    win.resizeDocks([docks["top"], docks["map"]], [room - 380, 380],
                    QtCore.Qt.Orientation.Vertical)  # the user drags the separator
    assert wait_for(lambda: abs(docks["map"].height() - 380) <= 2 * SNAP)
    theirs = docks["map"].height()
    raise_dock(win, docks["table"])
    qtbot.wait(100)
    assert abs(docks["table"].height() - theirs) <= 2  # not given back
    assert abs(theirs - table0) > 2 * SNAP


def test_a_map_dock_alone_in_its_column_is_not_resized(qtbot, wait_for):
    """The compact layout: every dock a tab of one group, the whole column's height."""
    win = QtWidgets.QMainWindow()
    win.setCentralWidget(QtWidgets.QLabel("central"))
    table, map_dock = QtWidgets.QDockWidget("table", win), QtWidgets.QDockWidget("map", win)
    map_dock.setWidget(_Tall())
    win.addDockWidget(A.RightDockWidgetArea, table)
    win.tabifyDockWidget(table, map_dock)
    win.docks = {"table": table, "map": map_dock}
    room = MapRoom(win)
    qtbot.addWidget(win)
    win.resize(800, 600)
    win.show()
    qtbot.waitExposed(win)
    raise_dock(win, map_dock)
    height = map_dock.height()
    room.shown(map_dock, True)
    qtbot.wait(100)
    assert map_dock.height() == height and not room._grown
    assert window_layout._column_partners(win, map_dock) == []
