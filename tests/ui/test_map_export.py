"""Export PNG: the figure at twice its size on screen, and a palette where every mark and
the unary curve stand out from the plot's background and the legend's box (contrast at
least 3:1 by WCAG's relative-luminance formula, computed here from the RGB values). The
curve was dark blue (#3060c0, 3.6:1) on black, the marks on a white legend box (orange 1.7:1) and the export screen-sized."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage

from fpinspector.ui.maps import error_map


def _luminance(rgb) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb[:3]
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def _contrast(a, b) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _over(fg, bg, alpha: float):
    return tuple(round(f * alpha + b * (1 - alpha)) for f, b in zip(fg, bg))


@pytest.mark.parametrize("name", list(error_map.OVERLAY_COLORS) + ["curve"])
def test_every_colour_stands_out_from_background_and_legend(name) -> None:
    rgb = (QColor(error_map.CURVE_COLOR).getRgb() if name == "curve"
           else error_map.OVERLAY_COLORS[name])
    bg = error_map.PLOT_BACKGROUND
    box = _over(error_map.LEGEND_BRUSH[:3], bg, error_map.LEGEND_BRUSH[3] / 255)
    # a one-pixel curve needs what text needs (4.5:1); filled marks 3:1
    assert _contrast(rgb, bg) >= (4.5 if name == "curve" else 3), name
    if name != "curve":  # (the curve is not in the legend)
        assert _contrast(rgb, box) >= 3, name
    assert _contrast(error_map.LEGEND_TEXT, box) >= 4.5


def test_png_export_is_twice_the_screen_size(qtbot, tmp_path) -> None:
    from fpinspector.ui.maps.sweep_panel import SweepPanel
    from tests.ui.test_error_map import NumpyBackend

    p = SweepPanel(backend=NumpyBackend())
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    qtbot.waitExposed(p)
    try:
        p.domain_a.setText("log:1e-42:1e-30:8")
        p.domain_b.setText("lin:0.25:4:6")
        assert p.start_sweep()
        qtbot.waitUntil(lambda: not p.is_running(), timeout=10000)
        out = tmp_path / "m.png"
        p.export(str(out), "png")
        img = QImage(str(out))
        w = p.map.graphics.width()
        assert abs(img.width() - 2 * w) <= 2, (img.width(), w)
    finally:
        p.shutdown()
