"""The desktop app (PySide6): widgets that show and edit the model; they compute nothing."""

from __future__ import annotations

import sys


def _pin_none_refcount() -> None:
    """Work around a PySide6 6.12 bug on Python < 3.12: void-returning Qt methods (setText,
    setPen, drawRect, processEvents...) return ``None`` without taking a reference, so every
    call lowers None's reference count until CPython aborts with "none_dealloc: deallocating
    None" (after a few thousand calls; reproduced here with 1000 QPainter.setPen calls).
    Python 3.12+ makes None immortal, which hides the bug. pyproject.toml keeps Python 3.11
    installs below 6.12; for an environment that has 6.12 anyway, we do what 3.12 does by
    hand: set the count of None (and of True/False) so high that no session can exhaust it.
    """
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    from PySide6 import __version_info__ as qt_version

    if tuple(qt_version[:2]) < (6, 12):  # pyproject pins these; the bug came with 6.12.0
        return
    import ctypes

    for obj in (None, True, False):  # bool-returning slots show the same leak at exit
        ctypes.c_ssize_t.from_address(id(obj)).value = 1 << 60


_pin_none_refcount()
