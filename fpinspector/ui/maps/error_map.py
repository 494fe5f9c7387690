"""Error maps: a 2D ULP-error image over an A x B grid (a curve for unary ops) drawn from a
sweep's block summary (:mod:`.map_blocks`), with a diverging colour bar, value-labelled
axes (decades on log axes), opaque marks for non-conformant, NaN, INF and denormal-input
cells, a legend under the plot (outside the data; exports carry it), hover and click.

The widget only draws: errors, classes and verdicts come from a sweep
(:class:`fpinspector.model.sweep.SweepResult`); click-to-inspect emits the cell's operands.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...model.engine.raw_inputs import VS_FLUSHED, VS_RAW, raw_evaluation
from ...model.formats import FORMATS, FloatFormat
from ...model.sweep import COMPARES, SweepResult
from ...model.sweep.map_blocks import BlockMap, colorize, signed_log
from .. import bridge
from ..background import run_in_background
from .map_axes import HistogramWidget, ValueAxis, wrap_title

__all__ = ["ErrorMapWidget", "HistogramWidget", "ValueAxis", "signed_log", "OVERLAY_COLORS",
           "OVERLAY_TEXT"]

#: RGBA of each mark, opaque: a marked cell shows exactly the legend's colour (no blend
#: with the error colour under it), distinct from the blue-white-red error scale and
#: visible on light and dark backgrounds. Later marks win where several apply.
OVERLAY_COLORS = {
    "denormal": (128, 128, 128, 255),
    "inf": (255, 170, 0, 255),
    "nan": (230, 0, 230, 255),
    "nonconformant": (0, 200, 0, 255),
}
#: The plot's background (pyqtgraph's), the unary curve's colour and the legend's box and
#: text: every mark and the curve stand out from both the background and the legend's box
#: (contrast 3:1 or more, WCAG's figure for graphics; a dark blue curve on black is not).
PLOT_BACKGROUND = (0, 0, 0)
CURVE_COLOR = "#5aa0ff"
LEGEND_BRUSH = (40, 40, 40, 235)
LEGEND_TEXT = (235, 235, 235)
#: What each mark means (the legend's words).
OVERLAY_TEXT = {
    "nonconformant": "non-conformant result",
    "nan": "NaN result",
    "inf": "infinite result",
    "denormal": "denormal input",
}
#: Marks shown at first (denormal inputs hide the errors under them: on request).
DEFAULT_OVERLAYS = {"nonconformant": True, "nan": True, "inf": True, "denormal": False}
#: The marks a unary curve can draw (a point has no cell to grey for a denormal input).
CURVE_MARKS = ("nonconformant", "nan", "inf")


def _no_mark_words(on: list[str]) -> str:
    """The legend's line when none of the marks ``on`` is drawn: "no non-conformant, NaN
    or infinite result" (and "no denormal input" where that mark is on)."""
    results = [OVERLAY_TEXT[n].removesuffix(" result") for n in on
               if OVERLAY_TEXT[n].endswith(" result")]
    parts = []
    if results:
        parts.append("no " + (", ".join(results[:-1]) + " or " if len(results) > 1 else "")
                     + results[-1] + " result")
    parts += ["no " + OVERLAY_TEXT[n] for n in on if not OVERLAY_TEXT[n].endswith(" result")]
    return "; ".join(parts) or "no marks shown (turn them on beside the map)"


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
        self.blocks: BlockMap | None = None
        self.meta: dict[str, Any] = {}
        self.compare = "gpu_vs_model"
        self.overlays = dict(DEFAULT_OVERLAYS)
        self._frame: tuple | None = None  # the domain the axes were drawn for
        self._shown_title = ""
        self._x_axis, self._y_axis = ValueAxis("bottom"), ValueAxis("left")
        self.graphics = pg.GraphicsLayoutWidget()
        self.plot = self.graphics.addPlot(axisItems={"bottom": self._x_axis, "left": self._y_axis})
        wrap_title(self.plot)  # (a long expression never widens the figure past its view)
        # the map as one RGBA image (error colours and marks composited off the UI thread
        # while a sweep runs): drawing it is a copy, not a colour-mapping pass
        self.image = pg.ImageItem()
        self.curve = pg.PlotDataItem(pen=pg.mkPen(CURVE_COLOR, width=1))
        self.bad_points = pg.ScatterPlotItem(size=6, pen=None,
                                             brush=pg.mkBrush(*OVERLAY_COLORS["nonconformant"]))
        # a curve has no cell to colour: NaN and infinite results are marks on its zero line
        self.mark_points = pg.ScatterPlotItem(size=5, pen=None, symbol="s")
        self.curve.setData([], [], connect="finite")
        for item in (self.image, self.curve, self.mark_points, self.bad_points):
            self.plot.addItem(item)
        cmap = pg.colormap.get("CET-D1")
        self.lut = cmap.getLookupTable(0.0, 1.0, 256, alpha=True)
        self.colorbar = pg.ColorBarItem(values=(-1, 1), colorMap=cmap,
                                        label="signed log2(1 + |ULP error|)", interactive=False)
        self.graphics.addItem(self.colorbar)
        self.values: np.ndarray | None = None  # the signed-log errors drawn (blocks)
        self.rgba: np.ndarray | None = None  # and their colours, marks included
        self._rendering = False
        self._again = False
        self._drawing = 0  # counts draws: a live frame coloured before a later draw is dropped
        # the legend in its own row under the plot and colour bar, one line: inside the
        # plot it covered ~40% of a small map's data (exports carry it all the same)
        self.legend = pg.LegendItem(offset=None, labelTextSize="8pt", colCount=4,
                                    brush=LEGEND_BRUSH, labelTextColor=LEGEND_TEXT)
        self.legend.layout.setContentsMargins(2, 0, 2, 0)  # (one text line high)
        self.legend.layout.setVerticalSpacing(0)
        self.graphics.addItem(self.legend, row=1, col=0, colspan=2)
        self._legend_items = {}
        for name, rgba in OVERLAY_COLORS.items():
            sample = pg.ScatterPlotItem(symbol="s", size=10, brush=pg.mkBrush(*rgba), pen=None)
            self._legend_items[name] = sample
        # the legend's one line when no mark on is drawn: its words say which marks the
        # map would show (an empty box read as a legend whose entries had been lost)
        self._no_mark = pg.ScatterPlotItem(size=0, pen=None, brush=None)
        self._legend_marks: tuple[tuple[str, ...], str] | None = None  # (drawn, words)
        self._present: dict[str, bool] = {}  # which marks the drawn blocks hold
        self._arity = 2
        self._fill_legend()
        self.info = QLabel("run a sweep to see its error map")
        self.info.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.info.setWordWrap(True)
        # a fixed height: hover text of any length never shrinks the plot under the mouse
        # (a click on a bottom row would land on the axis)
        self.info.setFixedHeight(self.info.fontMetrics().lineSpacing() * 3 + 6)
        self.info.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self.info.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.graphics, 1)
        lay.addWidget(self.info)
        scene = self.plot.scene()
        scene.sigMouseMoved.connect(self._on_move)
        scene.sigMouseClicked.connect(self._on_click)

    def legend_names(self) -> list[str]:
        """The marks the legend lists: those turned on that the drawn map holds (a curve
        draws no denormal mark). A legend lists only what is drawn."""
        can = OVERLAY_COLORS if self._arity == 2 else CURVE_MARKS
        return [n for n in OVERLAY_COLORS
                if n in can and self.overlays[n] and self._present.get(n, False)]

    def _fill_legend(self) -> None:
        drawn = tuple(self.legend_names())
        can = OVERLAY_COLORS if self._arity == 2 else CURVE_MARKS
        words = _no_mark_words([n for n in OVERLAY_TEXT if n in can and self.overlays[n]])
        if self._legend_marks == (drawn, words):
            return  # (the same entries: no new layout on each live frame)
        self._legend_marks = (drawn, words)
        self.legend.clear()
        for name in drawn:
            self.legend.addItem(self._legend_items[name], OVERLAY_TEXT[name])
        if not drawn:
            self.legend.addItem(self._no_mark, words)

    # -- data ------------------------------------------------------------------------
    def set_result(self, result: SweepResult | None, compare: str | None = None,
                   blocks: BlockMap | None = None) -> None:
        """Show ``result`` comparing ``compare``; ``blocks`` is its block summary (made
        here from the per-element columns when not given)."""
        if compare is not None:
            self.set_compare(compare, redraw=False)
        self.result = result
        if result is not None and blocks is None:
            blocks = BlockMap.from_result(result)
        self.blocks = blocks
        self.meta = dict(result.meta) if result is not None else {}
        self.redraw()

    def show_blocks(self, blocks: BlockMap, meta: dict[str, Any]) -> None:
        """Draw a sweep still running from its blocks (undone blocks are empty); the
        colours are computed off the UI thread."""
        self.result, self.blocks, self.meta = None, blocks, dict(meta)
        self.redraw_later()

    def set_compare(self, compare: str, redraw: bool = True) -> None:
        """``gpu_vs_model``, ``gpu_vs_exact`` or ``model_vs_exact``: a lookup in the
        blocks, never a pass over the elements."""
        if compare not in COMPARES:
            raise ValueError(f"compare must be one of {', '.join(COMPARES)}")
        self.compare = compare
        if redraw:
            self.redraw()

    def set_overlay(self, name: str, on: bool) -> None:
        """Toggle one mark (``nonconformant``, ``denormal``, ``nan``, ``inf``)."""
        if name not in OVERLAY_COLORS:
            raise ValueError(f"unknown overlay {name!r}")
        self.overlays[name] = bool(on)
        self._fill_legend()
        self.redraw()

    def redraw(self) -> None:
        """Draw the blocks now; the frame (axes, labels, range, title) only when it
        changed. A live frame still being coloured is stale from here on."""
        self._drawing += 1
        if self._prepare_frame():
            self._show(self._render(self.blocks, self.compare, dict(self.overlays)))

    def redraw_later(self) -> None:
        """Draw the blocks of a running sweep: the colours are computed on a thread and
        only the finished image is handed to the view (a tick in flight skips the next)."""
        if self._rendering:
            self._again = True
            return
        if not self._prepare_frame():
            return
        self._rendering = True
        self._drawing += 1
        drawing = self._drawing
        args = (self.blocks, self.compare, dict(self.overlays))

        def shown(data: dict) -> None:
            self._rendering = False
            # (a frame coloured before the final result was drawn must not replace it,
            # though the blocks are the same object)
            if self.blocks is args[0] and drawing == self._drawing:
                self._show(data)
            if self._again:
                self._again = False
                self.redraw_later()

        def failed(exc: Exception) -> None:
            self._rendering = False
            self.info.setText(f"drawing the map failed: {exc}")

        run_in_background(lambda: self._render(*args), shown, failed)

    def _prepare_frame(self) -> bool:
        """Axes and title for the blocks (False, with a message, when there is nothing
        to draw)."""
        bm = self.blocks
        col = COMPARES[self.compare][0]
        if bm is None or (col not in bm.columns and bm.count.any()):
            self._frame = None
            self._shown_title = ""
            self.plot.setTitle("")
            self.image.clear()
            self.curve.setData([], [])
            self.bad_points.setData([], [])
            self.values = self.rgba = None
            self._present = {}
            self._fill_legend()
            self.info.setText(f"this sweep has no '{COMPARES[self.compare][1]}' column "
                              "(GPU off?)" if bm is not None else "run a sweep to see its error map")
            return False
        frame = (id(bm.domain), bm.shape)
        if frame != self._frame:
            self._draw_frame(bm)
            self._frame = frame
        title = self._title()
        if title != self._shown_title:  # a compare switch changes the title, not the axes
            self.plot.setTitle(title)
            self._shown_title = title
        return True

    def _render(self, bm: BlockMap, compare: str, overlays: dict[str, bool]) -> dict:
        """What to draw, in numpy only (any thread): values, level, colours or curve."""
        z, m = bm.values(COMPARES[compare][0])
        out: dict[str, Any] = {"z": z, "m": m}
        marks = bm.marks()
        out["present"] = {n: bool(a.any()) for n, a in marks.items()}
        if bm.domain.arity == 2:
            shown = {n: c for n, c in OVERLAY_COLORS.items() if overlays[n]}
            out["rgba"] = colorize(z, m, self.lut, marks, shown)
            return out
        d = bm.domain
        done = np.flatnonzero(bm.count > 0)
        out["x"] = done * bm.fb + np.minimum(bm.fb, d.size - done * bm.fb) / 2.0
        out["y"] = z[done]
        out["bad"] = marks["nonconformant"][done] if overlays["nonconformant"] else None
        out["marks"] = {n: marks[n][done] for n in ("nan", "inf") if overlays[n]}
        return out

    def _show(self, data: dict) -> None:
        bm, m = self.blocks, data["m"]
        self._present = data["present"]
        self._fill_legend()
        self.values = data["z"]
        self.colorbar.setLevels((-m, m))
        if "rgba" in data:
            self.rgba = data["rgba"]
            self.image.setImage(self.rgba.transpose(1, 0, 2), autoLevels=False)
            self.image.setRect(QRectF(0, 0, bm.shape[1] * bm.fb, bm.shape[0] * bm.fa))
            return
        x, y, bad = data["x"], data["y"], data["bad"]
        self.curve.setData(x, y, connect="finite")  # no error (NaN): a gap, never a 0
        if bad is not None and bad.any():
            self.bad_points.setData(x[bad], np.nan_to_num(y[bad]))
        else:
            self.bad_points.setData([], [])
        spots = []
        for name, mask in data["marks"].items():
            brush = pg.mkBrush(*OVERLAY_COLORS[name])
            xs = x[mask]
            if len(xs) > 8192:  # evenly thinned: the marks cover the whole run, not its start
                xs = xs[np.linspace(0, len(xs) - 1, 8192).round().astype(np.intp)]
            spots += [{"pos": (float(xi), 0.0), "brush": brush} for xi in xs]
        self.mark_points.setData(spots)
        lo = min(float(np.nanmin(y)) if np.isfinite(y).any() else 0.0, -1.0)
        hi = max(float(np.nanmax(y)) if np.isfinite(y).any() else 0.0, 1.0)
        self.plot.setYRange(lo, hi, padding=0.02)

    def _draw_frame(self, bm: BlockMap) -> None:
        """Axes, labels, ranges and title of a sweep's domain."""
        self.image.clear()
        self.curve.setData([], [])
        self.bad_points.setData([], [])
        self.mark_points.setData([])
        d = bm.domain
        self._arity = d.arity
        self.colorbar.setVisible(d.arity == 2)
        if d.arity == 2:
            self._y_axis.set_axis(d.axes[0])
            self._x_axis.set_axis(d.axes[1])
            rows, cols = self.axis_labels(2)
            self.plot.setLabels(left=rows, bottom=cols)
            self.plot.setRange(xRange=(0, d.shape[1]), yRange=(0, d.shape[0]), padding=0)
        else:
            self._x_axis.set_axis(d.axes[0])
            self._y_axis.set_axis(None)
            self.plot.setLabels(left="signed log2(1+|ULP|)", bottom=self.axis_labels(1)[0])
            self.plot.setXRange(0, d.size, padding=0.02)

    def title_head(self) -> str:
        """The title's first line: what was swept, under which rules, and the compare."""
        meta = self.meta
        op, fmt = meta.get("op", "?"), meta.get("format", "?")
        c = (meta.get("fixed") or {}).get("c")
        return (f"{op} on {fmt}{f' with C = {c}' if c else ''} ({meta.get('rules', '')}): "
                f"{COMPARES[self.compare][1]}")

    def axis_labels(self, arity: int) -> list[str]:
        """The axes' labels: rows and columns of a grid, or the one input axis."""
        return ["A", "B"] if arity == 2 else ["input"]

    def _title(self) -> str:
        meta = self.meta
        dev = meta.get("device", meta.get("renderer"))
        bm = self.blocks
        per = "" if bm is None or bm.exact else (
            f" — each cell: the worst of {bm.fa} x {bm.fb} elements" if bm.domain.arity == 2
            else f" — each point: the worst of {bm.fb:,} patterns")
        head = self.title_head()
        more = (f"{dev}" if dev and meta.get("gpu") else "") + per
        # a second, smaller line: a long device name never widens the plot past its view
        return head + (f"<br><span style='font-size: 8pt'>{more.removeprefix(' — ')}</span>"
                       if more else "")

    # -- mouse -----------------------------------------------------------------------
    def _domain(self) -> Any:
        return self.blocks.domain if self.blocks is not None else None

    def index_at(self, x: float, y: float) -> int:
        """Flat element index at view coordinates (x, y), or -1 outside the data."""
        d = self._domain()
        if d is None:
            return -1
        if d.arity == 2:
            na, nb = d.shape
            col, row = int(np.floor(x)), int(np.floor(y))
            return row * nb + col if 0 <= row < na and 0 <= col < nb else -1
        i = int(np.floor(x))
        return i if 0 <= i < d.size else -1

    def target(self, k: int) -> int:
        """The element a click on element ``k`` loads: ``k`` itself where the map shows
        every element, else the worst element of its block."""
        bm = self.blocks
        if bm is None or k < 0:
            return -1
        if self.result is not None and self.result.columns and bm.exact:
            return k
        w = bm.worst_element(COMPARES[self.compare][0], bm.block_at(k))
        return w if w >= 0 else (k if self.result is not None and self.result.columns else -1)

    def describe(self, k: int) -> str:
        """Operands, results, exact value, error and verdict of element ``k`` (all values
        as the shortest decimal of their own format), or of its block."""
        res = self.result
        if res is None or not res.columns or not self.blocks.exact:
            return self._describe_block(k)
        return self._describe_element(res, k)

    def operand_names(self) -> list[str]:
        """The names the hover text gives the operands (an expression map: its variables)."""
        return list("ABC")

    def _operand_text(self, ops: tuple[int, ...]) -> list[str]:
        f = self._domain().axes[0].fmt
        names = self.operand_names()
        if isinstance(f, FloatFormat):
            return [f"{n}=0x{int(o):0{f.bits // 4}X} ({bridge.value_text(f.name, int(o))})"
                    for n, o in zip(names, ops)]
        return [f"{n}={f.name} code {int(o)}" for n, o in zip(names, ops)]

    def _describe_element(self, res: SweepResult, k: int) -> str:
        ops = tuple(res.operands_at(k)) + self.fixed_operands()
        parts = self._operand_text(ops)
        rfmt = FORMATS.get(res.meta.get("result_format", ""))
        for col in ("model", "gpu"):
            if col in res.columns:
                v = int(res.columns[col][k])
                val = f" ({bridge.value_text(rfmt.name, v)})" if rfmt else ""
                parts.append(f"{col}=0x{v:X}{val}")
        raw = self._raw_inputs(ops)
        if "exact" in res.columns:
            parts.append(f"exact={float(res.columns['exact'][k])!r}" + (
                "" if raw is None else
                f" after input flush, {float(np.asarray(raw.exact).reshape(-1)[0])!r} of the "
                "raw inputs"))
        # every error the sweep kept, each saying what it is measured against (the map's
        # colour is one of them): the panel's verdict line and `fpinspector eval` give the
        # same figures, said the same way (model.engine.raw_inputs)
        errs = []
        for key, (col, label) in COMPARES.items():
            if col not in res.columns:
                continue
            err = float(res.columns[col][k])
            if key == "gpu_vs_model":
                errs.append(f"{label} {err:g} steps")
            elif raw is None:
                errs.append(f"{label} {err:g} ULP")
            else:
                who = "gpu" if key == "gpu_vs_exact" else "model"
                rv = raw.verdict(0, int(res.columns[who][k])).ulp_error
                errs.append(f"{label.removesuffix(' vs exact')} {err:g} ULP {VS_FLUSHED}"
                            + ("" if rv is None else f", {rv:g} ULP {VS_RAW}"))
        if errs:
            parts.append("error: " + ", ".join(errs))
        ok = res.columns.get("ok_gpu", res.columns.get("ok_model"))
        if ok is not None:
            parts.append("conformant" if ok[k] else "NON-CONFORMANT")
        fired = [r for r, m in res.fired.items() if m[k]]
        if fired:
            parts.append("rules: " + ", ".join(fired))
        return "  ".join(parts)

    def _raw_inputs(self, ops: tuple[int, ...]) -> Any:
        """The op on the cell's raw inputs where the rule set's input flush changed the
        exact value (model.engine.raw_inputs), else None (and for expression maps)."""
        m = self.meta
        try:
            return raw_evaluation(str(m.get("op", "")), ops, str(m.get("format", "")),
                                  str(m.get("rules", "")))
        except ValueError:
            return None

    def _describe_block(self, k: int) -> str:
        bm = self.blocks
        b = bm.block_at(k)
        n, bad = int(bm.count[b]), int(bm.bad[b])
        span = bm.elements_of(b)
        where = (f"rows {span[0].start}-{span[0].stop - 1} x columns {span[1].start}-"
                 f"{span[1].stop - 1}" if isinstance(span, tuple) else
                 f"elements {span.start:,}-{span.stop - 1:,}")
        if n == 0:
            return f"{where}: not computed yet"
        text = f"{where}: {n:,} elements, {bad:,} non-conformant"
        w = bm.worst_element(COMPARES[self.compare][0], b)
        if w >= 0:
            ops = tuple(int(o[0]) for o in bm.domain.operands(w, w + 1)) + self.fixed_operands()
            z, _ = bm.values(COMPARES[self.compare][0])
            text += (f"; worst {COMPARES[self.compare][1]} (signed log2 {z.reshape(-1)[b]:.3g})"
                     f" at {'  '.join(self._operand_text(ops))} — click to inspect it")
        return text

    def _view_pos(self, scene_pos):
        if not self.plot.vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.plot.vb.mapSceneToView(scene_pos)
        return p.x(), p.y()

    def _on_move(self, scene_pos) -> None:
        pos = self._view_pos(scene_pos)
        k = -1 if pos is None else self.index_at(*pos)
        self.hovered.emit(k)
        if k >= 0 and self.blocks is not None:
            self.info.setText(self.describe(k))

    def _on_click(self, event) -> None:
        if event.button() != Qt.LeftButton:
            return
        pos = self._view_pos(event.scenePos())
        if pos is not None:
            self.request_inspect(self.index_at(*pos))

    def fixed_operands(self) -> tuple[int, ...]:
        """Operands held constant over the sweep (C of mad), from ``meta["fixed"]``."""
        fixed = self.meta.get("fixed") or {}
        return tuple(int(str(fixed[n]), 0) for n in ("c",) if n in fixed)

    def request_inspect(self, k: int) -> None:
        """Emit ``inspect_requested`` for element ``k`` (what a click does; the worst
        element of its block where a cell stands for several): the swept operands and
        any fixed ones (mad's C), so the inspector gets the whole input."""
        t = self.target(k)
        if t < 0:
            return
        m = self.meta
        ops = tuple(int(o[0]) for o in self._domain().operands(t, t + 1)) + self.fixed_operands()
        self.inspect_requested.emit(m.get("op", ""), m.get("format", ""), m.get("rules", ""),
                                    ops)
