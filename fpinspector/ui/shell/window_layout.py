"""Where the docks go on the screen the window opens on, so that from 1280x720 up nothing
overlaps, nothing is cut and the inspected value with the op's model-vs-GPU result shows
without scrolling."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["CENTRAL_MIN", "DEFAULT_SIZE", "MIN_SIZE", "SIDE_MIN", "WIDE_FROM", "arrange_docks",
           "fit_to_screen", "MapRoom", "Reflow", "is_wide", "raise_dock"]

#: The window's size where the screen has room for it.
DEFAULT_SIZE = QtCore.QSize(1800, 1000)
#: The smallest window the layout is laid out for (the central area scrolls below it).
MIN_SIZE = QtCore.QSize(960, 600)
#: From this size on, the All formats rows get their own strip at the top and the docks
#: two groups on the right; below it every dock is a tab of one group beside the central area.
WIDE_FROM = QtCore.QSize(1700, 950)
#: The two tab groups of the compact layout, one above the other beside the central area,
#: in tab order (the first of each is raised). Two groups: every tab title shows at 960 px
#: (one group of ten put Sweep and Expression behind the tab bar's scroll arrows).
COMPACT_GROUPS = (("all_formats", "decode", "why", "word", "distance"),
                  ("conversions", "history", "gpus", "sweep", "expression"))
#: The least width of the central area (inspector and operation) at any window size.
CENTRAL_MIN = 420
#: The least width the docks beside it get when the window is resized: the top group's
#: five tab titles.
SIDE_MIN = 360
#: Below this width the docks go under the central area ("narrow"): beside it they would
#: leave it less than CENTRAL_WIDTH.
NARROW_BELOW = 680 + SIDE_MIN  # (CENTRAL_WIDTH + SIDE_MIN)
#: What the central area keeps above the docks in the narrow layout: the inspector and the
#: operation down to its verdict.
NARROW_CENTRAL_HEIGHT = 750
#: Width the central area (inspector and operation) keeps: 32 bit cells of 18 px and the
#: fields row under them.
CENTRAL_WIDTH = 680
#: The same in the wide layout, where the screen has room for the cells at full size.
WIDE_CENTRAL_WIDTH = 860
#: What a raised map dock leaves to the docks above or below it in its column: Decode's
#: class, sign, exponent and fraction rows.
LEFT_TO_OTHERS = 200
#: The same in the compact layout (a window 720 px high): the other group's tabs and a few
#: rows, the map the rest (with 240 px left, the Sweep map had ~100 px at 1280x720).
LEFT_IN_COMPACT = 150
#: What a raised map dock under the central area (narrow layout) leaves the window above it:
#: the menu, the paste box, the inspector's bits and the operation's first rows.
NARROW_CENTRAL_KEEPS = 300
#: The least height of the docks under the central area in the narrow layout.
DOCK_LEAST_HEIGHT = 220
#: How far from a height asked of Qt the dock may end (separators, rounding)
_SNAP = 24


def available(win: QtWidgets.QWidget) -> QtCore.QSize:
    """The available size of the screen the window is (or will be) on."""
    screen = win.screen() or QtWidgets.QApplication.primaryScreen()
    return screen.availableGeometry().size() if screen is not None else DEFAULT_SIZE


def is_wide(size: QtCore.QSize) -> bool:
    return size.width() >= WIDE_FROM.width() and size.height() >= WIDE_FROM.height()


def mode_for(size: QtCore.QSize) -> str:
    """The layout for a window of ``size``: "wide", "compact" (the docks beside the central
    area) or "narrow" (below it: beside it the central area had less than its bit cells
    and fields row)."""
    if is_wide(size):
        return "wide"
    return "narrow" if size.width() < NARROW_BELOW else "compact"


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
    """Place every dock of ``win.docks`` for a window of ``size``; returns the layout's
    name (:func:`mode_for`)."""
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
        content = dock.widget()
        panel = content.widget() if isinstance(content, QtWidgets.QScrollArea) else content
        chrome = dock.height() - content.height()  # the title bar
        if not others:
            if self._under_central(dock):  # the narrow layout: the height of the central area
                want = min(panel.sizeHint().height() + chrome,
                           self.win.height() - NARROW_CENTRAL_KEEPS)
                if dock.height() < want:
                    self._grown[dock] = (dock.height(), want)
                    self.win.resizeDocks([dock], [want], QtCore.Qt.Orientation.Vertical)
            return
        room = dock.height() + sum(d.height() for d in others)
        leave = LEFT_IN_COMPACT if getattr(self.win, "layout_mode", "") == "compact" \
            else LEFT_TO_OTHERS
        want = min(panel.sizeHint().height() + chrome, room - leave)
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
        if shown and self._under_central(shown[0]):
            self.win.resizeDocks([shown[0]], [before], QtCore.Qt.Orientation.Vertical)
            return
        if not shown or abs(shown[0].height() - asked) > _SNAP:
            return
        others = _column_partners(self.win, shown[0])
        if others:
            _set_heights(self.win, shown[0], others, before)
            self._given_back = before

    def _under_central(self, dock: QtWidgets.QDockWidget) -> bool:
        """A docked tab under the central area in the narrow layout."""
        return (getattr(self.win, "layout_mode", "") == "narrow" and not dock.isFloating()
                and self.win.dockWidgetArea(dock) == QtCore.Qt.DockWidgetArea.BottomDockWidgetArea)


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
        win.resizeDocks([docks["decode"]], [side_width(size.width(),
                                                       size.width() - WIDE_CENTRAL_WIDTH)],
                        QtCore.Qt.Orientation.Horizontal)
        win.resizeDocks([docks["decode"], docks["conversions"]], [430, 330],
                        QtCore.Qt.Orientation.Vertical)
        return "wide"
    groups = [[docks[n] for n in group if n in docks] for group in COMPACT_GROUPS]
    groups[1] += [d for n, d in docks.items() if not any(n in g for g in COMPACT_GROUPS)]
    top, bottom = groups[0][0], groups[1][0]
    narrow = mode_for(size) == "narrow"
    area = A.BottomDockWidgetArea if narrow else A.RightDockWidgetArea
    win.addDockWidget(area, top)
    win.addDockWidget(area, bottom)
    win.splitDockWidget(top, bottom, QtCore.Qt.Orientation.Horizontal if narrow
                        else QtCore.Qt.Orientation.Vertical)
    for group in groups:
        for dock in group[1:]:
            win.tabifyDockWidget(group[0], dock)
    for dock in docks.values():
        dock.show()
    top.raise_()
    bottom.raise_()
    if narrow:
        win.resizeDocks([top, bottom], [size.width() // 2] * 2, QtCore.Qt.Orientation.Horizontal)
        win.resizeDocks([top], [max(DOCK_LEAST_HEIGHT, size.height() - NARROW_CENTRAL_HEIGHT)],
                        QtCore.Qt.Orientation.Vertical)
        return "narrow"
    win.resizeDocks([top], [side_width(size.width(), size.width() - CENTRAL_WIDTH)],
                    QtCore.Qt.Orientation.Horizontal)
    win.resizeDocks([top, bottom], [size.height() // 2, size.height() // 2],
                    QtCore.Qt.Orientation.Vertical)
    return "compact"


def side_width(window_width: int, asked: int) -> int:
    """``asked`` pixels for the docks beside the central area, within the rules: at least
    :data:`SIDE_MIN`, and at least :data:`CENTRAL_MIN` left to the central area."""
    return max(SIDE_MIN, min(asked, window_width - CENTRAL_MIN))


def central_need(win: QtWidgets.QMainWindow) -> int:
    """The width the central area needs to show its content without side scrolling: the
    content's least width, a vertical scroll bar and the frame."""
    view = win.centralWidget()
    if not isinstance(view, QtWidgets.QScrollArea) or view.widget() is None:
        return CENTRAL_MIN
    return (view.widget().minimumSizeHint().width() + view.verticalScrollBar().sizeHint().width()
            + 2 * view.frameWidth())


def _side_docks(win: QtWidgets.QMainWindow) -> list[QtWidgets.QDockWidget]:
    """The docks on top of their groups at the left and right of the central area."""
    sides = (QtCore.Qt.DockWidgetArea.LeftDockWidgetArea,
             QtCore.Qt.DockWidgetArea.RightDockWidgetArea)
    return [d for d in win.docks.values()
            if _on_top(d) and not d.isFloating() and win.dockWidgetArea(d) in sides]


def side_extent(win: QtWidgets.QMainWindow) -> int:
    """How many pixels of the window's width the docks left and right of the central area
    take (0 when there are none)."""
    central = win.centralWidget().geometry()
    return max(0, win.width() - central.width()) if _side_docks(win) else 0


class Reflow(QtCore.QObject):
    """Keeps the window laid out by the same rules through any sequence of resizes,
    maximise/restore and a restored saved state.

    - The docks beside the central area keep their share of the window's width (the share
      the layout gave them, or the one the user set by dragging the separator), within
      :func:`side_width`'s bounds; Qt alone gives every pixel of a resize to the central
      area, which at 960 px was left ~70 px wide.
    - Where that share would leave the central area less than its content needs
      (:func:`central_need`: the bit cells and the fields row), the docks give it that
      much, down to :data:`SIDE_MIN`: shrinking 1366x768 to 1280x720 had put the
      inspector's last bit cells behind side scrolling.
    - Crossing :data:`WIDE_FROM` lays the docks out again for the new size (the tabs that
      were raised stay raised).
    - Every dock tab bar shows whole titles, also those Qt creates later (restoreState,
      a dock dragged onto another): Qt makes them eliding ("De…", "W…").
    """

    def __init__(self, win: QtWidgets.QMainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.share: float | None = None  # None: measured at the next reflow
        self._at_width = -1  # the window's width when last reflowed
        self._asked = -1  # the docks' extent the last reflow asked for
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)  # once per burst of resize events
        self._timer.timeout.connect(self.reflow)
        self._titles_due = False
        win.centralWidget().setMinimumWidth(CENTRAL_MIN)
        win.installEventFilter(self)
        win.centralWidget().installEventFilter(self)

    def laid_out(self) -> None:
        """The docks were just placed (arrange_docks, restoreState): their share is taken
        as it is at the next reflow."""
        self.share = None
        self._at_width = -1
        self._timer.start()

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if obj is self.win:
            if kind == QtCore.QEvent.Type.Resize:
                self._timer.start()
            elif kind == QtCore.QEvent.Type.ChildAdded and not self._titles_due:
                self._titles_due = True  # (a tab bar is set up after it is added)
                QtCore.QTimer.singleShot(0, self, self._full_titles)
        elif (kind == QtCore.QEvent.Type.Resize and self.win.width() == self._at_width
              and not self._timer.isActive() and self.win.width() > 0
              and abs(side_extent(self.win) - self._asked) > 2):  # (not the reflow's own)
            self.share = side_extent(self.win) / self.win.width()  # the user's separator
        return False

    def _full_titles(self) -> None:
        self._titles_due = False
        full_tab_titles(self.win)

    def reflow(self) -> None:
        win = self.win
        size = win.size()
        if not win.isVisible():
            return
        if mode_for(size) != getattr(win, "layout_mode", None):
            raised = [d for d in win.docks.values() if _on_top(d)]
            win.layout_mode = arrange_docks(win, size)
            for dock in raised:
                raise_dock(win, dock)
            self.share = None
            self._timer.start()  # measured once Qt has laid the new arrangement out
            return
        room = getattr(win, "_map_room", None)
        if room is not None:  # a raised map keeps the room of its column
            for name in ("sweep", "expression"):
                dock = win.docks.get(name)
                if dock is not None and _on_top(dock):
                    room.shown(dock, True)
        docks = _side_docks(win)
        if not docks:
            return
        extent = side_extent(win)
        if self.share is None:
            self.share = extent / max(1, size.width())
        want = side_width(size.width(), round(self.share * size.width()))
        want = max(min(want, size.width() - central_need(win)), min(want, SIDE_MIN))
        self._at_width, self._asked = size.width(), want
        if abs(want - extent) > 2:
            win.resizeDocks([docks[0]], [want - (extent - docks[0].width())],
                            QtCore.Qt.Orientation.Horizontal)
