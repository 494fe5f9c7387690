"""Axes, title and the histogram of the error maps: sample axes labelled with the samples'
values (log axes at the decades: 1e-40, 1e-30, ...), a title that wraps to the plot's width,
and the |error| histogram with room for its axis label."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSizeF, Qt, QTimer
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QWidget

from ...model.formats import FloatFormat
from ...model.sweep import hist_labels

__all__ = ["AXIS_SAMPLES", "HistogramWidget", "ValueAxis", "WrappingTitle", "axis_samples",
           "decade_ticks", "wrap_title"]

#: pyqtgraph's title row height, kept as the least (a title and its smaller note fit)
TITLE_HEIGHT = 30


def _fmt_tick(v: float) -> str:
    """A tick label (an axis position, never a value shown as a result)."""
    return f"{v:.3g}" if np.isfinite(v) else str(v)


def decade_ticks(values: np.ndarray, lo: int, hi: int, count: int,
                 index: np.ndarray | None = None) -> list[tuple[float, str]]:
    """(position, label) of the powers of ten inside a geometric axis's samples
    ``values[lo..hi]`` (at sample indices ``index``, default 0, 1, ...): one tick per
    decade, or per 2, 5, 10... decades when there are more than ``count``. Positions are
    sample centres (index + 0.5) interpolated in log space."""
    v = np.asarray(values[lo:hi + 1], dtype=np.float64)
    a = np.abs(v[np.isfinite(v) & (v != 0)])
    if a.size < 2:
        return []
    sign = -1.0 if v[0] < 0 else 1.0
    logs = np.log10(np.abs(v))
    d0, d1 = math.ceil(float(np.min(logs)) - 1e-12), math.floor(float(np.max(logs)) + 1e-12)
    decades = list(range(d0, d1 + 1))
    step = 1
    for s in (1, 2, 5, 10, 20, 50, 100):
        step = s
        if len(decades[::s]) <= max(2, count):
            break
    out = []
    idx = (np.arange(lo, hi + 1, dtype=np.float64) if index is None
           else np.asarray(index[lo:hi + 1], dtype=np.float64)) + 0.5
    order = np.argsort(logs)
    for d in decades[::step]:
        pos = float(np.interp(d, logs[order], idx[order]))
        out.append((pos, f"{'-' if sign < 0 else ''}1e{d}"))
    return out


#: Samples of an axis the labels are read from (an axis of 2^32 patterns is never decoded
#: whole: 32 GiB).
AXIS_SAMPLES = 513


@functools.lru_cache(maxsize=16)
def axis_samples(axis: Any) -> tuple[np.ndarray, np.ndarray]:
    """(sample indices, their values) of a sweep axis: every sample of a short axis, else
    AXIS_SAMPLES evenly spaced ones (each decoded on its own). Cached per axis (axes are
    frozen): redrawing a map never decodes its axes again."""
    n = axis.n
    if n <= 1 << 16:  # one vectorized pass
        return np.arange(n, dtype=np.float64), np.asarray(axis.values(), dtype=np.float64)
    idx = np.unique(np.linspace(0, n - 1, AXIS_SAMPLES).round().astype(np.int64))
    fmt = axis.fmt
    pats = np.concatenate([axis.patterns(int(i), int(i) + 1) for i in idx])
    vals = (np.asarray(fmt.decode(pats), dtype=np.float64) if isinstance(fmt, FloatFormat)
            else pats.astype(np.float64))
    return idx.astype(np.float64), vals


class ValueAxis(pg.AxisItem):
    """Axis of a sample-index coordinate labelled with the samples' values; an axis of
    geometric (log) samples is labelled at its decades."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        # the ticks are labelled with the samples' values: a scale factor of the index
        # coordinate ("a (x1e+09)" on a map of every f32 pattern) would say nothing true
        self.enableAutoSIPrefix(False)
        self._idx: np.ndarray | None = None  # sample index of each known value
        self._values: np.ndarray | None = None
        self._n = 0
        self._log = False
        self._labels: dict[float, str] = {}  # decade ticks of the last tickValues

    def set_axis(self, axis: Any | None) -> None:
        """Label with the values of a sweep axis (None: plain numbers)."""
        if axis is None:
            self._idx = self._values = None
            self._n = 0
        else:
            self._idx, self._values = axis_samples(axis)
            self._n = axis.n
            self._log = axis.is_log
        self.picture = None
        self.update()

    def _range(self, minVal: float, maxVal: float) -> tuple[int, int]:  # noqa: N803
        return max(0, int(np.ceil(minVal - 0.5))), min(self._n - 1, int(np.floor(maxVal - 0.5)))

    def _value_at(self, i: float) -> float:
        k = int(np.clip(np.searchsorted(self._idx, i, side="right") - 1, 0, len(self._idx) - 1))
        return float(self._values[k])

    def tickValues(self, minVal, maxVal, size):  # noqa: N802, N803 - pyqtgraph override
        if self._values is None or self._n == 0:
            return super().tickValues(minVal, maxVal, size)
        lo, hi = self._range(minVal, maxVal)
        if hi < lo:
            return []
        count = max(2, int(size / 70))
        if self._log:
            keep = (self._idx >= lo) & (self._idx <= hi)
            ticks = decade_ticks(self._values[keep], 0, int(keep.sum()) - 1, count,
                                 self._idx[keep])
            if len(ticks) >= 2:
                self._labels = dict(ticks)
                return [(1.0, [p for p, _ in ticks])]
        idx = sorted({int(round(float(i))) for i in np.linspace(lo, hi, min(count, hi - lo + 1))})
        return [(max(1.0, (hi - lo) / count), [float(i) + 0.5 for i in idx])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        if self._values is None:
            return super().tickStrings(values, scale, spacing)
        if self._log and all(v in self._labels for v in values):
            return [self._labels[v] for v in values]
        return [_fmt_tick(self._value_at(v - 0.5)) for v in values]


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
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.8, brush="#5aa0ff")  # (visible on black: error_map.CURVE_COLOR)
        self.addItem(self.bars)
        self.setLabel("left", "elements (log10)")
        self.setLabel("bottom", "|error| bin (upper edge, ULP)")
        # room for the tick labels and the axis label under them: never clipped
        self.getAxis("bottom").setHeight(42)
        self.getAxis("left").setWidth(52)
        self.setMinimumHeight(150)
        self._x = np.arange(0)  # the bins drawn (their labels are laid out on resize)

    def set_counts(self, counts: np.ndarray | None, title: str = "") -> None:
        if counts is None:
            self.bars.setOpts(x=[], height=[])
            return
        c = np.asarray(counts, dtype=np.float64)
        used = np.flatnonzero(c)
        lo, hi = (used[0], used[-1]) if len(used) else (0, 1)
        x = np.arange(lo, hi + 1)
        self.bars.setOpts(x=x, height=np.log10(1 + c[lo : hi + 1]), width=0.8)
        self._x = x
        self._label_bins()
        self.setTitle(title)

    def labelled_bins(self) -> list[int]:
        """The bins whose label is written: from the left, each where it has its width
        and a gap after the last one written (a fixed dozen labels ran together in a
        420 px histogram: "2^102^132^16"); wider, more of them."""
        x = self._x
        if not len(x) or self.plotItem is None:
            return []
        short = [_short_label(lab) for lab in hist_labels()]
        fm = self.fontMetrics()  # (the axis draws its labels in the view's font)
        per_bin = max(1.0, self.plotItem.vb.width()) / len(x)
        out, right = [], -math.inf
        for k, i in enumerate(x):
            half = fm.horizontalAdvance(short[i]) / 2
            centre = (k + 0.5) * per_bin
            if centre - half >= right + 8:
                out.append(int(i))
                right = centre + half
        return out

    def _label_bins(self) -> None:
        if self.plotItem is None:  # (closed before a queued re-label)
            return
        short = [_short_label(lab) for lab in hist_labels()]
        self.getAxis("bottom").setTicks([[(i, short[i]) for i in self.labelled_bins()],
                                         [(int(i), "") for i in self._x]])

    def resizeEvent(self, ev: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(ev)
        if len(getattr(self, "_x", ())):  # (Qt resizes it inside its own __init__ too)
            QTimer.singleShot(0, self, self._label_bins)  # (once the plot has its width)


class WrappingTitle(pg.LabelItem):
    """A plot title that wraps (at spaces, or anywhere in an expression without them) to
    the width its layout gives it, stays centred, and asks for no width of its own.

    Why: pyqtgraph's title asks for one line of its text as its minimum width, which
    becomes the whole figure's; a long expression or device name in a docked panel then
    pushed the colour bar and the map's right part out of the view. Its row is as high as
    the wrapped text (the plot gives it a fixed 30 px)."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self._plot = plot
        super().__init__("", size="11pt", parent=plot)
        wrap = QTextOption(Qt.AlignHCenter)
        wrap.setWrapMode(QTextOption.WrapAtWordBoundaryOrAnywhere)
        self.item.document().setDefaultTextOption(wrap)

    def resizeEvent(self, ev: Any) -> None:
        self.item.setTextWidth(max(1.0, self.width()))
        super().resizeEvent(ev)

    def updateMin(self) -> None:
        height = max(TITLE_HEIGHT, math.ceil(self.itemRect().height())) if self.text else 0
        self.setMinimumWidth(0)
        self.setMinimumHeight(height)
        self._sizeHint = {Qt.SizeHint.MinimumSize: (0, height),
                          Qt.SizeHint.PreferredSize: (0, height),
                          Qt.SizeHint.MaximumSize: (-1, -1),
                          Qt.SizeHint.MinimumDescent: (0, 0)}
        if self.isVisible() and self.maximumHeight() != height:  # (hidden: pyqtgraph's 0)
            self.setMaximumHeight(height)
            self._plot.layout.setRowFixedHeight(0, height)
        self.updateGeometry()

    def sizeHint(self, hint: Any, constraint: Any = None) -> QSizeF:
        return QSizeF(*self._sizeHint.get(hint, (0, 0)))


def wrap_title(plot: pg.PlotItem) -> WrappingTitle:
    """Put a :class:`WrappingTitle` in ``plot``'s title place (``setTitle`` then uses it)."""
    old = plot.titleLabel
    plot.layout.removeItem(old)
    if old.scene() is not None:
        old.scene().removeItem(old)
    title = WrappingTitle(plot)
    plot.layout.addItem(title, 0, 1)
    plot.titleLabel = title
    plot.setTitle(None)
    return title
