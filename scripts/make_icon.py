"""Draw fpinspector's window icon (fpinspector/resources/icon-NN.png) with Qt.

The icon is a float's bit pattern as the app shows it: a sign cell, exponent cells and
fraction cells, set bits bright and clear bits dim, on a rounded dark tile. Run it again
after changing the drawing: ``.venv/bin/python scripts/make_icon.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore, QtGui  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "fpinspector" / "resources"
SIZES = (16, 32, 48, 256)
#: 1.5f as f16 (0x3E00): sign 0, exponent 01111, fraction 1000000000 -> a 4 x 4 grid
BITS = "0011111000000000"
KINDS = "s" + "e" * 5 + "f" * 10
COLOURS = {"s": ("#ff6b6b", "#5a2a2a"), "e": ("#5ad17a", "#24492f"), "f": ("#5aa9ff", "#22405f")}


def draw(size: int) -> QtGui.QImage:
    img = QtGui.QImage(size, size, QtGui.QImage.Format.Format_ARGB32)
    img.fill(QtCore.Qt.GlobalColor.transparent)
    p = QtGui.QPainter(img)
    p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, size >= 32)
    p.setPen(QtCore.Qt.PenStyle.NoPen)
    p.setBrush(QtGui.QColor("#1e2430"))
    r = size * 0.18
    p.drawRoundedRect(QtCore.QRectF(0, 0, size, size), r, r)
    pad, gap = size * 0.12, max(1.0, size * 0.04)
    cell = (size - 2 * pad - 3 * gap) / 4
    for i, (bit, kind) in enumerate(zip(BITS, KINDS)):
        row, col = divmod(i, 4)
        on, off = COLOURS[kind]
        p.setBrush(QtGui.QColor(on if bit == "1" else off))
        x, y = pad + col * (cell + gap), pad + row * (cell + gap)
        p.drawRoundedRect(QtCore.QRectF(x, y, cell, cell), cell * 0.15, cell * 0.15)
    p.end()
    return img


def main() -> int:
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    for size in SIZES:
        path = OUT / f"icon-{size}.png"
        if not draw(size).save(str(path)):
            print(f"could not write {path}")
            return 1
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
