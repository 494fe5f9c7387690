"""Images the app writes (figure exports, screenshots), saved through ``atomic_write``.

Why: Qt's own savers (``QImage.save(path)``, ``QSvgGenerator.setFileName``, pyqtgraph's
exporters) write the target in place, so a full disk or a crash half-way destroys the file
that was there. Here the image is encoded in memory first and the bytes go through the one
writer every file of fpinspector goes through.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRect, QSize
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtSvg import QSvgGenerator

from ..model.state import atomic_write

__all__ = ["save_image", "save_svg"]


def _write(path: str | os.PathLike, data: bytes) -> Path:
    return Path(atomic_write(path, lambda fh: fh.write(data), binary=True))


def save_image(image: QImage | QPixmap, path: str | os.PathLike, fmt: str = "PNG") -> Path:
    """Encode ``image`` as ``fmt`` and write it to ``path`` atomically (OSError on failure)."""
    raw = QByteArray()
    buf = QBuffer(raw)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, fmt):
        raise OSError(f"cannot encode the image as {fmt}")
    buf.close()
    return _write(path, bytes(raw.data()))


def save_svg(path: str | os.PathLike, size: QSize, title: str,
             paint: Callable[[QPainter], None]) -> Path:
    """Render ``paint`` into an SVG of ``size`` and write it to ``path`` atomically."""
    raw = QByteArray()
    buf = QBuffer(raw)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(size)
    gen.setViewBox(QRect(0, 0, size.width(), size.height()))
    gen.setTitle(title)
    painter = QPainter(gen)
    try:
        paint(painter)
    finally:
        painter.end()
    buf.close()
    return _write(path, bytes(raw.data()))
