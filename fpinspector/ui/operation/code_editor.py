"""Operand editor for integer code types (i32, u32, unorm8, snorm8, ...): one bit run, hex, integer.

itof, utof and the from_unorm/snorm/srgb ops take integer codes, not float patterns, so
their operands have no sign/exponent/fraction split: one segment of ``bits`` cells (for a
signed type the top bit labelled as the two's-complement sign), a hex field and an integer
field (signed for i32/snorm).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ...model.parse.codes import code_type, parse_code
from ..inspector.bit_cells import BitCells, Segment
from ..inspector.bit_editor import operand_grid
from ..qt_utils import signals_blocked

__all__ = ["CodeEditor", "code_segments"]


def code_segments(fmt: str) -> tuple[int, list[Segment]]:
    """(width, segments) of a code type: one run, the sign bit apart when it is signed."""
    t = code_type(fmt)
    name, width = t.name, t.bits
    if t.signed:
        return width, [Segment("±", "sign", width - 1, width - 1),
                       Segment(f"{name} (two's complement)", "frac", width - 2, 0)]
    return width, [Segment(name, "frac", width - 1, 0)]


class CodeEditor(QtWidgets.QWidget):
    """Edits one integer code; the cells, hex and integer fields stay in sync both ways.

    Signals
    -------
    bits_changed(object) : the new pattern (int, ``width`` bits).
    edit_started(), edit_finished() : around a click-drag over the bit cells.
    error(str) : a field's text could not be read ("" when cleared).
    """

    bits_changed = QtCore.Signal(object)
    edit_started = QtCore.Signal()
    edit_finished = QtCore.Signal()
    error = QtCore.Signal(str)

    def __init__(self, fmt: str = "i32", title: str = "", parent=None) -> None:
        super().__init__(parent)
        self._fmt = code_type(fmt).name
        self._bits = -1
        self.title = QtWidgets.QLabel(f"<b>{title}</b>" if title else "")
        self.cells = BitCells(*code_segments(self._fmt))
        self.hex_edit = QtWidgets.QLineEdit()
        self.hex_edit.setToolTip("The code's pattern in hexadecimal; type one and press Enter.")
        self.int_edit = QtWidgets.QLineEdit()
        self.int_edit.setToolTip("The code as an integer (signed for i32/snorm); type a decimal "
                                 "integer or a 0x pattern and press Enter.")
        self.error_label = QtWidgets.QLabel("")
        self.error_label.setStyleSheet("color: #c62828;")
        row = QtWidgets.QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        self.int_label = QtWidgets.QLabel("integer")
        for lab, w in ((QtWidgets.QLabel("hex"), self.hex_edit), (self.int_label, self.int_edit)):
            lab.setBuddy(w)
            row.addWidget(lab)
            row.addWidget(w, 2)
        operand_grid(self, self.title, self.cells, row, self.error_label)  # as a float reads
        self.error_label.hide()
        self.cells.bits_changed.connect(self._push)
        self.cells.edit_started.connect(self.edit_started)
        self.cells.edit_finished.connect(self.edit_finished)
        self.hex_edit.editingFinished.connect(lambda: self._push_text(self.hex_edit, "hex"))
        self.int_edit.editingFinished.connect(lambda: self._push_text(self.int_edit, "integer"))
        self.set_format(self._fmt)

    @property
    def fmt_name(self) -> str:
        return self._fmt

    def bits(self) -> int:
        return self._bits

    def set_format(self, fmt: str) -> None:
        """Switch to another code type (the pattern is reset to 0)."""
        code = code_type(fmt)
        self._fmt = code.name
        self.cells.set_layout(*code_segments(self._fmt))
        self.int_label.setText("signed integer" if code.signed else "integer")
        self._bits = -1
        self.set_bits(0)

    def set_bits(self, bits: int) -> None:
        """Show ``bits`` in every field without emitting (no echo loops)."""
        bits = int(bits)
        if bits == self._bits:
            return
        self._bits = bits
        width = code_type(self._fmt).bits
        self.cells.set_bits(bits)
        with signals_blocked(self.hex_edit, self.int_edit):
            self.hex_edit.setText(f"0x{bits:0{(width + 3) // 4}X}")
            self.int_edit.setText(str(int(code_type(self._fmt).values(bits))))
        self._set_error("")

    def _push(self, bits: int) -> None:
        self.set_bits(bits)
        self.bits_changed.emit(int(bits))

    def _push_text(self, edit: QtWidgets.QLineEdit, what: str) -> None:
        try:
            value = parse_code(self._fmt, edit.text())
        except ValueError as exc:
            return self._set_error(f"{what}: {exc}")
        if value != self._bits:
            self._push(value)
        else:  # same code written another way (0xff for 255): show it the usual way again
            self._bits = -1
            self.set_bits(value)

    def _set_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setVisible(bool(message))
        self.error.emit(message)
