"""Small Qt helpers every view uses (napari keeps its own in ``_qt/utils.py``)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["ERROR_STYLE", "DeferWhileUnseen", "FitColumns", "HoverTip", "HoverTipAt", "fit_cap", "is_seen", "set_style", "set_text", "set_tip", "settle_layouts",
           "signals_blocked", "text_width", "turn_splitter", "widen_column"]


@contextmanager
def signals_blocked(*objects: QtCore.QObject) -> Iterator[None]:
    """Block the signals of ``objects`` inside the ``with``, then restore each one's previous
    state: a view that updates its own widgets from the state must not echo the change back
    (STYLE.md 5; napari ``qt_signals_blocked``)."""
    previous = [o.blockSignals(True) for o in objects]
    try:
        yield
    finally:
        for o, was in zip(objects, previous):
            o.blockSignals(was)


def is_seen(widget: QtWidgets.QWidget) -> bool:
    """Whether any part of ``widget`` can be seen: shown, and not wholly behind another
    dock tab (Qt reports those visible). A window that is not on screen counts as seen:
    its views stay current for whoever reads them."""
    if not widget.window().isVisible():
        return True
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


class DeferWhileUnseen:
    """Mixin for a view bound to the state: while it cannot be seen (a dock tab behind
    another) it only remembers which fields changed, and catches up when it is shown
    (:meth:`catch_up`, called by the window when its dock comes to the front).

    Why: every edit repainting and recomputing nine views of which one or two are on
    screen was most of an edit's latency."""

    _deferred: frozenset = frozenset()

    def defer(self, changed: frozenset) -> bool:
        """True (and ``changed`` remembered) when the view cannot be seen now."""
        if is_seen(self):  # type: ignore[arg-type]
            return False
        self._deferred = self._deferred | changed
        return True

    def catch_up(self) -> None:
        """Apply what changed while unseen (nothing when nothing did or it is still unseen)."""
        if self._deferred and is_seen(self):  # type: ignore[arg-type]
            changed, self._deferred = self._deferred, frozenset()
            self.pull(changed)

    def is_stale(self) -> bool:
        """A change arrived while unseen and is not shown yet."""
        return bool(self._deferred)

    def pull(self, changed: frozenset) -> None:  # pragma: no cover - each view has its own
        raise NotImplementedError


def settle_layouts(rounds: int = 4) -> None:
    """Deliver now, before the window repaints, the layout requests an update posted.

    Why: each level of a layout chain (a label's holder, its panel, the scroll area's
    contents) is a posted event of its own, queued behind the repaint the update already
    asked for; delivered after that paint, each asked for a second paint of what it
    refitted or moved. A round delivers what was posted before it, so ``rounds`` levels.
    """
    for _ in range(rounds):
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)


def set_text(widget: QtWidgets.QWidget, text: str) -> None:
    """``widget.setText(text)`` only when the text changes: Qt re-lays out and repaints a
    label or field on every setText, same text or not."""
    if widget.text() != text:  # type: ignore[attr-defined]
        widget.setText(text)  # type: ignore[attr-defined]


def set_tip(widget: QtWidgets.QWidget, tip: str) -> None:
    """``widget.setToolTip(tip)`` only when it changes."""
    if widget.toolTip() != tip:
        widget.setToolTip(tip)


class HoverTip(QtCore.QObject):
    """Fills ``widget``'s tooltip from ``tip()`` when the widget is about to show it; None
    from ``tip`` leaves the tooltip as it is.

    Why: the texts worth a hover (a value's exact expansion, up to hundreds of digits; the
    exact ends of an allowed set) are the model's work and are seldom read: made on every
    edit, they cost each click that work and a ToolTipChange event. Made here, they cost
    only the hover that reads them, and always describe what is shown at that moment."""

    def __init__(self, widget: QtWidgets.QWidget, tip: Callable[[], str | None]) -> None:
        super().__init__(widget)
        self._tip = tip
        widget.installEventFilter(self)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:  # noqa: N802
        if event.type() == QtCore.QEvent.Type.ToolTip and isinstance(obj, QtWidgets.QWidget):
            text = self._tip()
            if text is not None:
                set_tip(obj, text)
        return False


class HoverTipAt(QtCore.QObject):
    """:class:`HoverTip` for an item view: ``tip(pos)`` (a viewport position) gives the
    tooltip of what is under the pointer, shown at once; None leaves it to Qt (the item's
    own tooltip, which ``tip`` may have just set)."""

    def __init__(self, view: QtWidgets.QAbstractScrollArea,
                 tip: Callable[[QtCore.QPoint], str | None]) -> None:
        super().__init__(view)
        self._tip = tip
        self._viewport = view.viewport()
        self._viewport.installEventFilter(self)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:  # noqa: N802
        if event.type() == QtCore.QEvent.Type.ToolTip and obj is self._viewport \
                and isinstance(event, QtGui.QHelpEvent):
            text = self._tip(event.pos())
            if text is not None:
                QtWidgets.QToolTip.showText(event.globalPos(), text, self._viewport)
                return True
        return False


#: How an error's text reads (a failed paste, a field's bad input).
ERROR_STYLE = "color: #c62828;"


def set_style(widget: QtWidgets.QWidget, sheet: str) -> None:
    """``widget.setStyleSheet(sheet)`` only when it changes: each set repolishes the widget
    and lays it out again, same sheet or not."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


#: widget -> (the font metrics its widths were measured in, text -> width in px)
_WIDTHS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_WIDTHS_KEPT = 4096  # texts per widget (then they are measured afresh)


def text_width(widget: QtWidgets.QWidget, text: str) -> int:
    """``widget.fontMetrics().horizontalAdvance(text)``, kept per widget while its font
    metrics stay the same (a new font: measured afresh).

    Why: the tables' column fit measures each new cell text, and in a click walk most
    lines come back (a format's hex and values one bit away, the rule names, the format
    names of a source switch): most of the 17-37 texts a click measured had been
    measured before in the same font (the tables' walk in profile_ui_clicks.py: 73% in
    Decode, 92% in Conversions). An empty text is 0 px, unmeasured."""
    if not text:
        return 0
    fm = widget.fontMetrics()
    kept = _WIDTHS.get(widget)
    if kept is None or kept[0] != fm:
        kept = _WIDTHS[widget] = (fm, {})
    widths = kept[1]
    px = widths.get(text)
    if px is None:
        if len(widths) >= _WIDTHS_KEPT:
            widths.clear()
        px = widths[text] = fm.horizontalAdvance(text)
    return px


def widen_column(table: QtWidgets.QTableWidget, col: int, text: str) -> None:
    """Widen column ``col`` when a cell's new ``text`` overflows it. Never narrower: a
    shorter value after a longer one lays nothing out again; call it for new text only
    (measuring every cell on each edit cost more than the edit's own updates; a text
    measured before in the table's font is not measured again: text_width)."""
    need = max(text_width(table, line) for line in text.split("\n")) + 14
    if need > table.columnWidth(col):
        # the table lays itself out now (its scroll range, the columns right of this one),
        # in the edit's paint: told by the header's signal, it did so on a zero-timer that
        # fired after that paint, and repainted the table in a second paint pass
        header = table.horizontalHeader()
        with signals_blocked(header):
            table.setColumnWidth(col, need)
            header.resizeSections()  # (a stretched last section: now, not on its timer)
        table.doItemsLayout()


def turn_splitter(split: QtWidgets.QSplitter, width: int, side_by_side_from: int) -> bool:
    """Lay ``split``'s parts side by side from ``side_by_side_from`` pixels of ``width`` on,
    else one above the other (a narrow dock); True when that turned it."""
    want = (QtCore.Qt.Orientation.Horizontal if width >= side_by_side_from
            else QtCore.Qt.Orientation.Vertical)
    if split.orientation() == want:
        return False
    split.setOrientation(want)
    return True


class FitColumns(QtCore.QObject):
    """Keeps every column of ``table`` inside its width: columns sized to their contents
    where they fit, else the widest ones capped (one cap, never under ``floor`` px) and
    their text wrapped over more lines; a cell's full text is in its tooltip.

    Why: a column behind horizontal scrolling is one nobody sees (the Expression steps'
    GPU and allowed columns, where the divergence is, and the GPUs report's second report
    were past the right edge of a 600 px dock). Call :meth:`fit` after filling the table;
    a resize fits it again (once per burst)."""

    def __init__(self, table: QtWidgets.QTableWidget, floor: int = 56) -> None:
        super().__init__(table)
        self.table = table
        self.floor = floor
        table.setWordWrap(True)
        table.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        table.horizontalHeader().setStretchLastSection(True)
        self._width = -1
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.fit)
        table.viewport().installEventFilter(self)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:  # noqa: N802
        if event.type() == QtCore.QEvent.Type.Resize and \
                self.table.viewport().width() != self._width:
            self._timer.start()
        return False

    def fit(self) -> None:
        t = self.table
        n = t.columnCount()
        if n == 0:
            return
        t.resizeColumnsToContents()
        widths = [t.columnWidth(c) for c in range(n)]
        room = t.viewport().width()
        self._width = room
        if sum(widths) > room:
            cap = fit_cap(widths, room, self.floor)
            for c, w in enumerate(widths):
                if w > cap:
                    t.setColumnWidth(c, cap)
        t.resizeRowsToContents()


def fit_cap(widths: list[int], room: int, floor: int) -> int:
    """The largest cap such that ``sum(min(w, cap))`` fits ``room`` (at least ``floor``)."""
    ordered = sorted(widths)
    below = 0
    for i, w in enumerate(ordered):
        left = len(ordered) - i  # columns at or above w
        if below + w * left >= room:
            return max(floor, (room - below) // left)
        below += w
    return max(ordered)
