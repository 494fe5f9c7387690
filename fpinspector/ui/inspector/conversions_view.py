"""Conversions view: one value through every format and every encoder variant, side by side,
plus the local GPU's render-target conversion, differing bits highlighted, rounding anatomy."""

from __future__ import annotations

import functools
import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from ...model.convert import VARIANTS
from ...model.describe.decimal_text import POSITIONAL_EXPONENTS
from ...model.formats import FORMATS, get_format
from ...model.state import InspectorState, Snapshot
from .. import bridge, palette
from ..qt_utils import DeferWhileUnseen, HoverTipAt, turn_splitter, widen_column
from ..steady_label import SteadyLabel

__all__ = ["ConversionsView", "GPU_ROW"]

GPU_ROW = "this GPU (render target)"
#: The GPU row's header (short: the header column's width is taken from the table's); its
#: tooltip says how the GPU was reached (the render target route).
GPU_ROW_LABEL = "this GPU"


@functools.cache
def widest_texts(fmt: str) -> tuple[str, ...]:
    """Texts at least as wide as any cell of format ``fmt`` can be (its pattern over its
    shortest decimal), from the format's record: every hex digit of the pattern, and the
    decimal's longest shapes with ``d`` significant digits, as many as a round trip needs
    (ceil(1 + p log10 2)), in 8s: scientific with the exponent's digits, positional from
    1e-4 ("-0.000" and d digits) and from 1e-5 (one digit fewer where such values are
    subnormal: f16's "-0.00001013"), and the longest integer written positionally (the
    model's notation rule, decimal_text.POSITIONAL_EXPONENTS). A test checks every
    f16/f11/f10 pattern and f32/f64 samples against them."""
    f = FORMATS[fmt]
    digits = math.ceil(1 + (f.frac_bits + 1) * math.log10(2))
    exp_digits = max(2, len(str(math.ceil(-math.log10(f.smallest_subnormal)))))
    sign = "-" if f.signed else ""
    return ("0x" + "8" * ((f.bits + 3) // 4),
            sign + "8." + "8" * (digits - 1) + "e+" + "8" * exp_digits,
            sign + "0.000" + "8" * digits,
            sign + "0.0000" + "8" * (digits - (f.smallest_normal > 1e-5)),
            sign + "8" * digits + ".0") + _widest_integer(f)


def _widest_integer(f) -> tuple[str, ...]:  # noqa: ANN001 - a FloatFormat
    """The longest integer the model writes positionally in this format (exactly: f32
    -1960108451954688.0): as many digits as its largest value has, below 1e16."""
    below = 10 ** POSITIONAL_EXPONENTS.stop
    digits = len(str(int(min(f.max, below - 1))))
    return ("-" if f.signed else "") + "8" * digits + ".0",


def _variants() -> dict[str, str]:
    """Variant name -> whose behaviour it reproduces (from the conversion model)."""
    return {name: v.source or v.doc for name, v in VARIANTS.items()}


class ConversionsView(DeferWhileUnseen, QtWidgets.QWidget):
    """Rows: encoder variants (+ the GPU); columns: target formats. Cells that differ from the
    D3D row are highlighted; selecting a cell shows its rounding anatomy."""

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.variants = _variants()
        self.table = QtWidgets.QTableWidget()
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setToolTip("Each cell: the converted pattern and its value. Highlighted cells "
                              "differ from the D3D rule (row d3d). Click a cell for its rounding "
                              "anatomy.")
        self.anatomy = QtWidgets.QPlainTextEdit()
        self.anatomy.setReadOnly(True)
        self.anatomy.setUndoRedoEnabled(False)  # (read-only: nothing to undo)
        # two lines a cell, the pattern over its value: on one line the f64 column alone
        # took half a 600 px dock and f10 was behind horizontal scrolling (1280x720)
        self.table.verticalHeader().setDefaultSectionSize(
            2 * self.table.fontMetrics().lineSpacing() + 8)
        # columns as wide as their text (widen_column), not Qt's 100 px each: f10 was
        # behind side scrolling in a 470 px dock (960x1050)
        self.table.horizontalHeader().setDefaultSectionSize(
            self.table.fontMetrics().horizontalAdvance("f64") + 24)
        self.anatomy.setToolTip("Rounding anatomy: exact input, the two neighbouring patterns, "
                                "guard/round/sticky bits and why this direction was taken.")
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)
        self._split = split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        left = QtWidgets.QWidget()
        ll = QtWidgets.QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.table, 1)
        # two lines kept for the note: the GPU route of an f32 value takes one, of any
        # other format two, and a note that changed height moved the table and repainted
        # the whole view on every format switch
        ll.addWidget(SteadyLabel(self.note, min_lines=2))
        split.addWidget(left)
        split.addWidget(self.anatomy)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(split)
        self.table.currentCellChanged.connect(lambda r, c, *_: self._show_anatomy(r, c))
        self._rows_fitted = False  # (under each other, the split is fitted once shown)
        self._columns_length = 0  # the columns' width when the split was last fitted
        self._src = "f32"
        self._bits = 0
        self._targets: list[str] = []
        self._rows: list[str] = []
        self._d3d: dict[str, int] = {}
        self._lazy: dict[tuple[int, int], tuple[str, object]] = {}  # (row, col) -> tip
        self._marks: dict[tuple[int, int], tuple[bool, str]] = {}  # (row, col) -> shading
        # (row, col) -> what the cell's text was made from ((format, pattern), or the text)
        # and its tooltip text (None: a lazy one); see :meth:`_set`
        self._shown: dict[tuple[int, int], tuple[object, str | None]] = {}
        self._gpu_shown: tuple | None = None  # the last GPU row asked for
        self._floors: dict[tuple[str, str], list[int]] = {}  # (font, source) -> floors
        self._floor_px: dict[tuple[str, str], int] = {}  # (font, format) -> its floor
        self._fit: list[int] = []  # this update's column floors
        HoverTipAt(self.table, self._lazy_tip_at)
        if state is not None:
            self.bind(state)

    #: Below this width the anatomy goes under the table (a narrow dock: beside it, at
    #: 1280x720, the table showed one column of four)
    SIDE_BY_SIDE_FROM = 900

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if turn_splitter(self._split, event.size().width(), self.SIDE_BY_SIDE_FROM):
            self._rows_fitted = False
            self._size_columns()
        if self._split.orientation() == QtCore.Qt.Orientation.Vertical and not self._rows_fitted:
            QtCore.QTimer.singleShot(0, self, self._fit_table_rows)  # (once it is laid out)
        elif self._split.orientation() == QtCore.Qt.Orientation.Horizontal:
            QtCore.QTimer.singleShot(0, self, self._fit_table_width)

    #: What the anatomy keeps beside the table at least (its lines wrap below it).
    ANATOMY_MIN = 260

    def _side_by_side(self) -> bool:
        return self._split.orientation() == QtCore.Qt.Orientation.Horizontal

    def _column_floor(self, dst: str) -> int:
        """Side by side, a column is from the start as wide as any value of ``dst`` can
        need: a value never widens it, so the table and the anatomy never move (it did,
        once, the first time a value needed a wider column)."""
        key = (self.table.font().key(), dst)
        floor = self._floor_px.get(key)
        if floor is None:  # (measured once per font: a source switch asked it each time,
            fm = self.table.fontMetrics()  # 24 texts measured per switch)
            floor = self._floor_px[key] = max(fm.horizontalAdvance(t)
                                              for t in widest_texts(dst)) + 14
        return floor

    def _fit_bounds(self) -> None:
        """Each column's floor in the table's font, for this update's cells (:meth:`_widen`;
        measured once per font and source format)."""
        key = (self.table.font().key(), self._src)
        floors = self._floors.get(key)
        if floors is None:
            floors = self._floors[key] = [self._column_floor(dst) for dst in self._targets]
        self._fit = floors

    def _widen(self, c: int, text: str) -> None:
        """A cell of column ``c`` shows ``text`` now: widen the column where it may not
        hold it. Not measured where the column is as wide as its floor (side by side
        always): no value of the format is wider (widest_texts), and measuring each new
        text was a tenth of the view's update."""
        if self.table.columnWidth(c) < self._fit[c]:
            widen_column(self.table, c, text)

    def _size_columns(self, grow_only: bool = False) -> None:
        """Each column's width: side by side its floor (what any value needs); under each
        other (a narrow dock, where the widest values would put f10 behind side scrolling)
        what the header and the texts shown need, growing as values do (widen_column).
        ``grow_only``: for new columns (a source switch), which never narrow: a column
        that narrowed on each switch was laid out and painted twice."""
        if not self._targets:
            return
        t = self.table
        fm = t.fontMetrics()
        for c, dst in enumerate(self._targets):
            if self._side_by_side():
                need = self._column_floor(dst)  # (the texts shown are within it)
            else:
                need = fm.horizontalAdvance(dst) + 24
                for r in range(t.rowCount()):
                    item = t.item(r, c)
                    if item is not None and item.text():
                        need = max(need, max(fm.horizontalAdvance(line)
                                             for line in item.text().split("\n")) + 14)
            if t.columnWidth(c) != need and not (grow_only and need < t.columnWidth(c)):
                t.setColumnWidth(c, need)

    def _table_width_need(self) -> int:
        t = self.table
        return (t.verticalHeader().width() + t.horizontalHeader().length()
                + t.verticalScrollBar().sizeHint().width() + 2 * t.frameWidth())

    def _fit_table_width(self, grow_only: bool = False) -> None:
        """Side by side: the table as wide as its columns, the anatomy the rest (down to
        ANATOMY_MIN). Why: at 3:2 the table had ~160 px of nothing right of its last
        column while the anatomy wrapped every line. ``grow_only``: after a value widened
        a column (no shrinking back as values change: nothing jumps on an edit)."""
        if self._split.orientation() != QtCore.Qt.Orientation.Horizontal or not self.isVisible():
            return
        sizes = self._split.sizes()
        total = sum(sizes)
        need = min(self._table_width_need(), total - self.ANATOMY_MIN - self._split.handleWidth())
        if need <= 0 or (grow_only and need <= sizes[0]) or abs(need - sizes[0]) <= 2:
            return
        self._split.setSizes([need, total - need])

    def _fit_table_rows(self) -> None:
        """Under each other: the table as high as its rows, the anatomy the rest."""
        t = self.table
        need = (t.horizontalHeader().height() + t.verticalHeader().length()
                + t.horizontalScrollBar().sizeHint().height() + 2 * t.frameWidth()
                + self.note.sizeHint().height() * 2)
        total = sum(self._split.sizes())
        if (self._split.orientation() == QtCore.Qt.Orientation.Vertical and total > need
                and self.isVisible() and not self._rows_fitted):
            self._split.setSizes([need, total - need])
            self._rows_fitted = True

    def cell_text(self, variant: str, dst: str) -> str:
        item = self.table.item(self._rows.index(variant), self._targets.index(dst))
        return item.text() if item else ""

    def is_highlighted(self, variant: str, dst: str) -> bool:
        item = self.table.item(self._rows.index(variant), self._targets.index(dst))
        return bool(item and item.data(QtCore.Qt.ItemDataRole.UserRole + 1))

    def select(self, variant: str, dst: str) -> None:
        """Select a cell (its rounding anatomy is shown)."""
        self.table.setCurrentCell(self._rows.index(variant), self._targets.index(dst))

    def bind(self, state: InspectorState) -> None:
        """Convert ``state``'s inspected value from now on (the GPU row comes from the
        window's GPU adapter, :meth:`show_gpu`)."""
        self.state = state
        state.connect(self._pull_value)
        self._pull_value(frozenset(Snapshot.__dataclass_fields__))

    def _pull_value(self, changed: frozenset) -> None:
        """A new value: the model's rows (the window's GPU adapter follows with the GPU
        row of the same value, waiting or filled)."""
        if {"fmt", "bits"} & changed and not self.defer(changed):
            s = self.state.snapshot
            self.show_value(s.fmt, s.bits)

    def pull(self, changed: frozenset) -> None:
        """Catch up after being unseen: the model's rows, then the last GPU row it was
        given meanwhile (kept, not shown, while the view could not be seen)."""
        self._pull_value(changed)
        if {"fmt", "bits"} & changed and self._gpu_shown is not None:
            self.show_gpu(*self._gpu_shown)

    def show_value(self, src: str, bits: int) -> None:
        """Convert (src, bits) into every other format by every variant (the model does it)."""
        new_src = get_format(src).name
        self._src, self._bits = new_src, int(bits)
        # the formats D3D converts into, for which the vendor encoders are written (bf16 and
        # FP8 have d3d and ieee only: the All formats rows show those; the modes, the CLI)
        targets = [n for n in FORMATS if n != self._src and FORMATS[n].d3d_conversion]
        if not self._rows:  # the rows (variants) never change
            self._rows = list(self.variants) + [GPU_ROW]
            self.table.setRowCount(len(self._rows))
            self.table.setColumnCount(len(targets))
            self.table.setVerticalHeaderLabels(self._rows[:-1] + [GPU_ROW_LABEL])
            for r, name in enumerate(self._rows[:-1]):
                self.table.verticalHeaderItem(r).setToolTip(self.variants[name])
            self.table.setHorizontalHeaderLabels(targets)
        elif len(targets) != self.table.columnCount():  # a source D3D does not convert
            self._shown.clear()  # (the items of a removed column are gone)
            self.table.setColumnCount(len(targets))  # into (bf16, FP8): one column more
            self.table.setHorizontalHeaderLabels(targets)
            self._lay_out_headers_now()
        elif targets != self._targets:  # the columns' names, in place (new header items
            for c, name in enumerate(targets):  # re-lay out and repaint both headers)
                self.table.horizontalHeaderItem(c).setText(name)
            self._lay_out_headers_now()
        new_columns = targets != self._targets
        self._targets = targets
        if new_columns and self._side_by_side():
            self._size_columns(grow_only=True)  # (the new columns' floors, before any text)
        self._d3d = {}
        self._fit_bounds()
        shade = palette.colors().diff  # (once per update: it follows a palette switch too)
        d3d = bridge.d3d_conversions(self._src, self._bits)  # shared with the other panels
        for r, var in enumerate(self._rows[:-1]):
            for c, dst in enumerate(self._targets):
                try:
                    if var == "d3d" and dst in d3d:
                        out, rules = d3d[dst]
                    else:
                        out, rules = bridge.convert_lazy(self._bits, self._src, dst, var)
                except ValueError as exc:
                    self._set(r, c, "—", str(exc), None, shade=shade)
                    continue
                if var == "d3d":
                    self._d3d[dst] = out
                self._set(r, c, None, rules, out, dst, shade=shade)
        self._show_anatomy(max(self.table.currentRow(), 0), max(self.table.currentColumn(), 0))
        self._columns_widened()

    def _columns_widened(self) -> None:
        """A column widened: under each other for a longer value; side by side (where no
        value widens one) for a source format whose columns are wider: the table takes
        the room it now needs (never less: nothing jumps back and forth on switches)."""
        if self.table.horizontalHeader().length() != self._columns_length:
            self._columns_length = self.table.horizontalHeader().length()
            self._fit_table_width(grow_only=True)

    def show_gpu(self, results: object, note: str, tips: dict[str, str] | None = None,
                 route: str = "") -> None:
        """Fill the GPU row from ``{dst: patterns or the reason there is none}``.

        ``note`` explains gaps, ``tips`` says per format how its cell was obtained and
        ``route`` (the row header's tooltip) how the hardware was reached (through f32).
        """
        self._gpu_shown = (results, note, tips, route)
        if not self._rows or self.is_stale():
            return
        r = len(self._rows) - 1
        res = results if isinstance(results, dict) else {}
        tips = tips or {}
        head = self.table.verticalHeaderItem(r)
        self._fit_bounds()
        shade = palette.colors().diff
        head_tip = route or note or "The local GPU's own conversion (render target)."
        if head is not None and head.toolTip() != head_tip:  # (a change re-lays the table out)
            head.setToolTip(head_tip)
            self._lay_out_headers_now()
        for c, dst in enumerate(self._targets):
            got = res.get(dst)
            tip = tips.get(dst, "")
            if isinstance(got, np.ndarray) and got.size:
                out = int(got.reshape(-1)[0])
                self._set(r, c, None, tip, out, dst, shade=shade)
            else:
                why = str(got) if got is not None else (tip or note)
                self._set(r, c, "—", why.removeprefix("—: "), None, shade=shade)
        if self.note.text() != (note or route):
            self.note.setText(note or route)
        self._columns_widened()

    def _lay_out_headers_now(self) -> None:
        """Lay the headers and the table out now, after a header item changed (a name, a
        tooltip): Qt does it on zero-timers that fire after the edit's repaint, and each
        asked for a second repaint of the table and both headers."""
        self.table.horizontalHeader().doItemsLayout()
        self.table.verticalHeader().doItemsLayout()
        self.table.doItemsLayout()

    def _fmt(self, dst: str, out: int) -> str:
        w = (FORMATS[dst].bits + 3) // 4
        return f"0x{out:0{w}X}\n{bridge.value_text(dst, out)}"

    def cell_tooltip(self, variant: str, dst: str) -> str:
        """The tooltip of a cell (fired rules computed now if they were left for the hover)."""
        r, c = self._rows.index(variant), self._targets.index(dst)
        lazy = self._lazy.get((r, c))
        if lazy is not None:
            return _tip_text(*lazy)
        item = self.table.item(r, c)
        return item.toolTip() if item else ""

    def _lazy_tip_at(self, pos: QtCore.QPoint) -> str | None:
        """Hover over a cell whose rules were not computed yet: compute them now (None:
        the cell's own tooltip stands)."""
        idx = self.table.indexAt(pos)
        lazy = self._lazy.get((idx.row(), idx.column()))
        return None if lazy is None else _tip_text(*lazy)

    def _set(self, r: int, c: int, text: str | None, tip, out: int | None, dst: str = "",
             *, shade: str) -> None:
        """``text``: the cell's text, None for ``out``'s in ``dst`` (pattern over value,
        made only when the cell showed another pattern); ``tip``: text, or a callable
        giving the fired rule IDs (asked only on hover); ``shade``: the colour of a cell
        that differs from d3d (the palette's).

        A cell that shows the same pattern, shading and tooltip as before is not touched
        (its lazy tip is swapped for the new value's: the same pattern can come from an
        input that fired other rules). Why: a bit click changes a few of the 28 cells, and
        making each cell's text and asking Qt for its item was most of the view's update.

        Plain items (no Python ``data()`` override: Qt asks every role of every cell on each
        paint and resize, which cost ~2 ms per edit); a lazy tip waits in ``_lazy``.
        """
        ref = self._d3d.get(dst)
        differs = out is not None and ref is not None and out != ref
        prefix = ""
        if differs:
            prefix = f"differs from d3d (0x{ref:X}) in {bin(out ^ ref).count('1')} bit(s). "
        cell = (r, c)
        source = (dst, out) if text is None else text
        lazy = callable(tip)
        tip_text = None if lazy else _tip_text(prefix, tip)
        shade = shade if differs else ""
        if (self._shown.get(cell) == (source, tip_text)
                and self._marks.get(cell) == (differs, shade)):
            if lazy:
                self._lazy[cell] = (prefix, tip)
            return
        item = self.table.item(r, c)
        fresh = item is None
        if fresh:
            item = QtWidgets.QTableWidgetItem()
            self._marks.pop(cell, None)  # (a column removed and added again: unshaded)
        R = QtCore.Qt.ItemDataRole  # updated in place: a new item re-lays the view out
        if text is None:
            text = self._fmt(dst, out) if out is not None else "—"
        if item.text() != text:
            item.setText(text)
            self._widen(c, text)
        if lazy:
            if cell not in self._lazy:  # (a lazy cell's item tip is None already)
                item.setData(R.ToolTipRole, None)
            self._lazy[cell] = (prefix, tip)
        else:
            self._lazy.pop(cell, None)
            item.setToolTip(tip_text)
        # the shading as last set (kept here: reading it back from the item took two Qt
        # calls per cell, 28 cells an edit)
        if self._marks.get(cell) != (differs, shade):
            self._marks[cell] = (differs, shade)
            if differs:
                item.setBackground(QtGui.QColor(shade).lighter(160))
                item.setForeground(QtGui.QColor("#000000"))
            else:
                item.setData(R.BackgroundRole, None)
                item.setData(R.ForegroundRole, None)
            item.setData(R.UserRole + 1, differs)
            item.setData(R.UserRole + 2, shade)
        if fresh:
            self.table.setItem(r, c, item)
        self._shown[cell] = (source, tip_text)

    def _conversion_at(self, row: int, col: int) -> tuple[str, str]:
        """(target format, variant) whose anatomy cell (row, col) shows (the GPU row: d3d's)."""
        var = self._rows[row] if self._rows[row] in self.variants else "d3d"
        return self._targets[col], var

    def anatomy_conversion(self) -> tuple[str, str] | None:
        """(target format, variant) of the anatomy shown: the selected cell's (the first
        cell's while none is selected); None before the first value."""
        if not self._targets or not self._rows:
            return None
        row, col = max(self.table.currentRow(), 0), max(self.table.currentColumn(), 0)
        if not (col < len(self._targets) and row < len(self._rows)):
            return None
        return self._conversion_at(row, col)

    def _show_anatomy(self, row: int, col: int) -> None:
        if not (0 <= col < len(self._targets)) or not (0 <= row < len(self._rows)):
            return
        dst, var = self._conversion_at(row, col)
        # (kept per value and worked out ahead for the neighbours: NeighbourPrefetch)
        replace_lines(self.anatomy.document(), bridge.anatomy_text(self._bits, self._src, dst, var))
        # a new anatomy is read from its first line, with nothing of the old one selected
        cursor = self.anatomy.textCursor()
        if cursor.hasSelection() or cursor.position():
            cursor.setPosition(0)
            self.anatomy.setTextCursor(cursor)
        self.anatomy.verticalScrollBar().setValue(0)
        # the view fits its scroll bar to the new lines on a queued call, which came after
        # the edit's paint and asked for a second paint pass (of the scroll bar): now
        QtCore.QCoreApplication.sendPostedEvents(self.anatomy, QtCore.QEvent.Type.MetaCall)


def replace_lines(doc: QtGui.QTextDocument, text: str) -> None:
    """Make ``doc``'s plain text ``text``, rewriting only the lines that differ.

    Why: an anatomy of the next value has the same lines, most of them unchanged; the
    document's ``setPlainText`` emptied and refilled it, so its view repainted every line
    and its scroll bar (whose range went to nothing and back: ~0.9 ms of Fusion drawing, a
    fifth of an inspector click's paint), and a queued relayout asked for a second paint
    pass. Line by line in one edit block, the view repaints the lines that changed, and
    the scroll bar only when the number of lines (its range) does. A different number of
    lines is set whole (the document's own ``setPlainText``: the view's goes through its
    text control, twice the time)."""
    lines = text.split("\n")
    if doc.isEmpty() or doc.blockCount() != len(lines):
        doc.setPlainText(text)
        return
    cursor: QtGui.QTextCursor | None = None
    changed = []
    for n, line in enumerate(lines):
        block = doc.findBlockByNumber(n)
        if block.text() == line:
            continue
        if cursor is None:
            cursor = QtGui.QTextCursor(doc)
            cursor.beginEditBlock()
        start = block.position()
        cursor.setPosition(start)
        cursor.setPosition(start + block.length() - 1, QtGui.QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(line)
        changed.append(n)
    if cursor is not None:
        cursor.endEditBlock()
    # the changed lines wrapped now, not in the view's paint: a line that wraps over more
    # (or fewer) rows than before changes the scroll bar's range, which the view then
    # fitted on a queued call after that paint, a second paint pass
    layout = doc.documentLayout()
    for n in changed:
        layout.blockBoundingRect(doc.findBlockByNumber(n))


def _tip_text(prefix: str, tip) -> str:
    """A cell's tooltip: the difference note, then the text or the fired rules."""
    tip = tip() if callable(tip) else tip
    if isinstance(tip, list):
        tip = "rules: " + (", ".join(tip) or "none")
    return prefix + str(tip)

