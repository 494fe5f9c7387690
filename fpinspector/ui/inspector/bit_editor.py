"""Bit-field editor for one format: bit cells plus hex, decimal and sign/exponent/fraction fields."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from ...model.formats import FloatFormat, get_format
from .. import bridge
from ..framed_edit import FramedEdit
from ..qt_utils import HoverTip, set_text, set_tip, signals_blocked
from .bit_cells import BitCells, format_segments

__all__ = ["BitFieldEditor"]


def operand_grid(parent: QtWidgets.QWidget, title: QtWidgets.QLabel, cells: QtWidgets.QWidget,
                 fields: QtWidgets.QLayout, error: QtWidgets.QLabel) -> QtWidgets.QGridLayout:
    """The layout of an operand editor (float bits or an integer code, so both read alike):
    the operand's name beside its bits (a row of its own cost 16 px per operand), the
    fields under the bits, then the error line."""
    lay = QtWidgets.QGridLayout(parent)
    lay.setContentsMargins(2, 1, 2, 1)
    lay.setHorizontalSpacing(4)
    lay.setVerticalSpacing(1)
    title.setMinimumWidth(14)
    lay.addWidget(title, 0, 0, QtCore.Qt.AlignmentFlag.AlignVCenter)
    lay.addWidget(cells, 0, 1)
    lay.addLayout(fields, 1, 1)
    lay.addWidget(error, 2, 1)
    lay.setColumnStretch(1, 1)
    return lay


class BitFieldEditor(QtWidgets.QWidget):
    """Edits one bit pattern of a :class:`FloatFormat`; every field stays in sync both ways.

    Signals
    -------
    bits_changed(object) : a new pattern (int) from any of the editor's fields.
    edit_started(), edit_finished() : around a click-drag over the bit cells.
    error(str) : a field's text could not be read ("" when the error is cleared).
    """

    bits_changed = QtCore.Signal(object)
    edit_started = QtCore.Signal()
    edit_finished = QtCore.Signal()
    error = QtCore.Signal(str)

    def __init__(self, fmt: str | FloatFormat = "f32", title: str = "", parent=None,
                 show_steps: bool = True, room: str = "f32") -> None:
        """``room``: the editor is laid out at least as wide as for this format, so that
        switching to a narrower one moves nothing (see BitCells.reserve_room)."""
        super().__init__(parent)
        self._fmt = get_format(fmt)
        self._room = get_format(room)
        self._bits = 0
        self.title = QtWidgets.QLabel(f"<b>{title}</b>" if title else "")
        self.cells = BitCells(self._fmt.bits, format_segments(self._fmt))
        # framed apart from their text: new text (every click) repaints only the inside
        self.hex_box, self.dec_box, self.frac_box = FramedEdit(), FramedEdit(), FramedEdit()
        self.hex_edit, self.dec_edit = self.hex_box.edit, self.dec_box.edit
        self.frac_edit = self.frac_box.edit
        self.hex_edit.setToolTip("The pattern in hexadecimal; type a new one and press Enter.")
        self._dec_tip = ("The value as the shortest decimal that reads back to these bits "
                         "(an integer value in full). Type a number (decimal, hex float, inf, "
                         "nan) and press Enter: it is rounded to the nearest pattern of this "
                         "format.")
        self.dec_edit.setToolTip(self._dec_tip)
        HoverTip(self.dec_edit, self.dec_tip)  # (the exact expansion: when hovered)
        self.sign_box = QtWidgets.QCheckBox("−")
        self.sign_box.setToolTip("Sign bit (set = negative). f11 and f10 have no sign bit.")
        self.exp_spin = QtWidgets.QSpinBox()
        self.exp_spin.setToolTip("Biased exponent field (0 = zero/denormal, all ones = INF/NaN).")
        self.frac_edit.setToolTip("Fraction field in hexadecimal (the bits after the binary point).")
        self.down_btn = QtWidgets.QToolButton()
        self.down_btn.setText("◀")
        self.down_btn.setToolTip("Next down: step to the next pattern toward −∞ (Alt+Left)")
        self.up_btn = QtWidgets.QToolButton()
        self.up_btn.setText("▶")
        self.up_btn.setToolTip("Next up: step to the next pattern toward +∞ (Alt+Right)")
        self.error_label = QtWidgets.QLabel("")
        self.error_label.setObjectName("error")
        self.error_label.setStyleSheet("color: #c62828;")
        self._build(show_steps)
        self._connect()
        self.set_format(self._fmt)

    def _build(self, show_steps: bool) -> None:
        self.fields_row = row = QtWidgets.QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        # 3 px, not 4: beside the format picker (its widest name, e5m2, has four letters)
        # the row still fits the central area at 1280x720
        row.setSpacing(3)
        with signals_blocked(self.exp_spin):  # (the room's exponent range, measured once)
            self.exp_spin.setRange(0, self._room.exp_max)
        self._exp_room_w = max(52, self.exp_spin.sizeHint().width())
        for label, w, stretch in (("hex", self.hex_box, 3), ("value", self.dec_box, 5),
                                  ("", self.sign_box, 0), ("exp", self.exp_spin, 0),
                                  ("frac", self.frac_box, 2)):
            if label:  # the sign box says "−" itself
                lab = QtWidgets.QLabel(label)
                lab.setBuddy(w)
                row.addWidget(lab)
            row.addWidget(w, stretch)
        self.dec_box.setMinimumWidth(self.dec_edit.fontMetrics().horizontalAdvance("-1.1754944e-38") + 14)
        if show_steps:
            row.addWidget(self.down_btn)
            row.addWidget(self.up_btn)
        else:
            self.down_btn.hide()
            self.up_btn.hide()
        operand_grid(self, self.title, self.cells, row, self.error_label)
        self.title.setVisible(bool(self.title.text()))
        self.error_label.hide()

    def set_leading(self, widget: QtWidgets.QWidget) -> None:
        """Put ``widget`` (the inspector's format picker) beside the bits, where an
        operand's name goes."""
        lay = self.layout()
        self.title.hide()
        lay.addWidget(widget, 0, 0, QtCore.Qt.AlignmentFlag.AlignVCenter)

    def _connect(self) -> None:
        self.cells.bits_changed.connect(self._push)
        self.cells.edit_started.connect(self.edit_started)
        self.cells.edit_finished.connect(self.edit_finished)
        self.hex_edit.editingFinished.connect(self._push_hex)
        self.dec_edit.editingFinished.connect(self._push_decimal)
        self.sign_box.toggled.connect(lambda _=None: self._push_fields())
        self.exp_spin.valueChanged.connect(lambda _=None: self._push_fields())
        self.frac_edit.editingFinished.connect(self._push_fields)
        self.up_btn.clicked.connect(lambda: self._push(int(self._fmt.next_up(self._bits))))
        self.down_btn.clicked.connect(lambda: self._push(int(self._fmt.next_down(self._bits))))

    # -- model -> widget ------------------------------------------------------------
    @property
    def fmt(self) -> FloatFormat:
        return self._fmt

    def bits(self) -> int:
        return self._bits

    def set_format(self, fmt: str | FloatFormat, bits: int = 0) -> None:
        """Switch the editor to another format showing ``bits`` (the caller's new pattern:
        the fields are filled once, not with 0 and then again)."""
        self._fmt = get_format(fmt)
        self.cells.set_layout(self._fmt.bits, format_segments(self._fmt))
        self.cells.reserve_room(self._room.bits)
        fm = self.hex_edit.fontMetrics()  # every hex digit shows, never "x00800000"; room
        # for the reserved format's digits at least (a switch to fewer moves nothing)
        digits = (max(self._fmt.bits, self._room.bits) + 3) // 4
        frac_digits = (max(self._fmt.frac_bits, self._room.frac_bits) + 3) // 4
        self.hex_box.setMinimumWidth(fm.horizontalAdvance("0x" + "D" * digits) + 14)
        self.frac_box.setMinimumWidth(fm.horizontalAdvance("0x" + "D" * frac_digits) + 14)
        self.sign_box.setEnabled(self._fmt.signed)
        with signals_blocked(self.exp_spin):
            self.exp_spin.setRange(0, self._fmt.exp_max)
        # a fixed size: a new range (a new size hint) then asks no layout of the window
        hint = self.exp_spin.sizeHint()
        self.exp_spin.setFixedSize(max(self._exp_room_w, hint.width()), hint.height())
        self._bits = -1  # force a refresh
        self.set_bits(bits)

    def dec_tip(self) -> str:
        """The value field's tooltip as a hover shows it: the exact expansion of the
        pattern shown (the model's, worked out now), then the field's explanation. Why on
        hover: an operand click showed the expansion (hundreds of digits for a tiny value)
        in a tooltip nobody had asked for, on every edit."""
        if self._bits < 0:
            return self._dec_tip
        return f"{bridge.exact_tip(self._fmt.name, self._bits)}\n\n{self._dec_tip}"

    def set_bits(self, bits: int) -> None:
        """Show ``bits`` in every field without emitting (STYLE.md 5: no echo loops)."""
        bits = int(bits)
        if bits == self._bits:
            return
        self._bits = bits
        f = self._fmt
        s, e, m = (int(x) for x in f.fields(np.asarray(bits, dtype=f.dtype)))
        self.cells.set_bits(bits)
        with signals_blocked(self.hex_edit, self.dec_edit, self.sign_box, self.exp_spin, self.frac_edit):
            set_text(self.hex_edit, f"0x{bits:0{(f.bits + 3) // 4}X}")
            dec = bridge.value_text(f.name, bits)
            if self.dec_edit.text() != dec:
                self.dec_edit.setText(dec)
                self.dec_edit.setCursorPosition(0)
            set_tip(self.dec_edit, self._dec_tip)  # (never an earlier value's expansion)
            if self.sign_box.isChecked() != bool(s):
                self.sign_box.setChecked(bool(s))
            if self.exp_spin.value() != e:
                self.exp_spin.setValue(e)
            set_text(self.frac_edit, f"0x{m:0{(f.frac_bits + 3) // 4}X}")
        if self.error_label.text():
            self._set_error("")

    def set_diff_mask(self, mask: int) -> None:
        self.cells.set_diff_mask(mask)

    # -- widget -> model ------------------------------------------------------------
    def _push(self, bits: int) -> None:
        self.set_bits(bits)
        self.bits_changed.emit(int(bits))

    def _push_hex(self) -> None:
        text = self.hex_edit.text().strip().lower().replace("_", "").replace(" ", "")
        if text[:1] in ("-", "+"):  # a signed number is a value, not a pattern: -0 is 0x80000000
            try:
                value = bridge.encode_text(self._fmt.name, text)
            except ValueError as exc:
                return self._set_error(f"hex: {text!r} is neither a pattern nor a value: {exc}")
            if value != self._bits:
                self._push(value)
            else:
                self._bits = -1  # show the pattern the value stands for, not the typed text
                self.set_bits(value)
            return
        try:
            value = int(text.removeprefix("0x"), 16)
            if value >> self._fmt.bits:
                raise ValueError(f"0x{value:X} is wider than {self._fmt.bits} bits")
        except ValueError as exc:
            msg = str(exc) if "wider" in str(exc) else f"not a hex pattern: {text!r}"
            return self._set_error(f"hex: {msg}")
        if value != self._bits:
            self._push(value)

    def _push_decimal(self) -> None:
        text = self.dec_edit.text()
        if text == bridge.value_text(self._fmt.name, self._bits):
            return
        try:
            value = bridge.encode_text(self._fmt.name, text)
        except ValueError as exc:
            return self._set_error(f"value: {exc}")
        self._push(value)

    def _push_fields(self) -> None:
        try:
            frac = int(self.frac_edit.text().strip().lower().removeprefix("0x") or "0", 16)
            value = int(self._fmt.compose(int(self.sign_box.isChecked() and self._fmt.signed),
                                          self.exp_spin.value(), frac))
        except ValueError as exc:
            return self._set_error(f"fraction: {exc}")
        if value != self._bits:
            self._push(value)

    def _set_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setVisible(bool(message))
        self.error.emit(message)
