"""Live decode of the inspected value: class, fields, exact decimal, ULP, neighbours, other formats."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ...model.formats import FORMATS, get_format
from ...model.state import InspectorState, Snapshot
from .. import bridge
from ..hover_select import HoverSelectLabel
from ..qt_utils import DeferWhileUnseen, HoverTip, HoverTipAt, set_tip, widen_column
from ..steady_label import SteadyLabel

__all__ = ["ValuePanel"]

_ROWS = (
    ("class", "Class of the pattern (DEC-ZERO / DEC-DENORM / DEC-NORMAL / DEC-INF / DEC-NAN)."),
    ("sign", "Sign bit: 0 positive, 1 negative (f11/f10 have none)."),
    ("exponent", "Biased exponent field and the unbiased power of two it stands for."),
    ("fraction", "Fraction field: the bits after the binary point."),
    ("exact", "The exact value of the pattern, every digit (binary fractions end in decimal)."),
    ("shortest", "The shortest decimal that reads back to exactly these bits."),
    ("hex float", "C99 hexadecimal floating-point notation of the exact value."),
    ("ulp", "Unit in the last place at this value: the gap to the next pattern away from zero."),
    ("next up", "The next pattern toward +∞."),
    ("next down", "The next pattern toward −∞."),
)
#: Rows whose tooltip, once hovered, is the exact expansion of the pattern they show.
_EXACT_TIP_ROWS = ("shortest", "next up", "next down")


class ValuePanel(DeferWhileUnseen, QtWidgets.QWidget):
    """Read-only decode of one (format, bits) pair; :meth:`show_value` refreshes it, and a
    bound state's inspected value (:meth:`bind`) is shown as it changes."""

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        form = QtWidgets.QFormLayout()
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.labels: dict[str, QtWidgets.QLabel | QtWidgets.QLineEdit] = {}
        for key, tip in _ROWS:
            if key == "exact":  # hundreds of digits: a read-only line that scrolls and copies
                lab = QtWidgets.QLineEdit()
                lab.setReadOnly(True)
                lab.setFrame(False)
            else:
                lab = HoverSelectLabel()  # (copyable, cheap to update)
                lab.setWordWrap(True)
            lab.setToolTip(tip)
            name = QtWidgets.QLabel(key)
            name.setToolTip(tip)
            # a label's new text re-lays out the panel only when it needs another height
            form.addRow(name, SteadyLabel(lab) if isinstance(lab, QtWidgets.QLabel) else lab)
            self.labels[key] = lab
        # row -> the (format, pattern) whose exact expansion its tooltip shows when hovered
        self._exact_of: dict[str, tuple[str, int]] = {}
        for key in _EXACT_TIP_ROWS:
            HoverTip(self.labels[key],
                     lambda key=key: self.exact_tip(key) if key in self._exact_of else None)
        #: row -> the (format, pattern) its value cell shows; the cell's tooltip, its exact
        #: expansion, is worked out when hovered (:meth:`_fill_value_tip`)
        self._value_tips: dict[int, tuple[str, int]] = {}
        self.others = QtWidgets.QTableWidget(0, 4)
        self.others.setHorizontalHeaderLabels(["format", "bits (D3D conversion)", "value", "rules"])
        self.others.horizontalHeader().setStretchLastSection(True)
        self.others.verticalHeader().hide()
        self.others.verticalHeader().setDefaultSectionSize(22)
        self.others.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.others.setToolTip("How this value reads in each other format after the D3D "
                               "conversion (CONV-* rules), with the rules that fired.")
        HoverTipAt(self.others, self._fill_value_tip)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(form)
        lay.addWidget(QtWidgets.QLabel("<b>In the other formats</b> (D3D conversion)"))
        lay.addWidget(self.others, 1)
        if state is not None:
            self.bind(state)

    def bind(self, state: InspectorState) -> None:
        """Show ``state``'s inspected value from now on."""
        self.state = state
        state.connect(self._pull_value)
        self._pull_value(frozenset(Snapshot.__dataclass_fields__))

    def _pull_value(self, changed: frozenset) -> None:
        if {"fmt", "bits"} & changed and not self.defer(changed):
            s = self.state.snapshot
            self.show_value(s.fmt, s.bits, bridge.d3d_conversions(s.fmt, s.bits))

    pull = _pull_value

    def text(self, key: str) -> str:
        return self.labels[key].text()

    def show_value(self, fmt: str, bits: int,
                   converted: dict[str, tuple[int, list[str]]] | None = None) -> None:
        """Redraw for ``bits`` of format ``fmt`` (all numbers come from the model).

        ``converted``: format -> (pattern, fired rules) already computed by the caller.
        """
        f = get_format(fmt)
        info = bridge.describe(f.name, bits)  # (fields, class and neighbours: the model's)
        s, e, m = info.sign, info.exponent_biased, info.fraction
        L = self.labels
        L["class"].setText(info.class_name)
        L["sign"].setText(f"{s} ({'negative' if s else 'positive'})" if f.signed else "— (unsigned)")
        unb = (f"2^{e - f.bias}" if 0 < e < f.exp_max else
               f"2^{f.minexp} (denormal scale)" if e == 0 else "INF/NaN")
        L["exponent"].setText(f"{e} (0x{e:X}), unbiased {unb}")
        L["fraction"].setText(f"0x{m:X} = {m:0{f.frac_bits}b}b")
        if L["exact"].text() != info.exact:  # (a line edit repaints on any setText)
            L["exact"].setText(info.exact)
            L["exact"].setCursorPosition(0)
        L["shortest"].setText(bridge.value_text(f.name, bits))
        self._exact_later("shortest", f.name, bits)
        L["hex float"].setText(info.hex_float)
        L["ulp"].setText(repr(info.ulp))
        up, down = info.next_up, info.next_down
        w = (f.bits + 3) // 4
        L["next up"].setText(f"0x{up:0{w}X} = {bridge.value_text(f.name, up)}")
        self._exact_later("next up", f.name, up)
        L["next down"].setText(f"0x{down:0{w}X} = {bridge.value_text(f.name, down)}")
        self._exact_later("next down", f.name, down)
        self._show_others(f.name, bits, converted or {})

    def _exact_later(self, key: str, fmt: str, bits: int) -> None:
        """Row ``key`` shows pattern ``bits`` of ``fmt`` now: its tooltip becomes the exact
        expansion when it is hovered (:meth:`exact_tip`), not on every value. Why: the
        three expansions (hundreds of digits for a tiny value, and a hex float each) were
        a tenth of Decode's update per edit, for tooltips seldom read. A tooltip filled for
        an earlier pattern goes back to the row's explanation, so it never names another
        value."""
        lab = self.labels[key]
        if self._exact_of.get(key) == (fmt, bits):
            return
        self._exact_of[key] = (fmt, bits)
        set_tip(lab, dict(_ROWS)[key])

    def exact_tip(self, key: str) -> str:
        """The tooltip row ``key`` ("shortest", "next up", "next down") shows when hovered:
        the exact expansion of its pattern (the model's, worked out now)."""
        fmt, bits = self._exact_of[key]
        return bridge.exact_tip(fmt, bits)

    def _fill_value_tip(self, pos: QtCore.QPoint) -> None:
        """A hover over a value cell of "In the other formats": its tooltip, the exact
        expansion of its pattern, is worked out now (the model's; about 0.14 ms, mostly
        the hex float), then Qt shows it as the item's. Why on hover: a click showed about
        four new patterns there, each expansion worked out for a tooltip seldom read."""
        idx = self.others.indexAt(pos)
        item = self.others.item(idx.row(), idx.column()) if idx.isValid() else None
        shown = self._value_tips.get(idx.row()) if idx.column() == 2 else None
        if item is not None and shown is not None and not item.toolTip():
            item.setToolTip(bridge.exact_tip(*shown))

    def _show_others(self, src: str, bits: int, converted: dict) -> None:
        names = [n for n in FORMATS if n != src]
        self.others.setRowCount(len(names))
        for row, dst in enumerate(names):
            try:
                out, rules = converted.get(dst) or bridge.convert_with_rules(bits, src, dst)
                d = get_format(dst)
                cells = [dst, f"0x{out:0{(d.bits + 3) // 4}X}", bridge.value_text(dst, out),
                         ", ".join(rules)]
            except ValueError as exc:
                cells = [dst, "", "", str(exc)]
            for col, text in enumerate(cells):
                item = self.others.item(row, col)
                if item is None:  # items updated in place: a new item re-lays the table out
                    item = QtWidgets.QTableWidgetItem()
                    self.others.setItem(row, col, item)
                if item.text() == text and (col != 2 or not text):
                    continue  # (its tooltip is its text: both unchanged)
                if item.text() != text:
                    item.setText(text)
                    widen_column(self.others, col, text)
                if col == 2 and text:  # the exact expansion: when hovered
                    if self._value_tips.get(row) != (dst, out):
                        self._value_tips[row] = (dst, out)
                        item.setToolTip("")  # (never an earlier pattern's expansion)
                else:
                    if col == 2:
                        self._value_tips.pop(row, None)
                    item.setToolTip(text)

