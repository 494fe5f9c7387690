"""Colours for bit fields and verdicts, in a light and a dark variant that follow the system."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["BitColors", "LIGHT", "DARK", "is_dark", "colors", "apply_system_palette"]


@dataclass(frozen=True)
class BitColors:
    """Cell colours per bit kind (sign / exponent / fraction), text and highlights."""

    sign: str
    exp: str
    frac: str
    text: str
    grid: str
    diff: str
    ok: str
    bad: str
    focus: str

    def kind(self, kind: str) -> QtGui.QColor:
        """Background colour of a cell of ``kind`` ("sign", "exp" or "frac")."""
        return QtGui.QColor(getattr(self, kind))


LIGHT = BitColors(sign="#f2b8b5", exp="#a8d5ff", frac="#c6ecc0", text="#1b1b1b",
                  grid="#7d7d7d", diff="#d81b60", ok="#1b7f3b", bad="#c62828", focus="#ff8f00")
DARK = BitColors(sign="#8c3b37", exp="#2f5f8f", frac="#3d6b35", text="#f2f2f2",
                 grid="#a0a0a0", diff="#ff4f8b", ok="#66d17a", bad="#ff6b6b", focus="#ffb74d")


def is_dark() -> bool:
    """Whether the application's current palette is dark (the system scheme where Qt knows it)."""
    app = QtWidgets.QApplication.instance()
    if app is not None:
        hints = QtGui.QGuiApplication.styleHints()
        scheme = getattr(hints, "colorScheme", None)
        if scheme is not None:
            value = scheme()
            if value == QtCore.Qt.ColorScheme.Dark:
                return True
            if value == QtCore.Qt.ColorScheme.Light:
                return False
        window = app.palette().color(QtGui.QPalette.ColorRole.Window)
        return window.lightness() < 128
    return False


#: (the system scheme, the application palette's cache key) -> the colours last chosen
_chosen: tuple[tuple[object, int], BitColors] | None = None


def colors() -> BitColors:
    """The bit colours matching the current light/dark palette.

    Kept while the system scheme and the application palette (its cache key, new for
    every palette set or changed) stay the same. Why: each bit-cell paint asks (eight
    times a click), and :func:`is_dark` cost about four times the check."""
    global _chosen
    app = QtWidgets.QApplication.instance()
    if app is None:
        return DARK if is_dark() else LIGHT
    scheme = getattr(QtGui.QGuiApplication.styleHints(), "colorScheme", None)
    key = (scheme() if scheme is not None else None, app.palette().cacheKey())
    if _chosen is None or _chosen[0] != key:
        _chosen = (key, DARK if is_dark() else LIGHT)
    return _chosen[1]


def apply_system_palette(app: QtWidgets.QApplication) -> None:
    """Use the Fusion style (it honours the system light/dark scheme on every platform) and
    repaint every window when the system scheme changes, so the bit colours follow it."""
    app.setStyle("Fusion")
    hints = QtGui.QGuiApplication.styleHints()
    signal = getattr(hints, "colorSchemeChanged", None)
    if signal is not None:
        signal.connect(lambda *_: [w.update() for w in app.allWidgets()])
