"""Export of the sweep panel: the figure as PNG/SVG and the data as .npz/CSV.

Split from :mod:`.sweep_panel` (house style: modules under ~300 lines); mixed into
:class:`~fpinspector.ui.maps.sweep_panel.SweepPanel`, which provides ``map``, ``result`` and
``_error``.
"""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog

from ...model.sweep import save_npz, write_csv_summary
from ..image_files import save_image, save_svg

__all__ = ["SweepExportMixin", "PNG_SCALE"]

#: Export PNG renders the figure at this multiple of its size on screen.
PNG_SCALE = 2


class SweepExportMixin:
    """``export(path, kind)`` and the Export buttons' save dialog."""

    def export(self, path: str, kind: str) -> None:
        """Write the figure (``png``/``svg``) or the data (``npz``/``csv``) to ``path``."""
        import pyqtgraph.exporters as ex  # noqa: PLC0415

        if kind == "png":  # twice the screen's pixels (a figure for a report or a slide),
            # encoded in memory and written atomically (image_files)
            exporter = ex.ImageExporter(self.map.graphics.scene())
            exporter.parameters()["width"] = int(self.map.graphics.width() * PNG_SCALE)
            save_image(exporter.export(toBytes=True), path)
            return
        if kind == "svg":  # QSvgGenerator: pyqtgraph's SVGExporter trips on Qt 6.12 paths
            self._export_svg(str(path))
            return
        if self.result is None:
            raise ValueError("nothing to export: run a sweep first")
        if kind == "npz":
            save_npz(path, self.result)
        elif kind == "csv":
            write_csv_summary(path, self.result)
        else:
            raise ValueError(f"unknown export kind {kind!r}")

    def _export_svg(self, path: str) -> None:
        from PySide6.QtCore import QSize  # noqa: PLC0415

        view = self.map.graphics
        save_svg(path, QSize(view.width(), view.height()), "fpinspector error map", view.render)

    def _export_dialog(self, kind: str) -> None:
        from .. import recent

        settings = getattr(self.window(), "settings", None)  # (the window's, once docked)
        start = (os.path.join(recent.folder_for(settings, "export"), f"sweep.{kind}")
                 if settings is not None else f"sweep.{kind}")
        path, _ = QFileDialog.getSaveFileName(self, f"Export {kind.upper()}", start,
                                              f"{kind.upper()} (*.{kind})")
        if path and settings is not None:
            recent.remember_folder(settings, "export", path)
        if path:
            try:
                self.export(path, kind)
            except (ValueError, OSError) as exc:
                self._error(str(exc))

