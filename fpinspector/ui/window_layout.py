"""Where the docks go on the screen the window opens on, so that from 1280x720 up nothing
overlaps, nothing is cut and the inspected value with the op's model-vs-GPU result shows
without scrolling."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["DEFAULT_SIZE", "MIN_SIZE", "WIDE_FROM", "arrange_docks", "fit_to_screen",
           "MapRoom", "is_wide", "raise_dock"]

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
#: What a raised map dock leaves to the docks above or below it in its column: Decode's
#: class, sign, exponent and fraction rows.
LEFT_TO_OTHERS = 240
#: How far from a height asked of Qt the dock may end (separators, rounding)
_SNAP = 24


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


class MapRoom:
    """Map docks (Sweep, Expression) get the height of their column while they are shown.

    In the wide layout they are tabs of the lower right group, 330 px high, where their
    panels showed their controls and no map. Raised, a map dock takes the height its panel
    asks for, up to all but :data:`LEFT_TO_OTHERS` pixels of the column it shares with
    other docks; when its tab is left, the tab shown in its place (e.g. Conversions) gets
    the group's height back. A group the user has resized since (more than a few pixels
    off the height asked for) is theirs and left alone; so is a floating dock or one
    alone in its column (the compact layout)."""

    def __init__(self, win: QtWidgets.QMainWindow) -> None:
        self.win = win
        self._grown: dict[QtWidgets.QDockWidget, tuple[int, int]] = {}  # (before, asked)
        self._given_back: int | None = None  # the group's height given back last

    def shown(self, dock: QtWidgets.QDockWidget, visible: bool) -> None:
        """The dock's visibilityChanged: grow or give back once the tab switch has
        settled (every dock has its new geometry then)."""
        QtCore.QTimer.singleShot(0, self.win, lambda: self._grow(dock) if visible
                                 else self._give_back(dock))

    def _grow(self, dock: QtWidgets.QDockWidget) -> None:
        others = _column_partners(self.win, dock)
        if not others:
            return
        content = dock.widget()
        panel = content.widget() if isinstance(content, QtWidgets.QScrollArea) else content
        chrome = dock.height() - content.height()  # the title bar
        room = dock.height() + sum(d.height() for d in others)
        want = min(panel.sizeHint().height() + chrome, room - LEFT_TO_OTHERS)
        before = dock.height()
        if before >= want:
            return
        if self._given_back is not None and abs(before - self._given_back) <= _SNAP:
            before = self._given_back  # (Qt lands a few pixels off: no drift per switch)
        _set_heights(self.win, dock, others, want)
        self._grown[dock] = (before, want)

    def _give_back(self, dock: QtWidgets.QDockWidget) -> None:
        if dock not in self._grown:
            return
        before, asked = self._grown.pop(dock)
        shown = [d for d in self.win.tabifiedDockWidgets(dock) if _on_top(d)]
        if not shown or abs(shown[0].height() - asked) > _SNAP:
            return
        others = _column_partners(self.win, shown[0])
        if others:
            _set_heights(self.win, shown[0], others, before)
            self._given_back = before


def _column_partners(win: QtWidgets.QMainWindow, dock: QtWidgets.QDockWidget
                     ) -> list[QtWidgets.QDockWidget]:
    """The docks on top of their tab groups above and below ``dock`` in its dock area."""
    if dock.isFloating() or not _on_top(dock):
        return []
    area, mine = win.dockWidgetArea(dock), dock.geometry()
    return [d for d in win.docks.values()
            if d is not dock and _on_top(d) and not d.isFloating()
            and win.dockWidgetArea(d) == area and d.geometry() != mine
            and d.geometry().left() < mine.right() and mine.left() < d.geometry().right()]


def _on_top(dock: QtWidgets.QDockWidget) -> bool:
    """Shown and not behind another tab (Qt calls a dock behind a tab visible too)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def _set_heights(win: QtWidgets.QMainWindow, dock: QtWidgets.QDockWidget,
                 others: list[QtWidgets.QDockWidget], height: int, again: bool = True) -> None:
    """``dock`` at ``height``, its column partners sharing the rest as they did.

    Qt spreads any difference between the sizes asked and the room over the docks named,
    by their weights, so all of them are named; its sizes are those of the tab groups
    (tab bars included), which a dock's height is not, so it lands some pixels off: once
    laid out, the difference is asked again once (``again``)."""
    rest = dock.height() + sum(d.height() for d in others) - height
    total = max(1, sum(d.height() for d in others))
    sizes = [max(1, rest * d.height() // total) for d in others]
    win.resizeDocks([dock, *others], [height, *sizes], QtCore.Qt.Orientation.Vertical)
    if again:
        def correct() -> None:
            off = dock.height() - height
            if abs(off) > 1 and _on_top(dock):
                _set_heights(win, dock, others, height - off, again=False)

        QtCore.QTimer.singleShot(0, win, correct)


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
