"""A 32-bit word reinterpreted: as f32, as R11G11B10_FLOAT (three fields), as R9G9B9E5, as two
f16, and as integers (int32, uint32, two int16, RGBA8 UNORM/SNORM, RGB10A2: word_ints)."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
from PySide6 import QtCore, QtWidgets

from ...model.convert import decode_rgb9e5, unpack_r11g11b10
from ...model.describe.word_ints import integer_readings
from ...model.formats import FORMATS
from ...model.state import InspectorState, Snapshot
from .. import bridge
from ..qt_utils import DeferWhileUnseen, signals_blocked
from .bit_cells import BitCells, r11g11b10_segments

__all__ = ["WordView"]


class WordView(DeferWhileUnseen, QtWidgets.QWidget):
    """Edit one 32-bit word (cells or hex) and read it four ways.

    Signals
    -------
    word_changed(object) : the edited word.
    """

    word_changed = QtCore.Signal(object)
    error = QtCore.Signal(str)

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.cells = BitCells(32, r11g11b10_segments())
        self.cells.setToolTip("The word's bits, coloured as R11G11B10_FLOAT (FMT-R11G11B10): "
                              "B in bits 31-22, G in 21-11, R in 10-0. Click to toggle.")
        self.hex_edit = QtWidgets.QLineEdit()
        self.hex_edit.setToolTip("The 32-bit word in hexadecimal.")
        self.table = QtWidgets.QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["read as", "value"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("word"))
        row.addWidget(self.hex_edit)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.cells)
        lay.addLayout(row)
        lay.addWidget(self.table, 1)
        self.cells.bits_changed.connect(self.word_changed)
        self.hex_edit.editingFinished.connect(self._push_hex)
        self._word = -1
        if state is not None:
            self.bind(state)

    def bind(self, state: InspectorState) -> None:
        """Show and edit ``state``'s word."""
        self.state = state
        self.word_changed.connect(lambda word: state.update(word=word))
        state.connect(self._pull_word)
        self._pull_word(frozenset(Snapshot.__dataclass_fields__))

    def _pull_word(self, changed: frozenset) -> None:
        if "word" in changed and not self.defer(changed):
            self.show_word(self.state.snapshot.word)

    pull = _pull_word

    def _push_hex(self) -> None:
        try:
            w = int(self.hex_edit.text().strip().lower().removeprefix("0x"), 16)
            if w >> 32:
                raise ValueError
        except ValueError:
            self.hex_edit.setStyleSheet("color: #c62828;")
            self.hex_edit.setToolTip("not a 32-bit hex word")
            self.error.emit(f"word: {self.hex_edit.text().strip()[:40]!r} is not a 32-bit hex word")
            return
        self.hex_edit.setStyleSheet("")
        if w != self._word:
            self.word_changed.emit(w)

    def readings(self) -> dict[str, str]:
        return {self.table.item(r, 0).text(): self.table.item(r, 1).text()
                for r in range(self.table.rowCount())}

    def show_word(self, word: int) -> None:
        """Refresh every reading of ``word`` (each one computed by the model)."""
        self._word = int(word)
        self._tips: dict[str, str] = {}
        self.cells.set_bits(word)
        with signals_blocked(self.hex_edit):
            self.hex_edit.setText(f"0x{word:08X}")
        self._tips["f32"] = bridge.exact_tip("f32", word)
        for key, fmt, bits in (("f16 high half (bits 31-16)", "f16", word >> 16),
                               ("f16 low half (bits 15-0)", "f16", word & 0xFFFF)):
            self._tips[key] = bridge.exact_tip(fmt, bits)
        rows = [("f32", self._f(FORMATS["f32"], word))]
        rows += self._r11g11b10(word)
        rows += self._rgb9e5(word)
        rows += [("f16 high half (bits 31-16)", self._f(FORMATS["f16"], word >> 16)),
                 ("f16 low half (bits 15-0)", self._f(FORMATS["f16"], word & 0xFFFF))]
        for key, value, tip in integer_readings(word):  # what ImHex / RenderDoc show too
            rows.append((key, value))
            self._tips[key] = tip
        self.table.setRowCount(len(rows))
        for r, (k, v) in enumerate(rows):
            self.table.setItem(r, 0, QtWidgets.QTableWidgetItem(k))
            item = QtWidgets.QTableWidgetItem(v)
            item.setToolTip(self._tips.get(k, v))
            self.table.setItem(r, 1, item)
        self.table.resizeColumnToContents(0)

    @staticmethod
    def _f(fmt, bits: int) -> str:
        return f"0x{bits:0{(fmt.bits + 3) // 4}X} = {bridge.value_text(fmt.name, bits)}"

    def _r11g11b10(self, word: int) -> list[tuple[str, str]]:
        r, g, b = (int(np.asarray(x)) for x in unpack_r11g11b10(np.uint32(word)))
        for key, fmt, bits in (("R11G11B10 R (f11, bits 10-0)", "f11", r),
                               ("R11G11B10 G (f11, bits 21-11)", "f11", g),
                               ("R11G11B10 B (f10, bits 31-22)", "f10", b)):
            self._tips[key] = bridge.exact_tip(fmt, bits)
        return [("R11G11B10 R (f11, bits 10-0)", self._f(FORMATS["f11"], r)),
                ("R11G11B10 G (f11, bits 21-11)", self._f(FORMATS["f11"], g)),
                ("R11G11B10 B (f10, bits 31-22)", self._f(FORMATS["f10"], b))]

    def _rgb9e5(self, word: int) -> list[tuple[str, str]]:
        rgb = np.asarray(decode_rgb9e5(np.uint32(word)), dtype=np.float64).reshape(-1)
        rows = [(f"R9G9B9E5 {ch} (CONV-RGB9E5)", repr(float(v))) for ch, v in zip("RGB", rgb)]
        for (key, _), v in zip(rows, rgb):  # every RGB9E5 value is a double: written in full
            self._tips[key] = f"exactly {format(Decimal(float(v)), 'f')}"
        return rows
