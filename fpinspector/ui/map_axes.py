"""Axes and the histogram of the error maps: sample axes labelled with the samples' values
(log axes at the decades: 1e-40, 1e-30, ...), and the |error| histogram with room for its
axis label."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from ..model.sweep import hist_labels

__all__ = ["HistogramWidget", "ValueAxis", "decade_ticks"]


def _fmt_tick(v: float) -> str:
    """A tick label (an axis position, never a value shown as a result)."""
    return f"{v:.3g}" if np.isfinite(v) else str(v)


def decade_ticks(values: np.ndarray, lo: int, hi: int, count: int) -> list[tuple[float, str]]:
    """(position, label) of the powers of ten inside a geometric axis's samples
    ``values[lo..hi]``: one tick per decade, or per 2, 5, 10... decades when there are more
    than ``count``. Positions are sample centres (index + 0.5) interpolated in log space."""
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
    idx = np.arange(lo, hi + 1, dtype=np.float64) + 0.5
    order = np.argsort(logs)
    for d in decades[::step]:
        pos = float(np.interp(d, logs[order], idx[order]))
        out.append((pos, f"{'-' if sign < 0 else ''}1e{d}"))
    return out


class ValueAxis(pg.AxisItem):
    """Axis of a sample-index coordinate labelled with the samples' values; an axis of
    geometric (log) samples is labelled at its decades."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self._values: np.ndarray | None = None
        self._log = False
        self._labels: dict[float, str] = {}  # decade ticks of the last tickValues

    def set_values(self, values: np.ndarray | None, log: bool = False) -> None:
        self._values = None if values is None else np.asarray(values, dtype=np.float64)
        self._log = log
        self.picture = None
        self.update()

    def _range(self, minVal: float, maxVal: float) -> tuple[int, int]:  # noqa: N803
        n = len(self._values)
        return max(0, int(np.ceil(minVal - 0.5))), min(n - 1, int(np.floor(maxVal - 0.5)))

    def tickValues(self, minVal, maxVal, size):  # noqa: N802, N803 - pyqtgraph override
        if self._values is None or len(self._values) == 0:
            return super().tickValues(minVal, maxVal, size)
        lo, hi = self._range(minVal, maxVal)
        if hi < lo:
            return []
        count = max(2, int(size / 70))
        if self._log:
            ticks = decade_ticks(self._values, lo, hi, count)
            if len(ticks) >= 2:
                self._labels = dict(ticks)
                return [(1.0, [p for p, _ in ticks])]
        idx = sorted({int(round(float(i))) for i in np.linspace(lo, hi, min(count, hi - lo + 1))})
        return [(max(1.0, (hi - lo) / count), [float(i) + 0.5 for i in idx])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        if self._values is None:
            return super().tickStrings(values, scale, spacing)
        n = len(self._values)
        if self._log and all(v in self._labels for v in values):
            return [self._labels[v] for v in values]
        return [_fmt_tick(self._values[min(n - 1, max(0, int(v)))]) for v in values]


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
        self.setLabel("bottom", "|error| bin (upper edge, ULP)")
        # room for the tick labels and the axis label under them: never clipped
        self.getAxis("bottom").setHeight(42)
        self.getAxis("left").setWidth(52)
        self.setMinimumHeight(150)

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
        self.setTitle(title)
