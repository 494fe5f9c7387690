"""Error maps: a 2D ULP-error image over an A x B grid (1D curve for unary ops), with a
diverging legend, value-labelled axes, class/non-conformance overlays, hover and click.

The widget only draws: errors, classes and verdicts come from a sweep
(:class:`fpinspector.model.sweep.SweepResult`); click-to-inspect emits the cell's operands.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ..model.formats import FORMATS, FloatFormat
from ..model.sweep import COMPARES, SweepResult, hist_labels

__all__ = ["ErrorMapWidget", "HistogramWidget", "ValueAxis", "signed_log", "OVERLAY_COLORS"]

#: RGBA of each overlay (drawn over the error image).
OVERLAY_COLORS = {
    "nonconformant": (0, 220, 0, 110),
    "denormal": (90, 90, 90, 60),
    "nan": (20, 20, 20, 200),
    "inf": (230, 160, 0, 170),
}


def signed_log(err: np.ndarray) -> np.ndarray:
    """sign(e) * log2(1 + |e|): keeps 0, +-0.5 and +-1 ULP apart while showing 2^20 steps."""
    e = np.asarray(err, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return np.sign(e) * np.log2(1.0 + np.abs(e))


def _fmt_value(v: float) -> str:
    return f"{v:.3g}" if np.isfinite(v) else str(v)


class ValueAxis(pg.AxisItem):
    """Axis of a sample-index coordinate labelled with the samples' values (log axes show
    their geometric spacing because the samples are geometric)."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self._values: np.ndarray | None = None

    def set_values(self, values: np.ndarray | None) -> None:
        self._values = None if values is None else np.asarray(values, dtype=np.float64)
        self.picture = None
        self.update()

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 - pyqtgraph override
        if self._values is None or len(self._values) == 0:
            return super().tickValues(minVal, maxVal, size)
        n = len(self._values)
        lo, hi = max(0, int(np.ceil(minVal - 0.5))), min(n - 1, int(np.floor(maxVal - 0.5)))
        if hi < lo:
            return []
        count = max(2, int(size / 90))
        idx = np.unique(np.linspace(lo, hi, min(count, hi - lo + 1)).round().astype(int))
        return [(max(1.0, (hi - lo) / count), [float(i) + 0.5 for i in idx])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        if self._values is None:
            return super().tickStrings(values, scale, spacing)
        n = len(self._values)
        return [_fmt_value(self._values[min(n - 1, max(0, int(v)))]) for v in values]


class ErrorMapWidget(QWidget):
    """Map of one sweep's error (2D image for grids, curve for unary domains).

    Signals
    -------
    inspect_requested(op: str, format: str, rules: str, operand_bits: tuple)
        Emitted on a left click on a cell/point: the operands to load into the bit editors.
    hovered(index: int)
        Flat element index under the mouse (-1 when outside).
    """

    inspect_requested = Signal(str, str, str, object)
    hovered = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: SweepResult | None = None
        self.compare = "gpu_vs_model"
        self.overlays = {k: True for k in OVERLAY_COLORS}
        self._x_axis, self._y_axis = ValueAxis("bottom"), ValueAxis("left")
        self.graphics = pg.GraphicsLayoutWidget()
        self.plot = self.graphics.addPlot(axisItems={"bottom": self._x_axis, "left": self._y_axis})
        self.image = pg.ImageItem()
        self.overlay = pg.ImageItem()
        self.curve = pg.PlotDataItem(pen=pg.mkPen("#3060c0", width=1))
        self.bad_points = pg.ScatterPlotItem(size=6, brush=pg.mkBrush(0, 200, 0), pen=None)
        for item in (self.image, self.overlay, self.curve, self.bad_points):
            self.plot.addItem(item)
        self.overlay.setZValue(5)
        self.colorbar = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get("CET-D1"),
                                        label="signed log2(1 + |ULP error|)", interactive=False)
        self.colorbar.setImageItem(self.image, insert_in=self.plot)
        self.info = QLabel("run a sweep to see its error map")
        self.info.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.info.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.graphics, 1)
        lay.addWidget(self.info)
        scene = self.plot.scene()
        scene.sigMouseMoved.connect(self._on_move)
        scene.sigMouseClicked.connect(self._on_click)

    # -- data ------------------------------------------------------------------------
    def set_result(self, result: SweepResult | None, compare: str | None = None) -> None:
        """Show ``result`` (kept per-element columns needed) comparing ``compare``."""
        if compare is not None:
            self.set_compare(compare, redraw=False)
        self.result = result
        self.redraw()

    def set_compare(self, compare: str, redraw: bool = True) -> None:
        """``gpu_vs_model``, ``gpu_vs_exact`` or ``model_vs_exact``."""
        if compare not in COMPARES:
            raise ValueError(f"compare must be one of {', '.join(COMPARES)}")
        self.compare = compare
        if redraw:
            self.redraw()

    def set_overlay(self, name: str, on: bool) -> None:
        """Toggle one overlay (``nonconformant``, ``denormal``, ``nan``, ``inf``)."""
        if name not in OVERLAY_COLORS:
            raise ValueError(f"unknown overlay {name!r}")
        self.overlays[name] = bool(on)
        self.redraw()

    def error_column(self) -> np.ndarray | None:
        """The compared error per element (None when the sweep lacks that column)."""
        if self.result is None:
            return None
        col = COMPARES[self.compare][0]
        return self.result.columns.get(col)

    def redraw(self) -> None:
        res = self.result
        err = self.error_column()
        self.image.clear()
        self.overlay.clear()
        self.curve.setData([], [])
        self.bad_points.setData([], [])
        if res is None or err is None:
            self.info.setText(f"this sweep has no '{self.compare}' column (GPU off?)"
                              if res is not None else "run a sweep to see its error map")
            return
        z = signed_log(err)
        m = float(np.nanmax(np.abs(z))) if np.any(np.isfinite(z)) else 1.0
        m = max(m, 1.0)
        self.colorbar.setLevels((-m, m))
        axes = res.domain.axes
        self.colorbar.setVisible(res.domain.arity == 2)
        if res.domain.arity == 2:
            self._y_axis.set_values(axes[0].values())
            self._x_axis.set_values(axes[1].values())
            shape = res.domain.shape
            zi = np.nan_to_num(z.reshape(shape), nan=0.0, posinf=m, neginf=-m)
            self.image.setImage(zi.T, levels=(-m, m), autoLevels=False)
            self.overlay.setImage(self._overlay_rgba().transpose(1, 0, 2), autoLevels=False,
                                  levels=(0, 255))
            self.plot.setLabels(left="A", bottom="B")
            self.plot.setRange(xRange=(0, shape[1]), yRange=(0, shape[0]), padding=0)
        else:
            self._x_axis.set_values(axes[0].values())
            self._y_axis.set_values(None)
            x = np.arange(len(z)) + 0.5
            y = np.nan_to_num(z, nan=0.0, posinf=m, neginf=-m)
            self.curve.setData(x, y)
            bad = self._bad_mask()
            if self.overlays["nonconformant"] and bad is not None and bad.any():
                self.bad_points.setData(x[bad], np.nan_to_num(z[bad]))
            self.plot.setLabels(left="signed log2(1+|ULP|)", bottom="input")
            # y fits the curve (at least -1..1): a previous 2D map's rows must not stay
            self.plot.setRange(xRange=(0, len(z)), yRange=(min(float(y.min()), -1.0),
                                                          max(float(y.max()), 1.0)),
                               padding=0.02)
        op, fmt = res.meta.get("op", "?"), res.meta.get("format", "?")
        c = (res.meta.get("fixed") or {}).get("c")
        dev = res.meta.get("device")  # which GPU produced the map's GPU column
        self.plot.setTitle(f"{op} on {fmt}{f' with C = {c}' if c else ''} "
                           f"({res.meta.get('rules', '')}): {COMPARES[self.compare][1]}"
                           + (f" — {dev}" if dev and res.meta.get("gpu") else ""))

    def _bad_mask(self) -> np.ndarray | None:
        cols = self.result.columns
        ok = cols.get("ok_gpu", cols.get("ok_model"))
        return None if ok is None else ~ok.astype(bool)

    def _overlay_rgba(self) -> np.ndarray:
        """RGBA (rows = A, cols = B) of the overlays switched on."""
        res = self.result
        na, nb = res.domain.shape
        rgba = np.zeros((na, nb, 4), np.uint8)

        def paint(mask: np.ndarray, name: str) -> None:
            if self.overlays[name] and mask.any():
                rgba[mask] = OVERLAY_COLORS[name]

        fa, fb = (ax.fmt for ax in res.domain.axes)
        pa, pb = (ax.patterns() for ax in res.domain.axes)
        den = fa.is_denormal(pa)[:, None] | fb.is_denormal(pb)[None, :]
        paint(den, "denormal")
        out = res.columns.get("gpu", res.columns.get("model"))
        rfmt = FORMATS.get(res.meta.get("result_format", ""))
        if out is not None and rfmt is not None:
            codes = rfmt.class_codes(out).reshape(na, nb)
            paint(codes == 3, "inf")
            paint(codes == 4, "nan")
        bad = self._bad_mask()
        if bad is not None:
            paint(bad.reshape(na, nb), "nonconformant")
        return rgba

    # -- mouse -----------------------------------------------------------------------
    def index_at(self, x: float, y: float) -> int:
        """Flat element index at view coordinates (x, y), or -1 outside the data."""
        if self.result is None:
            return -1
        if self.result.domain.arity == 2:
            na, nb = self.result.domain.shape
            col, row = int(np.floor(x)), int(np.floor(y))
            return row * nb + col if 0 <= row < na and 0 <= col < nb else -1
        i = int(np.floor(x))
        return i if 0 <= i < self.result.domain.size else -1

    def describe(self, k: int) -> str:
        """Operands, results, exact value, error and verdict of element ``k``."""
        res = self.result
        f = res.domain.axes[0].fmt
        ops = tuple(res.operands_at(k)) + self.fixed_operands()
        if isinstance(f, FloatFormat):
            parts = [f"{n}=0x{int(o):0{f.bits // 4}X} "
                     f"({_fmt_value(float(f.decode(np.array([o], f.dtype))[0]))})"
                     for n, o in zip("ABC", ops)]
        else:  # integer codes (itof, from_unorm8, ...): the code itself
            parts = [f"{n}={f.name} code {int(o)}" for n, o in zip("ABC", ops)]
        rfmt = FORMATS.get(res.meta.get("result_format", ""))
        for col in ("model", "gpu"):
            if col in res.columns:
                v = res.columns[col][k]
                val = f" ({_fmt_value(float(rfmt.decode(np.array([v]))[0]))})" if rfmt else ""
                parts.append(f"{col}=0x{int(v):X}{val}")
        if "exact" in res.columns:
            parts.append(f"exact={float(res.columns['exact'][k])!r}")
        err = self.error_column()
        parts.append(f"{COMPARES[self.compare][1]}: {err[k]:g}")
        bad = self._bad_mask()
        if bad is not None:
            parts.append("NON-CONFORMANT" if bad[k] else "conformant")
        fired = [r for r, m in res.fired.items() if m[k]]
        if fired:
            parts.append("rules: " + ", ".join(fired))
        return "  ".join(parts)

    def _view_pos(self, scene_pos):
        if not self.plot.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.plot.vb.mapSceneToView(scene_pos)
        return p.x(), p.y()

    def _on_move(self, scene_pos) -> None:
        pos = self._view_pos(scene_pos)
        k = -1 if pos is None else self.index_at(*pos)
        self.hovered.emit(k)
        if k >= 0 and self.error_column() is not None:
            self.info.setText(self.describe(k))

    def _on_click(self, event) -> None:
        if event.button() != Qt.LeftButton:
            return
        pos = self._view_pos(event.scenePos())
        if pos is not None:
            self.request_inspect(self.index_at(*pos))

    def fixed_operands(self) -> tuple[int, ...]:
        """Operands held constant over the sweep (C of mad), from ``meta["fixed"]``."""
        fixed = (self.result.meta.get("fixed") or {}) if self.result is not None else {}
        return tuple(int(str(fixed[n]), 0) for n in ("c",) if n in fixed)

    def request_inspect(self, k: int) -> None:
        """Emit ``inspect_requested`` for element ``k`` (what a click does): the swept
        operands and any fixed ones (mad's C), so the inspector gets the whole input."""
        if self.result is None or k < 0:
            return
        m = self.result.meta
        ops = tuple(int(o) for o in self.result.operands_at(k)) + self.fixed_operands()
        self.inspect_requested.emit(m.get("op", ""), m.get("format", ""), m.get("rules", ""),
                                    ops)


def _short_label(label: str) -> str:
    """'(2,4]' -> '4', '(1024,2048]' -> '2^11': the bin's upper edge, compactly."""
    if not label.startswith("("):
        return label
    hi = float(label.rstrip("]").split(",")[1])
    return f"2^{int(np.log2(hi))}" if hi >= 1024 else f"{hi:g}"


class HistogramWidget(pg.PlotWidget):
    """Bar chart of a sweep's |error| histogram (bins of :func:`hist_labels`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.8, brush="#3060c0")
        self.addItem(self.bars)
        self.setLabel("left", "elements (log10)")

    def set_counts(self, counts: np.ndarray | None, title: str = "") -> None:
        labels = hist_labels()
        if counts is None:
            self.bars.setOpts(x=[], height=[])
            return
        c = np.asarray(counts, dtype=np.float64)
        used = np.flatnonzero(c)
        lo, hi = (used[0], used[-1]) if len(used) else (0, 1)
        x = np.arange(lo, hi + 1)
        self.bars.setOpts(x=x, height=np.log10(1 + c[lo : hi + 1]), width=0.8)
        step = max(1, int(np.ceil(len(x) / 12)))  # about a dozen readable labels
        short = [_short_label(lab) for lab in labels]
        self.getAxis("bottom").setTicks([[(int(i), short[i]) for i in x[::step]],
                                         [(int(i), "") for i in x]])
        self.setLabel("bottom", "|error| bin (upper edge, ULP)")
        self.setTitle(title)
