"""History of inspected values: a list that remembers (format, bits) and recalls one on click."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ..model.state import InspectorState, Snapshot
from . import bridge

__all__ = ["HistoryList"]


class HistoryList(QtWidgets.QListWidget):
    """Most recent first, no duplicates, at most ``limit`` entries.

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
        self._keys: list[tuple[str, int]] = []  # the items' (format, bits), top first
        self.setToolTip("Values you inspected, newest first. Click one to bring it back.")
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
                self.takeItem(0)  # the drag's previous step: one entry per drag
                del self._keys[0]
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
            self.takeItem(i)
            del keys[i]
        item = self._item(fmt, int(bits))
        self.insertItem(0, item)
        self._measure(item)
        keys.insert(0, key)
        while self.count() > self._limit:
            self.takeItem(self.count() - 1)
            keys.pop()

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
        item.setToolTip(bridge.exact_tip(fmt, bits))
        return item

    def clear(self) -> None:
        super().clear()
        self._keys = []

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
