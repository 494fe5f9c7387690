"""Where the docks go on the screen the window opens on, so that from 1280x720 up nothing
overlaps, nothing is cut and the inspected value with the op's model-vs-GPU result shows
without scrolling."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["DEFAULT_SIZE", "MIN_SIZE", "WIDE_FROM", "arrange_docks", "fit_to_screen",
           "is_wide", "raise_dock"]

#: The window's size where the screen has room for it.
DEFAULT_SIZE = QtCore.QSize(1800, 1000)
#: The smallest window the layout is laid out for (the central area scrolls below it).
MIN_SIZE = QtCore.QSize(960, 600)
#: From this size on, the All formats rows get their own strip at the top and the docks
#: two groups on the right; below it every dock is a tab of one group beside the central area.
WIDE_FROM = QtCore.QSize(1700, 950)
#: Docks of the one tab group in the compact layout, in tab order (the first is raised).
COMPACT_ORDER = ("all_formats", "decode", "why", "conversions", "word", "distance",
                 "history", "gpus", "sweep", "expression")
#: Width the central area (inspector and operation) keeps: 32 bit cells of 18 px and the
#: fields row under them.
CENTRAL_WIDTH = 680
#: The same in the wide layout, where the screen has room for the cells at full size.
WIDE_CENTRAL_WIDTH = 860


def available(win: QtWidgets.QWidget) -> QtCore.QSize:
    """The available size of the screen the window is (or will be) on."""
    screen = win.screen() or QtWidgets.QApplication.primaryScreen()
    return screen.availableGeometry().size() if screen is not None else DEFAULT_SIZE


def is_wide(size: QtCore.QSize) -> bool:
    return size.width() >= WIDE_FROM.width() and size.height() >= WIDE_FROM.height()


def fit_to_screen(win: QtWidgets.QMainWindow) -> QtCore.QSize:
    """Resize ``win`` to the default size or the screen's available size, whichever is
    smaller, and place it on the screen; returns the size."""
    avail = available(win)
    size = DEFAULT_SIZE.boundedTo(avail)
    win.resize(size)
    screen = win.screen() or QtWidgets.QApplication.primaryScreen()
    if screen is not None:
        geo = screen.availableGeometry()
        win.move(geo.x() + (geo.width() - size.width()) // 2,
                 geo.y() + (geo.height() - size.height()) // 2)
    return size


def arrange_docks(win: QtWidgets.QMainWindow, size: QtCore.QSize) -> str:
    """Place every dock of ``win.docks`` for a window of ``size``; returns "wide" or
    "compact"."""
    try:
        return _arrange(win, size)
    finally:
        full_tab_titles(win)


def raise_dock(win: QtWidgets.QMainWindow, dock: QtWidgets.QDockWidget) -> None:
    """Show ``dock`` and make it the current tab of its group. Why not ``raise_()``
    alone: a raise before the window's first show is remembered by Qt, and a later raise
    of the same dock then leaves the tab bar where it is."""
    dock.show()
    dock.raise_()
    for bar in win.findChildren(QtWidgets.QTabBar):
        for i in range(bar.count()):
            if bar.tabText(i) == dock.windowTitle() and bar.currentIndex() != i:
                bar.setCurrentIndex(i)


def full_tab_titles(win: QtWidgets.QMainWindow) -> None:
    """Dock tabs show their whole titles (scroll buttons where they do not fit), never
    "De…" and "W…"."""
    for bar in win.findChildren(QtWidgets.QTabBar):
        bar.setElideMode(QtCore.Qt.TextElideMode.ElideNone)
        bar.setUsesScrollButtons(True)
        bar.setExpanding(False)


def _arrange(win: QtWidgets.QMainWindow, size: QtCore.QSize) -> str:
    A = QtCore.Qt.DockWidgetArea
    docks = win.docks
    for dock in docks.values():
        win.removeDockWidget(dock)
    if is_wide(size):
        win.addDockWidget(A.TopDockWidgetArea, docks["all_formats"])
        win.addDockWidget(A.RightDockWidgetArea, docks["decode"])
        win.addDockWidget(A.RightDockWidgetArea, docks["conversions"])
        win.splitDockWidget(docks["decode"], docks["conversions"], QtCore.Qt.Orientation.Vertical)
        for name in ("why",):
            win.tabifyDockWidget(docks["decode"], docks[name])
        for name in ("word", "distance", "history", "gpus", "sweep", "expression"):
            if name in docks:
                win.tabifyDockWidget(docks["conversions"], docks[name])
        for dock in docks.values():
            dock.show()
        docks["decode"].raise_()
        docks["conversions"].raise_()
        win.resizeDocks([docks["all_formats"]], [200], QtCore.Qt.Orientation.Vertical)
        win.resizeDocks([docks["decode"]], [max(420, size.width() - WIDE_CENTRAL_WIDTH)],
                        QtCore.Qt.Orientation.Horizontal)
        win.resizeDocks([docks["decode"], docks["conversions"]], [430, 330],
                        QtCore.Qt.Orientation.Vertical)
        return "wide"
    names = [n for n in COMPACT_ORDER if n in docks]
    first = docks[names[0]]
    win.addDockWidget(A.RightDockWidgetArea, first)
    for name in names[1:]:
        win.tabifyDockWidget(first, docks[name])
    for dock in docks.values():
        dock.show()
    first.raise_()
    win.resizeDocks([first], [max(320, size.width() - CENTRAL_WIDTH)],
                    QtCore.Qt.Orientation.Horizontal)
    return "compact"
