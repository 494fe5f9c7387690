"""History of inspected values: a list that remembers (format, bits) and recalls one on click."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ...model.state import InspectorState, Snapshot
from .. import bridge
from ..qt_utils import HoverTipAt, is_seen

__all__ = ["HistoryList"]


class HistoryList(QtWidgets.QListWidget):
    """Most recent first, no duplicates, at most ``limit`` entries.

    The entries (:meth:`entries`) follow every edit at once. The list's rows follow them
    only while the list can be seen: behind another dock tab their inserts and removals
    wait, in order, and are made when the tab is raised (:meth:`catch_up`). Why: each row
    insert lays the list out again (a timer, two passes), 0.3-0.6 ms of an edit's 4-10 ms
    for a list nobody was looking at.

    Signals
    -------
    recalled(str, object) : the format name and bit pattern the user clicked.
    """

    recalled = QtCore.Signal(str, object)

    def __init__(self, state: InspectorState | None = None, limit: int = 200,
                 parent=None) -> None:
        super().__init__(parent)
        self._limit = limit
        self._held = False  # inside a drag: the entry it added is replaced, not stacked
        self._held_key: tuple[str, int] | None = None
        self._keys: list[tuple[str, int]] = []  # the entries' (format, bits), top first
        self._row_edits: list[tuple] = []  # row changes waiting while the list is unseen
        self._laying_out = False  # a layout of the rows is asked for (:meth:`event`)
        self._anchor: QtWidgets.QListWidgetItem | None = None  # the entry kept in place
        self.setToolTip("Values you inspected, newest first. Click one to bring it back.")
        HoverTipAt(self, self._fill_tip_at)
        self.itemClicked.connect(self._recall)
        self.itemActivated.connect(self._recall)
        if state is not None:
            self.bind(state)

    @property
    def limit(self) -> int:
        """How many entries the list keeps (the oldest go first)."""
        return self._limit

    def bind(self, state: InspectorState) -> None:
        """Remember every value ``state`` inspects; a click brings one back."""
        self.state = state
        self.recalled.connect(lambda fmt, bits: state.update(fmt=fmt, bits=bits))
        state.connect(self._pull_value)
        self._pull_value(frozenset(Snapshot.__dataclass_fields__))

    def _pull_value(self, changed: frozenset) -> None:
        if {"fmt", "bits"} & changed:
            s = self.state.snapshot
            if self._held and self._held_key is not None and self._keys \
                    and self._keys[0] == self._held_key:
                del self._keys[0]  # the drag's previous step: one entry per drag
                self._edit_rows(("take", 0))
            key = (s.fmt, int(s.bits))
            existed = self._held and key in self._keys
            self.add(s.fmt, s.bits)
            if self._held:  # a value listed before the drag stays listed after it
                self._held_key = None if existed else key

    def hold(self) -> None:
        """A drag starts: its steps replace each other in the history (:meth:`release`)."""
        self._held, self._held_key = True, None

    def release(self) -> None:
        """The drag ended: its last value stays as one entry."""
        self._held, self._held_key = False, None

    def add(self, fmt: str, bits: int) -> None:
        """Put (fmt, bits) on top (moving it there if it is already listed)."""
        key = (fmt, int(bits))
        keys = self._keys
        if keys and keys[0] == key:
            return
        if key in keys:
            i = keys.index(key)
            del keys[i]
            self._edit_rows(("take", i))
        keys.insert(0, key)
        self._edit_rows(("insert", key))
        while len(keys) > self._limit:
            keys.pop()
            self._edit_rows(("take", len(keys)))

    def _edit_rows(self, edit: tuple) -> None:
        """Make a row change now, or keep it (in order) while the list cannot be seen."""
        if self._row_edits or not is_seen(self):
            self._row_edits.append(edit)
            if len(self._row_edits) > 2 * self._limit:  # (rebuilt whole on catch-up)
                self._row_edits[:] = [("rebuild",)]
            return
        if not self._laying_out:  # (once for the edit's row changes)
            self._laying_out = True
            bar = self.verticalScrollBar()  # scrolled down: that entry stays where it is
            self._anchor = self.itemAt(QtCore.QPoint(2, 2)) if bar.value() > bar.minimum() \
                else None
            QtCore.QCoreApplication.postEvent(
                self, QtCore.QEvent(QtCore.QEvent.Type.LayoutRequest))
        self._apply(edit)

    def event(self, event: QtCore.QEvent) -> bool:  # type: ignore[override]
        """Lay the rows out once for an edit's row changes, before the edit's paint.

        Why: Qt lays a list out on a zero-timer after a row change, which fires after the
        edit's repaint: the list (every row moves down by one on each edit) was repainted
        in a second paint pass of the window, on every edit while the list is seen. A
        posted layout request is delivered before the paint by the window's layout
        settling (qt_utils.settle_layouts, after the views' updates). A list scrolled
        down keeps the entry at its top where it was: the rows a user was reading do not
        move down by one on each edit (at the top, the new entry shows on top)."""
        if event.type() == QtCore.QEvent.Type.LayoutRequest and self._laying_out:
            self._laying_out = False
            self.doItemsLayout()  # (it stops Qt's timer)
            anchor, self._anchor = self._anchor, None
            if anchor is not None and self.row(anchor) >= 0:
                self.scrollToItem(anchor, QtWidgets.QAbstractItemView.ScrollHint.PositionAtTop)
        return super().event(event)

    def _apply(self, edit: tuple) -> None:
        if edit[0] == "take":
            self.takeItem(edit[1])
        elif edit[0] == "insert":
            item = self._item(*edit[1])
            self.insertItem(0, item)
            self._measure(item)
        else:  # "rebuild": every row from the entries
            super().clear()
            for key in self._keys:
                item = self._item(*key)
                self.addItem(item)
                self._measure(item)

    def catch_up(self) -> None:
        """Make the row changes that waited while the list could not be seen (the window
        calls this when its tab comes to the front)."""
        if self._row_edits and is_seen(self):
            edits, self._row_edits = self._row_edits, []
            if edits[0] == ("rebuild",):
                edits = edits[:1]
            for edit in edits:
                self._apply(edit)

    def is_stale(self) -> bool:
        """Row changes are waiting for the list to be seen."""
        return bool(self._row_edits)

    def _measure(self, item: QtWidgets.QListWidgetItem) -> None:
        """Keep the entry's size on the item, measured once. Why: each insert lays the
        list out again, and without a stored size that meant measuring the text of every
        entry (1.6 ms per edit with 200 entries); a stored size is read back instead."""
        item.setData(QtCore.Qt.ItemDataRole.SizeHintRole, None)  # (measure, not read back)
        item.setSizeHint(self.sizeHintForIndex(self.indexFromItem(item)))

    def changeEvent(self, event: QtCore.QEvent) -> None:  # type: ignore[override]
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            for row in range(self.count()):  # new text metrics: measure every entry again
                self._measure(self.item(row))

    @staticmethod
    def _item(fmt: str, bits: int) -> QtWidgets.QListWidgetItem:
        width = (int(fmt[1:]) + 3) // 4 if fmt[1:].isdigit() else 8
        item = QtWidgets.QListWidgetItem(f"{fmt}  0x{bits:0{width}X}  {bridge.value_text(fmt, bits)}")
        item.setData(QtCore.Qt.ItemDataRole.UserRole, (fmt, bits))
        return item  # (its tooltip, the exact expansion, is made when hovered)

    def _fill_tip_at(self, pos: QtCore.QPoint) -> None:
        """A hover over an entry: its tooltip (the exact expansion and hex float of its
        pattern, the model's) is made now, then Qt shows it as an item's. Why: made for
        each new entry, it was the model's exact decimal and hex float on every edit, for
        a tooltip seldom read."""
        item = self.itemAt(pos)
        if item is not None and not item.toolTip():
            item.setToolTip(self.entry_tip(item))

    @staticmethod
    def entry_tip(item: QtWidgets.QListWidgetItem) -> str:
        """The tooltip entry ``item`` shows when hovered: its pattern's exact expansion."""
        fmt, bits = item.data(QtCore.Qt.ItemDataRole.UserRole)
        return bridge.exact_tip(fmt, bits)

    def clear(self) -> None:
        super().clear()
        self._keys = []
        self._row_edits = []

    def entries(self) -> list[tuple[str, int]]:
        return list(self._keys)

    def set_entries(self, entries: list[tuple[str, int]]) -> None:
        """Replace the list (newest first, duplicates dropped) in one pass."""
        self.clear()
        seen: set[tuple[str, int]] = set()
        for fmt, bits in entries:
            key = (fmt, int(bits))
            if key in seen:
                continue
            seen.add(key)
            item = self._item(fmt, int(bits))
            self.addItem(item)
            self._measure(item)
            self._keys.append(key)
            if len(self._keys) >= self._limit:
                break

    def _recall(self, item: QtWidgets.QListWidgetItem) -> None:
        fmt, bits = item.data(QtCore.Qt.ItemDataRole.UserRole)
        self.recalled.emit(fmt, bits)
