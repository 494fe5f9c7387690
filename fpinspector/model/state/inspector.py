"""Qt-free observable inspector state: values, op, formats, rule set, with batched events and undo.

The desktop app's widgets listen to one :class:`InspectorState` and write back only through
:meth:`InspectorState.update` (STYLE.md 4-5). Kept in the model layer so it can be tested and
scripted without Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields, replace
from typing import Any

from .codec import (
    snapshot_from_dict,
    snapshot_from_string,
    snapshot_to_dict,
    snapshot_to_string,
)
from .snapshot import MAX_OPERANDS, Snapshot

__all__ = ["InspectorState"]

Listener = Callable[[frozenset], None]


class InspectorState:
    """Observable inspector state with batched change events and an undo/redo history.

    Events
    ------
    Listeners registered with :meth:`connect` are called as ``listener(changed)`` where
    ``changed`` is the frozenset of :class:`Snapshot` field names that really changed.
    Inside :meth:`batch` the events are merged into one call at the end.

    Examples
    --------
    >>> s = InspectorState()
    >>> seen = []
    >>> s.connect(seen.append)
    >>> with s.batch():
    ...     s.update(bits=0)
    ...     s.update(op="add")
    >>> sorted(seen[0])
    ['bits', 'op']
    >>> s.undo(); hex(s.bits)
    '0x3f800000'
    """

    def __init__(self, snapshot: Snapshot | None = None, *, undo_limit: int = 500) -> None:
        self._snap = (snapshot or Snapshot()).validated()
        self._listeners: list[Listener] = []
        self._batch_depth = 0
        self._pending: set[str] = set()
        self._batch_start: Snapshot | None = None
        self._undo: list[Snapshot] = []
        self._redo: list[Snapshot] = []
        self._undo_limit = undo_limit
        self._group_depth = 0
        self._group_pushed = False

    # -- reading ------------------------------------------------------------------
    @property
    def snapshot(self) -> Snapshot:
        """The current immutable snapshot."""
        return self._snap

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        snap = self.__dict__.get("_snap")
        if snap is not None and name in Snapshot.__dataclass_fields__:
            return getattr(snap, name)
        raise AttributeError(name)

    # -- listening ----------------------------------------------------------------
    def connect(self, listener: Listener) -> None:
        """Call ``listener(changed_field_names)`` after every effective change."""
        self._listeners.append(listener)

    def disconnect(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    @contextmanager
    def batch(self) -> Iterator[InspectorState]:
        """Merge every change made inside into one event and one undo step."""
        if self._batch_depth == 0:
            self._batch_start = self._snap
            self._pending = set()
        self._batch_depth += 1
        try:
            yield self
        finally:
            self._batch_depth -= 1
            if self._batch_depth == 0:
                start, self._batch_start = self._batch_start, None
                changed = frozenset(self._pending)
                self._pending = set()
                if changed and start is not None and start != self._snap:
                    self._push_undo(start)
                    self._emit(changed)

    def begin_undo_group(self) -> None:
        """Start a run of edits that undo as one step (e.g. a click-drag over the bits).

        Unlike :meth:`batch`, every change is still announced at once (views stay live).
        """
        if self._group_depth == 0:
            self._group_pushed = False
        self._group_depth += 1

    def end_undo_group(self) -> None:
        self._group_depth = max(0, self._group_depth - 1)

    # -- writing ------------------------------------------------------------------
    def update(self, **changes: Any) -> frozenset:
        """Change fields (validated together); returns the names that really changed.

        Raises ValueError, leaving the state untouched, when the result would be invalid.
        """
        unknown = set(changes) - set(Snapshot.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown state field(s): {', '.join(sorted(unknown))}")
        if "operands" in changes:
            changes["operands"] = tuple(changes["operands"])
        if "options" in changes:
            changes["options"] = tuple(changes["options"])
        new = replace(self._snap, **changes).validated()
        changed = frozenset(f.name for f in fields(Snapshot)
                            if getattr(new, f.name) != getattr(self._snap, f.name))
        if not changed:
            return changed
        old, self._snap = self._snap, new
        if self._batch_depth:
            self._pending |= changed
        else:
            self._push_undo(old)
            self._emit(changed)
        return changed

    def set_operand(self, index: int, bits: int) -> frozenset:
        """Set operand ``index`` (0 = A) to a bit pattern in the op format."""
        if not 0 <= index < MAX_OPERANDS:
            raise ValueError(f"operand index {index} out of range 0..{MAX_OPERANDS - 1}")
        ops = list(self._snap.operands)
        ops[index] = bits
        return self.update(operands=ops)

    def restore(self, snapshot: Snapshot) -> frozenset:
        """Replace the whole state (one undo step)."""
        return self.update(**{f.name: getattr(snapshot, f.name) for f in fields(Snapshot)})

    # -- undo ---------------------------------------------------------------------
    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> bool:
        """Go back one step; returns False when there is nothing to undo."""
        return self._step(self._undo, self._redo)

    def redo(self) -> bool:
        """Redo one undone step; returns False when there is nothing to redo."""
        return self._step(self._redo, self._undo)

    def _step(self, src: list[Snapshot], dst: list[Snapshot]) -> bool:
        if not src or self._batch_depth:
            return False
        target = src.pop()
        dst.append(self._snap)
        old, self._snap = self._snap, target
        self._emit(_diff(old, target))
        return True

    def _push_undo(self, old: Snapshot) -> None:
        if self._group_depth:
            if self._group_pushed:
                return
            self._group_pushed = True
        self._undo.append(old)
        del self._undo[: max(0, len(self._undo) - self._undo_limit)]
        self._redo.clear()

    def _emit(self, changed: frozenset) -> None:
        for listener in list(self._listeners):
            listener(changed)

    # -- serialisation (state/codec.py) -----------------------------------------
    def to_dict(self) -> dict:
        """JSON-ready dict (patterns as hex strings so 64-bit values survive JSON readers)."""
        return snapshot_to_dict(self._snap)

    @staticmethod
    def snapshot_from_dict(d: Any) -> Snapshot:
        """Inverse of :meth:`to_dict`; raises ValueError with a clear message."""
        return snapshot_from_dict(d)

    def to_string(self) -> str:
        """Compact one-line state that :meth:`snapshot_from_string` reads back exactly."""
        return snapshot_to_string(self._snap)

    @staticmethod
    def snapshot_from_string(text: str) -> Snapshot:
        """Parse :meth:`to_string` output; raises ValueError naming the bad part."""
        return snapshot_from_string(text)


def _diff(a: Snapshot, b: Snapshot) -> frozenset:
    return frozenset(f.name for f in fields(Snapshot) if getattr(a, f.name) != getattr(b, f.name))
