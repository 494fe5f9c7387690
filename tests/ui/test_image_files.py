"""Figure exports and screenshots go through atomic_write: a full disk (an injected
ENOSPC) while saving a PNG or an SVG leaves the previous file whole."""

from __future__ import annotations

import errno
import os

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QImage

from fpinspector.model.state import atomic
from fpinspector.ui.image_files import save_image, save_svg


def _image() -> QImage:
    img = QImage(40, 30, QImage.Format.Format_RGB32)
    img.fill(QColor(10, 200, 30))
    return img


def _svg(path):  # noqa: ANN001, ANN202
    return save_svg(path, QSize(40, 30), "t", lambda p: p.fillRect(0, 0, 40, 30, QColor(1, 2, 3)))


def test_images_are_written_and_read_back(qapp, tmp_path):
    assert QImage(str(save_image(_image(), tmp_path / "a.png"))).pixelColor(3, 3) == \
        QColor(10, 200, 30)
    assert b"<svg" in _svg(tmp_path / "a.svg").read_bytes()


@pytest.mark.parametrize("save", [lambda p: save_image(_image(), p), _svg])
def test_a_full_disk_keeps_the_previous_image(qapp, tmp_path, monkeypatch, save):
    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    target = tmp_path / "fig"
    target.write_bytes(b"previous")
    monkeypatch.setattr(atomic.os, "fsync", fsync)
    with pytest.raises(OSError):
        save(target)
    assert target.read_bytes() == b"previous" and [p.name for p in tmp_path.iterdir()] == ["fig"]
