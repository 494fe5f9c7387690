"""Export of the sweep panel: the figure as PNG/SVG and the data as .npz/CSV.

Split from :mod:`.sweep_panel` (house style: modules under ~300 lines); mixed into
:class:`~fpinspector.ui.sweep_panel.SweepPanel`, which provides ``map``, ``result`` and
``_error``.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog

from ..model.sweep import save_npz, write_csv_summary
from .image_files import save_image, save_svg

__all__ = ["SweepExportMixin"]


class SweepExportMixin:
    """``export(path, kind)`` and the Export buttons' save dialog."""

    def export(self, path: str, kind: str) -> None:
        """Write the figure (``png``/``svg``) or the data (``npz``/``csv``) to ``path``."""
        import pyqtgraph.exporters as ex  # noqa: PLC0415

        if kind == "png":  # encoded in memory, written atomically (image_files)
            save_image(ex.ImageExporter(self.map.graphics.scene()).export(toBytes=True), path)
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
        path, _ = QFileDialog.getSaveFileName(self, f"Export {kind.upper()}", f"sweep.{kind}",
                                              f"{kind.upper()} (*.{kind})")
        if path:
            try:
                self.export(path, kind)
            except (ValueError, OSError) as exc:
                self._error(str(exc))

