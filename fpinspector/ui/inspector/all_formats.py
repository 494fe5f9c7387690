""""All formats" panel: the inspected value in f64, f32, f16, f11, f10 and as an R11G11B10 word.

Every row is a live bit-field editor holding the inspected value converted by the D3D rules
(``fpinspector.model.convert``, variant "d3d") with the rule IDs that fired. Editing a row
makes that format and pattern the inspected value: the panel only emits :attr:`picked`, the
controller writes the state (one update, so one undo step).
"""

from __future__ import annotations

from dataclasses import replace

from PySide6 import QtCore, QtGui, QtWidgets

from ...model.formats import FORMATS, get_format
from ...model.state import InspectorState, Snapshot
from .. import bridge
from ..framed_edit import FramedEdit
from ..hover_select import HoverSelectLabel
from ..qt_utils import HoverTip, is_seen, set_tip, signals_blocked
from ..steady_label import SteadyLabel
from .bit_cells import BitCells, Segment, format_segments, r11g11b10_segments

__all__ = ["AllFormatsPanel", "FormatRow", "WORD_ROW", "WORD_FIELDS", "word_value_text"]

#: Row key of the packed R11G11B10_FLOAT word.
WORD_ROW = "r11g11b10"
#: (channel, format, low bit, width) of the word's fields, R first (FMT-R11G11B10).
WORD_FIELDS = (("R", "f11", 0, 11), ("G", "f11", 11, 11), ("B", "f10", 22, 10))
#: The longest value text of each format (its shortest decimals): the value column shows
#: every character of it.
_WIDEST_VALUE = {"f64": "-2.2250738585072014e-308", "f32": "-1.17549435e-38",
                 "f16": "-6.1035156e-05", "f11": "6.1035156e-05", "f10": "6.1035156e-05",
                 WORD_ROW: "R and G 6.1035156e-05, B 6.1035156e-05"}
_CELL_W = 13  # px per bit: the same in every row so the rows read as one table
_ROW_GAP = 6  # px between formats in the two-line layout
#: grid rows of one format in the two-line layouts: cells, up to three lines, the gap
ROWS_PER_FORMAT = 5


def word_value_text(rg: str, b: str) -> str:
    """The packed word's value in words: the inspected value goes into all three channels
    (R and G as f11, B as f10), so "1.0 in R, G and B", or each where B's f10 holds it
    otherwise ("R and G 0.1000977, B 0.09997559")."""
    return f"{rg} in R, G and B" if rg == b else f"R and G {rg}, B {b}"


class _Cells(BitCells):
    """Bit cells without the segment-label row (the colours carry it): compact rows."""

    HEADER = 0
    FOOTER = 11

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt override)
        return QtCore.QSize(self._width * _CELL_W + 2, 18 + self.FOOTER)

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802
        return QtCore.QSize(self._width * 9 + 2, 17 + self.FOOTER)

    def line_width(self) -> int:
        """The least width of the cells on one line (the panel asks every row's cells)."""
        return self.minimumSizeHint().width()

    def least_width(self) -> int:
        """The least width of the cells wrapped where they can be: one line never wraps."""
        return self.line_width()


class _HighCells(_Cells):
    """The upper 32 bits of a 64-bit row: numbered 63..32."""

    NUMBER_BASE = 32


class _LowCells(_Cells):
    """The lower 32 bits of a 64-bit row. Beside the upper half its top number (31) is
    left out, as one row of 64 cells leaves it out: "32" just left of it ran into it."""

    joined = True

    def number_spans(self, fm: QtGui.QFontMetrics) -> list[tuple[int, float, float]]:
        spans = super().number_spans(fm)
        return [s for s in spans if s[0] != 31] if self.joined else spans


def _half_segments(segments, lo: int) -> list[Segment]:
    """``segments`` clipped to bits ``lo .. lo+31``, renumbered from 0."""
    out = []
    for s in segments:
        hi, low = min(s.hi, lo + 31), max(s.lo, lo)
        if hi >= low:
            out.append(replace(s, label="", hi=hi - lo, lo=low - lo))
    return out


class _SplitCells(QtWidgets.QWidget):
    """A 64-bit row's cells as two halves of 32 (bits 63-32, 31-0), side by side or, in a
    narrow dock, one above the other: the f64 row then needs the width of 32 cells, not 64
    (at 960x1050 All formats' ~470 px dock scrolled sideways by ~120 px for them).

    The same signals and pattern API as :class:`BitCells` (``bits_changed`` carries the
    whole 64-bit pattern); :meth:`parts` gives the two halves."""

    bits_changed = QtCore.Signal(object)
    edit_started = QtCore.Signal()
    edit_finished = QtCore.Signal()

    def __init__(self, segments, parent=None) -> None:
        super().__init__(parent)
        self.hi = _HighCells(32, _half_segments(segments, 32))
        self.lo = _LowCells(32, _half_segments(segments, 0))
        for half in (self.hi, self.lo):
            half.setMaximumWidth(32 * _CELL_W + 2)
            half.bits_changed.connect(self._emit)
            half.edit_started.connect(self.edit_started)
            half.edit_finished.connect(self.edit_finished)
        self._box = QtWidgets.QBoxLayout(QtWidgets.QBoxLayout.Direction.LeftToRight, self)
        self._box.setContentsMargins(0, 0, 0, 0)
        self._box.setSpacing(0)
        self._box.addWidget(self.hi)
        self._box.addWidget(self.lo)
        self._wrapped = False
        self._grab: _Cells | None = None  # the half a press went to (it has the drag)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                           QtWidgets.QSizePolicy.Policy.Fixed)

    def parts(self) -> list[_Cells]:
        return [self.hi, self.lo]

    def is_wrapped(self) -> bool:
        return self._wrapped

    def set_wrapped(self, wrapped: bool) -> None:
        """Halves one above the other (True) or side by side."""
        if wrapped == self._wrapped:
            return
        self._wrapped = wrapped
        self._box.setDirection(QtWidgets.QBoxLayout.Direction.TopToBottom if wrapped
                               else QtWidgets.QBoxLayout.Direction.LeftToRight)
        self.lo.joined = not wrapped
        self.lo._layers.clear()  # (its bit numbers change: draw them again)
        self.lo.update()
        self.setMaximumWidth(32 * _CELL_W + 2 if wrapped else 64 * _CELL_W + 4)
        self.updateGeometry()

    def line_width(self) -> int:
        """The least width of the 64 cells side by side."""
        return 2 * self.lo.minimumSizeHint().width()

    def least_width(self) -> int:
        """The least width of the halves one above the other."""
        return self.lo.minimumSizeHint().width()

    def bits(self) -> int:
        return (self.hi.bits() << 32) | self.lo.bits()

    def set_bits(self, bits: int) -> None:
        bits = int(bits)
        self.hi.set_bits(bits >> 32 & 0xFFFFFFFF)
        self.lo.set_bits(bits & 0xFFFFFFFF)

    def _emit(self, _half: int) -> None:
        self.bits_changed.emit(self.bits())

    # -- BitCells' geometry and mouse API, for the row as a whole ------------------------
    def _half(self, bit: int) -> _Cells:
        return self.hi if bit >= 32 else self.lo

    def cell_rect(self, bit: int) -> QtCore.QRectF:
        """Bit ``bit`` (0..63)'s cell in this widget's coordinates."""
        half = self._half(bit)
        return half.cell_rect(bit & 31).translated(QtCore.QPointF(half.pos()))

    def bit_at(self, pos: QtCore.QPointF) -> int | None:
        for base, half in ((32, self.hi), (0, self.lo)):
            if half.geometry().contains(pos.toPoint()):
                bit = half.bit_at(pos - QtCore.QPointF(half.pos()))
                return None if bit is None else base + bit
        return None

    def _forward(self, half: _Cells, event: QtGui.QMouseEvent) -> QtGui.QMouseEvent:
        return QtGui.QMouseEvent(event.type(), event.position() - QtCore.QPointF(half.pos()),
                                 event.globalPosition(), event.button(), event.buttons(),
                                 event.modifiers())

    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:  # noqa: N802 (Qt override)
        """A press on the gap between the halves or sent to the row as a whole (a
        synthetic click) goes to the half under it, which then has the drag."""
        bit = self.bit_at(event.position())
        if bit is None:
            return super().mousePressEvent(event)
        self._grab = self._half(bit)
        self._grab.mousePressEvent(self._forward(self._grab, event))

    def mouseMoveEvent(self, event: QtGui.QMouseEvent) -> None:  # noqa: N802
        if self._grab is not None:
            self._grab.mouseMoveEvent(self._forward(self._grab, event))

    def mouseReleaseEvent(self, event: QtGui.QMouseEvent) -> None:  # noqa: N802
        grab, self._grab = self._grab, None
        if grab is not None:
            grab.mouseReleaseEvent(self._forward(grab, event))


_MIDDLE_LEFT = QtCore.Qt.AlignmentFlag.AlignVCenter | QtCore.Qt.AlignmentFlag.AlignLeft


class FormatRow(QtCore.QObject):
    """One compact editor: name, bit cells, hex, value and the fired rules of the conversion;
    its widgets sit in one row of the panel's grid so the columns line up.

    Signals
    -------
    edited(object) : the row's new pattern (int) from a bit, the hex or the value field.
    edit_started(), edit_finished() : around a click-drag over the cells.
    """

    edited = QtCore.Signal(object)
    edit_started = QtCore.Signal()
    edit_finished = QtCore.Signal()
    error = QtCore.Signal(str)

    def __init__(self, key: str, width: int, segments, parent=None) -> None:
        super().__init__(parent)
        # widgets are reparented to the panel when placed in its grid
        self.key = key
        self.width_bits = width
        self._bits = -1
        self.shown = -1  # the pattern last set from the state (set_row)
        self.name = QtWidgets.QLabel(key)
        # a fixed size: underlining the inspected format's name then asks no new layout of
        # the panel (a label of variable size does on every change)
        self.name.setFixedSize(self.name.fontMetrics().horizontalAdvance("R11G11B10") + 12,
                               self.name.sizeHint().height())
        self.set_inspected(False)
        self.cells: _Cells | _SplitCells
        if width > 32:  # (f64) two halves that wrap in a narrow dock
            self.cells = _SplitCells(segments)
            self.cells.setMaximumWidth(width * _CELL_W + 4)
        else:
            self.cells = _Cells(width, [replace(s, label="") for s in segments])
            self.cells.setMaximumWidth(width * _CELL_W + 2)
        # framed apart from their text: new text (every click) repaints only the inside
        self.hex_box, self.value_box = FramedEdit(), FramedEdit()
        self.hex_edit, self.value_edit = self.hex_box.edit, self.value_box.edit
        fm = self.hex_edit.fontMetrics()  # every digit of the widest pattern shows
        self.hex_box.setFixedWidth(fm.horizontalAdvance("0x" + "D" * ((width + 3) // 4)) + 16)
        self.hex_edit.setToolTip("The pattern in hexadecimal; type one and press Enter to "
                                 "inspect it.")
        widest = _WIDEST_VALUE.get(key, "-1.17549435e-38")
        self.value_box.setMinimumWidth(self.value_edit.fontMetrics().horizontalAdvance(widest) + 14)
        self.value_tip = ""
        #: the (format, pattern) whose exact expansion the value field's tooltip shows when
        #: hovered (:meth:`exact_tip`); None: the tooltip stands as set (an error message)
        self._exact_of: tuple[str, int] | None = None
        HoverTip(self.value_edit, lambda: None if self._exact_of is None else self.exact_tip())
        self.rules = HoverSelectLabel()  # (copyable, cheap to update)
        # new rule text must not re-layout the panel on every edit (latency), and rule IDs
        # are never cut: they wrap onto a second line where the column is narrow. Two
        # lines (no taller than the bit cells) hold every usual list, so rule text that
        # wraps or not never moves the rows; a longer one gets its lines.
        self.rules.setWordWrap(True)
        self.rules.setAlignment(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter)
        self.rules_box = SteadyLabel(self.rules, 2)
        self.rules_box.setMinimumWidth(120)  # "CONV-F2F-RTZ," on a line: rule lists wrap
        self.cells.bits_changed.connect(self._emit)
        self.cells.edit_started.connect(self.edit_started)
        self.cells.edit_finished.connect(self.edit_finished)
        self.hex_edit.editingFinished.connect(self._push_hex)

    def set_inspected(self, yes: bool) -> None:
        """Bold name, underlined for the inspected format. Why a font, not rich text: a
        rich-text label lays its text out in its first paint and asks for a second one;
        only the font's weight and underline are set, so the name still follows the
        application's font (and a font is not a style sheet: palette changes apply)."""
        font = QtGui.QFont()
        font.setBold(True)
        font.setUnderline(yes)
        self.name.setFont(font)

    def widgets(self) -> tuple[QtWidgets.QWidget, ...]:
        return (self.name, self.cells, self.hex_box, self.value_box, self.rules_box)

    def place(self, grid: QtWidgets.QGridLayout, r: int, two_line: bool = False,
              narrow: int = 0) -> None:
        """Put the row's widgets into row ``r`` of ``grid`` (one line: name, cells, hex,
        value, rules), or, ``two_line``, the cells across grid row 5r, the rest under them
        and a gap below (a narrow dock: the f64 row's 64 cells need the whole width; the
        gap keeps each format's lines together). ``narrow`` where two lines do not fit
        either (the ~470 px dock of a 960 px screen): 1, the rules on a line of their own
        (and R11G11B10's long value too); 2, the value on one too."""
        for w in self.widgets():
            grid.removeWidget(w)
        if two_line:
            top = ROWS_PER_FORMAT * r
            grid.addWidget(self.cells, top, 0, 1, 4, QtCore.Qt.AlignmentFlag.AlignLeft)
            grid.addWidget(self.name, top + 1, 0, _MIDDLE_LEFT)
            grid.addWidget(self.hex_box, top + 1, 1)
            if narrow >= 2 or (narrow and self.key == WORD_ROW):  # a line each
                grid.addWidget(self.value_box, top + 2, 1, 1, 3)
                grid.addWidget(self.rules_box, top + 3, 1, 1, 3)
            elif self.key == WORD_ROW or narrow:  # three values: the value and rules
                # columns, and the rules on the line below
                grid.addWidget(self.value_box, top + 1, 2, 1, 2)
                grid.addWidget(self.rules_box, top + 2, 1, 1, 3)
            else:
                grid.addWidget(self.value_box, top + 1, 2)
                grid.addWidget(self.rules_box, top + 1, 3)
        else:
            grid.addWidget(self.name, r, 0, _MIDDLE_LEFT)
            grid.addWidget(self.cells, r, 1, QtCore.Qt.AlignmentFlag.AlignLeft)
            grid.addWidget(self.hex_box, r, 2)
            grid.addWidget(self.value_box, r, 3)
            grid.addWidget(self.rules_box, r, 4)

    def one_line_width(self) -> int:
        """The least width the row needs on one line."""
        return (self.name.minimumWidth() + self.cells.line_width()
                + self.hex_box.minimumWidth() + self.value_box.minimumWidth()
                + self.rules_box.minimumWidth() + 4 * 6)

    def bits(self) -> int:
        return self._bits

    def set_row(self, bits: int, value: str, rules: str, tip: str = "") -> None:
        """Show a pattern, its value text and rules without emitting (no echo loops)."""
        bits = int(bits)
        self._bits = self.shown = bits
        self.cells.set_bits(bits)
        hex_text = f"0x{bits:0{(self.width_bits + 3) // 4}X}"
        with signals_blocked(self.hex_edit, self.value_edit):  # unchanged text: no repaint (latency)
            if self.hex_edit.text() != hex_text:
                self.hex_edit.setText(hex_text)
            if self.hex_box.error:  # (re)colouring costs a palette change: only when needed
                self.hex_box.set_error(False)
            if self.value_edit.text() != value:
                self.value_edit.setText(value)
                self.value_edit.setCursorPosition(0)
                if self.key in FORMATS:  # the exact expansion one hover away
                    self._exact_later(bits)
        if self.rules.text() != rules:
            self.rules.setText(rules)
        set_tip(self.rules, tip or rules)

    def _exact_later(self, bits: int) -> None:
        """The value field shows ``bits`` now: its tooltip gets the exact expansion when it
        is hovered (:meth:`exact_tip`), not on every value. Why: five expansions (hundreds
        of digits for a tiny f64, and a hex float each) per edit were about a seventh of
        the panel's update, for tooltips seldom read. Until the hover the tooltip is the
        field's explanation, never an earlier value's expansion."""
        self._exact_of = (self.key, int(bits))
        set_tip(self.value_edit, self.value_tip)

    def exact_tip(self) -> str:
        """The value field's tooltip as a hover shows it: the exact expansion of the
        pattern shown (the model's, worked out now) and the field's explanation; the
        tooltip as set where it says something else (a typed text it could not read)."""
        if self._exact_of is None:
            return self.value_edit.toolTip()
        return f"{bridge.exact_tip(*self._exact_of)}\n\n{self.value_tip}"

    def set_value_tip(self, tip: str) -> None:
        """The value field's tooltip is ``tip`` until the next value (a hover keeps it)."""
        self._exact_of = None
        self.value_edit.setToolTip(tip)

    def _emit(self, bits: int) -> None:
        self._bits = int(bits)
        self.edited.emit(int(bits))

    def _push_hex(self) -> None:
        text = self.hex_edit.text().strip().lower().replace("_", "").removeprefix("0x")
        try:
            if text[:1] in ("-", "+"):  # "-0" is a value (a pattern has no sign)
                raise ValueError
            value = int(text, 16)
            if value >> self.width_bits:
                raise ValueError
        except ValueError:
            msg = f"not a {self.width_bits}-bit hex pattern: {text[:40]!r}"
            self.hex_box.set_error(True)
            self.hex_edit.setToolTip(msg)
            self.error.emit(f"{self.key}: {msg}")
            return
        if value != self._bits:
            self._emit(value)


class AllFormatsPanel(QtWidgets.QWidget):
    """The inspected value in every format at once, each row editable.

    Signals
    -------
    picked(str, object) : a row was edited: (format name, pattern) to inspect.
    error(str) : a row's typed text could not be read (for the status bar).
    edit_started(), edit_finished() : around a drag over any row's cells (one undo step).
    """

    picked = QtCore.Signal(str, object)
    error = QtCore.Signal(str)
    edit_started = QtCore.Signal()
    edit_finished = QtCore.Signal()

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.rows: dict[str, FormatRow] = {}
        self.grid = lay = QtWidgets.QGridLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setHorizontalSpacing(6)
        lay.setVerticalSpacing(1)
        self._two_line = False
        self._narrow = 0
        for name, f in FORMATS.items():
            row = FormatRow(name, f.bits, format_segments(f))
            row.value_tip = (f"The inspected value converted to {name} by the D3D rules; type "
                             "a number and press Enter to inspect it in this format.")
            row.value_edit.setToolTip(row.value_tip)
            row.value_edit.editingFinished.connect(lambda r=row: self._push_value(r))
            row.edited.connect(lambda b, n=name: self.picked.emit(n, int(b)))
            self._add(lay, row)
        word = FormatRow(WORD_ROW, 32, r11g11b10_segments())
        word.name.setText("R11G11B10")
        word.name.setToolTip("The inspected value written to all three channels of an "
                             "R11G11B10_FLOAT render target (FMT-R11G11B10): R and G are f11 "
                             "(bits 10-0, 21-11), B is f10 (bits 31-22).")
        word.cells.setToolTip(word.name.toolTip() + " Editing a field inspects that field "
                              "(f11 for R/G, f10 for B).")
        word.value_edit.setReadOnly(True)
        word.value_edit.setToolTip("The three fields' values: R, G (f11) and B (f10).")
        word.edited.connect(self._push_word)
        self._add(lay, word)
        self._set_stretch()
        self._src = ""
        self._src_bits = -1
        self._pending: tuple | None = None  # last value asked for while hidden
        if state is not None:
            self.bind(state)

    def bind(self, state: InspectorState) -> None:
        """Show ``state``'s inspected value; an edited row becomes the inspected value
        (a drag over the cells is one undo step)."""
        self.state = state
        self.picked.connect(lambda fmt, bits: state.update(fmt=fmt, bits=bits))
        self.edit_started.connect(state.begin_undo_group)
        self.edit_finished.connect(state.end_undo_group)
        state.connect(self._pull_value)
        self._pull_value(frozenset(Snapshot.__dataclass_fields__))

    def _pull_value(self, changed: frozenset) -> None:
        if {"fmt", "bits"} & changed:
            s = self.state.snapshot
            self.show_value(s.fmt, s.bits, bridge.d3d_conversions(s.fmt, s.bits))

    def showEvent(self, event: QtGui.QShowEvent) -> None:  # noqa: N802 (Qt override)
        """Why: updates are skipped while the dock is hidden; catch up when it shows."""
        super().showEvent(event)
        if self._pending is not None:
            self.show_value(*self._pending)

    def catch_up(self) -> None:
        """Show what arrived while the panel could not be seen."""
        if self._pending is not None and is_seen(self):
            self.show_value(*self._pending)

    def is_stale(self) -> bool:
        """True when a value arrived while hidden and the rows do not show it yet."""
        return self._pending is not None

    def _add(self, lay: QtWidgets.QGridLayout, row: FormatRow) -> None:
        row.error.connect(self.error)
        row.edit_started.connect(self.edit_started)
        row.edit_finished.connect(self.edit_finished)
        row.setParent(self)
        row.place(lay, len(self.rows))
        self.rows[row.key] = row

    def _set_stretch(self) -> None:
        """Spare width goes to the value and rules columns; spare height below the rows."""
        lay = self.grid
        for c in range(5):
            lay.setColumnStretch(c, 0)
        value, rules = (2, 3) if self._two_line else (3, 4)
        lay.setColumnStretch(value, 3)
        lay.setColumnStretch(rules, 2)
        for r in range(lay.rowCount()):
            lay.setRowStretch(r, 0)
            lay.setRowMinimumHeight(r, 0)
        if self._two_line:
            for i in range(len(self.rows)):
                lay.setRowMinimumHeight(ROWS_PER_FORMAT * i + ROWS_PER_FORMAT - 1, _ROW_GAP)
        lay.setRowStretch(ROWS_PER_FORMAT * len(self.rows) if self._two_line
                          else len(self.rows) + 1, 1)

    def one_line_width(self) -> int:
        """The width below which each format takes two lines."""
        return max(r.one_line_width() for r in self.rows.values()) + 8

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        width = event.size().width()
        two_line = width < self.one_line_width()
        # (two_line_width has the one-line layout's side margins, which two lines drop)
        narrow = 0 if width >= self.two_line_width() - 8 else \
            1 if width >= self.narrow_width() else 2
        self.set_two_line(two_line, narrow)
        for row in self.rows.values():  # the f64 cells in two lines of 32 where 64 do not fit
            if isinstance(row.cells, _SplitCells):
                row.cells.set_wrapped(two_line and width < row.cells.line_width())

    def set_two_line(self, two_line: bool, narrow: int = 0) -> None:
        """Lay the rows out on one line each or on two (cells, then hex/value/rules);
        ``narrow`` 1: the rules (and R11G11B10's value) on lines of their own too; 2: every
        value as well."""
        narrow = narrow if two_line else 0
        if (two_line, narrow) == (self._two_line, self._narrow):
            return
        self._two_line, self._narrow = two_line, narrow
        for i, row in enumerate(self.rows.values()):
            row.place(self.grid, i, two_line, narrow)
        # two lines (a narrow dock): no side margins, the f64 row's 64 cells have the
        # whole width (with them the panel was 8 px wider than its dock at 1280x720, and
        # scrolled sideways)
        self.grid.setContentsMargins(0 if two_line else 4, 2, 0 if two_line else 4, 2)
        self._set_stretch()

    def two_line_width(self) -> int:
        """The least width of the two-line layout: the f64 row's 64 cells, or the line of
        name, hex, value and rules under the cells (R11G11B10's value spans two columns)."""
        rows = [r for r in self.rows.values() if r.key != WORD_ROW]
        cells = max(r.cells.line_width() for r in self.rows.values())
        fields = (max(r.name.minimumSizeHint().width() for r in self.rows.values())
                  + max(r.hex_box.minimumWidth() for r in self.rows.values())
                  + max(r.value_box.minimumWidth() for r in rows)
                  + max(r.rules_box.minimumWidth() for r in rows) + 3 * 6)
        return max(cells, fields) + 8

    def narrow_width(self) -> int:
        """The least width of the first narrow layout: 32 cells, or name, hex and value
        (every row's but R11G11B10's, whose value has a line of its own), or that value or
        the rules under name."""
        rows = [r for r in self.rows.values() if r.key != WORD_ROW]
        name = max(r.name.minimumSizeHint().width() for r in self.rows.values())
        hex_w = max(r.hex_box.minimumWidth() for r in self.rows.values())
        fields = name + hex_w + max(r.value_box.minimumWidth() for r in rows) + 2 * 6
        return max(fields, self.narrowest_width())

    def narrowest_width(self) -> int:
        """The least width of the second narrow layout: 32 cells, name and hex, or any
        value or rules under name."""
        every = list(self.rows.values())
        name = max(r.name.minimumSizeHint().width() for r in every)
        cells = max(r.cells.least_width() for r in every)
        under = max(max(r.value_box.minimumWidth(), r.rules_box.minimumWidth()) for r in every)
        return max(cells, name + 6 + max(r.hex_box.minimumWidth() for r in every),
                   name + 6 + under)

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt override)
        """As narrow as the narrowest layout allows (no field runs into the next)."""
        hint = super().minimumSizeHint()
        return QtCore.QSize(min(hint.width(), self.narrowest_width()), hint.height())

    # -- state -> rows --------------------------------------------------------------
    def show_value(self, src: str, bits: int,
                   converted: dict[str, tuple[int, list[str]]] | None = None) -> None:
        """Show (src, bits) in every format by the D3D conversion.

        ``converted`` maps format -> (pattern, fired rule IDs) when the caller already has
        them (the decode panel asks the same question); missing ones are converted here.
        """
        src, bits = get_format(src).name, int(bits)
        top = self.window()
        if (top is not self and not self.isVisibleTo(top)) or not is_seen(self):
            self._pending = (src, bits, converted)  # dock hidden or behind a tab: redo on show
            return
        self._pending = None
        conv = dict(converted or {})
        for name, row in self.rows.items():
            if name == WORD_ROW:
                continue
            if src != self._src:
                row.set_inspected(name == src)
            if name == src:
                row.set_row(bits, bridge.value_text(name, bits), "inspected value",
                            f"The inspected {name} pattern itself.")
                continue
            try:
                out, rules = conv[name] if name in conv else bridge.convert_with_rules(
                    bits, src, name)
            except ValueError as exc:
                row.set_row(0, "—", "no conversion", str(exc))
                continue
            conv[name] = (out, rules)
            text = ", ".join(rules) or "exact (no rule fired)"
            row.set_row(out, bridge.value_text(name, out), text,
                        f"{src} → {name} by the D3D conversion rules: " + text)
        self._src, self._src_bits = src, bits
        self._show_word(src, bits, conv)

    def _show_word(self, src: str, bits: int, conv: dict) -> None:
        row = self.rows[WORD_ROW]
        # each field's (pattern, fired rules), by WORD_FIELDS: the inspected value itself
        # where it is of the field's format, else its conversion
        fields = {fmt: (bits, []) if fmt == src else conv.get(fmt)
                  for _, fmt, _, _ in WORD_FIELDS}
        failed = [fmt for fmt, got in fields.items() if got is None]
        if failed:
            row.set_row(0, "—", "", f"no word: the conversion into {'/'.join(failed)} failed")
            return
        # each field's pattern at its bits (WORD_FIELDS, FMT-R11G11B10), in Python ints as
        # word_field reads them back: numpy's packer on three scalars was ~0.1 ms an edit
        word = sum(int(fields[fmt][0]) << lo for _, fmt, lo, _ in WORD_FIELDS)
        rules = sorted(set().union(*(r for _, r in fields.values())))
        text = ", ".join(rules) or ("inspected value" if src in fields else "exact")
        (_, rg, _, _), (_, b, _, _) = WORD_FIELDS[0], WORD_FIELDS[-1]
        row.set_row(word, word_value_text(bridge.value_text(rg, fields[rg][0]),
                                          bridge.value_text(b, fields[b][0])), text,
                    "R, G: " + (", ".join(fields[rg][1]) or "none") + "; B: "
                    + (", ".join(fields[b][1]) or "none"))

    # -- rows -> state --------------------------------------------------------------
    def _push_value(self, row: FormatRow) -> None:
        text = row.value_edit.text()
        if text == bridge.value_text(row.key, row.bits()):
            return
        try:
            bits = bridge.encode_text(row.key, text)
        except ValueError as exc:
            row.set_value_tip(f"cannot read {text[:60]!r}: {exc}")
            row.value_box.set_error(True)
            self.error.emit(f"{row.key}: {exc}")
            return
        if row.value_box.error:
            row.value_box.set_error(False)
        self.picked.emit(row.key, int(bits))

    def _push_word(self, word: int) -> None:
        """An edited word inspects the field that changed (R first when several did)."""
        prev = self.rows[WORD_ROW].shown
        for _ch, fmt, lo, width in WORD_FIELDS:
            mask = ((1 << width) - 1) << lo
            if (word ^ prev) & mask:
                self.picked.emit(fmt, (word & mask) >> lo)
                return

    def word_field(self, channel: str) -> int:
        """The pattern in field ``channel`` ("R", "G" or "B") of the word row."""
        w = self.rows[WORD_ROW].bits()
        for ch, _fmt, lo, width in WORD_FIELDS:
            if ch == channel:
                return (w >> lo) & ((1 << width) - 1)
        raise ValueError(f"no channel {channel!r}; choose R, G or B")
