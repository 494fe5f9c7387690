"""Small Qt helpers every view uses (napari keeps its own in ``_qt/utils.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6 import QtCore

__all__ = ["signals_blocked"]


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
