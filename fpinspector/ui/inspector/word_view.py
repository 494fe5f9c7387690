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
from ..qt_utils import DeferWhileUnseen, HoverTipAt, signals_blocked
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
        self._tips: dict[str, str] = {}  # reading -> its tooltip
        self._exact: dict[str, tuple[str, int]] = {}  # reading -> (format, pattern) it shows
        self._fitted: tuple = ()  # (the readings, the font) column 0 was fitted to
        HoverTipAt(self.table, self._exact_tip_at)
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
        """Refresh every reading of ``word`` (each one computed by the model).

        The readings' items are updated in place (a new item re-lays the table out), the
        names' column is fitted only when the names or the font change, and the exact
        expansion a float reading's tooltip shows is worked out when it is hovered
        (:meth:`tip`): six expansions a word were a tenth of the view's update."""
        self._word = int(word)
        self.cells.set_bits(word)
        with signals_blocked(self.hex_edit):
            self.hex_edit.setText(f"0x{word:08X}")
        hi, lo = "f16 high half (bits 31-16)", "f16 low half (bits 15-0)"
        exact = {"f32": ("f32", word), hi: ("f16", word >> 16), lo: ("f16", word & 0xFFFF)}
        tips: dict[str, str] = {}
        rows = [("f32", self._f(FORMATS["f32"], word))]
        rows += self._r11g11b10(word, exact)
        rows += self._rgb9e5(word, tips)
        rows += [(hi, self._f(FORMATS["f16"], word >> 16)),
                 (lo, self._f(FORMATS["f16"], word & 0xFFFF))]
        for key, value, tip in integer_readings(word):  # what ImHex / RenderDoc show too
            rows.append((key, value))
            tips[key] = tip
        self._tips, self._exact = tips, exact
        t = self.table
        if t.rowCount() != len(rows):
            t.setRowCount(len(rows))
        for r, (k, v) in enumerate(rows):
            name = t.item(r, 0)
            if name is None or name.text() != k:
                t.setItem(r, 0, QtWidgets.QTableWidgetItem(k))
            item = t.item(r, 1)
            if item is None:
                item = QtWidgets.QTableWidgetItem()
                t.setItem(r, 1, item)
            if item.text() != v:
                item.setText(v)
            if k not in exact and item.toolTip() != tips.get(k, v):  # (exact: on hover)
                item.setToolTip(tips.get(k, v))
        fitted = (tuple(k for k, _ in rows), t.font().key())
        if fitted != self._fitted:
            self._fitted = fitted
            t.resizeColumnToContents(0)

    def tip(self, key: str) -> str:
        """The tooltip of reading ``key``: for a float reading the exact expansion of its
        pattern (the model's, worked out now), else what the model says of it."""
        if key in self._exact:
            return bridge.exact_tip(*self._exact[key])
        item = next((self.table.item(r, 1) for r in range(self.table.rowCount())
                     if self.table.item(r, 0).text() == key), None)
        return self._tips.get(key, item.text() if item else "")

    def _exact_tip_at(self, pos: QtCore.QPoint) -> str | None:
        """A hover over a float reading's value: its exact expansion, worked out now (None:
        the cell's own tooltip stands)."""
        idx = self.table.indexAt(pos)
        name = self.table.item(idx.row(), 0) if idx.isValid() and idx.column() == 1 else None
        return self.tip(name.text()) if name is not None and name.text() in self._exact else None

    @staticmethod
    def _f(fmt, bits: int) -> str:
        return f"0x{bits:0{(fmt.bits + 3) // 4}X} = {bridge.value_text(fmt.name, bits)}"

    def _r11g11b10(self, word: int, exact: dict[str, tuple[str, int]]) -> list[tuple[str, str]]:
        r, g, b = (int(np.asarray(x)) for x in unpack_r11g11b10(np.uint32(word)))
        for key, fmt, bits in (("R11G11B10 R (f11, bits 10-0)", "f11", r),
                               ("R11G11B10 G (f11, bits 21-11)", "f11", g),
                               ("R11G11B10 B (f10, bits 31-22)", "f10", b)):
            exact[key] = (fmt, bits)
        return [("R11G11B10 R (f11, bits 10-0)", self._f(FORMATS["f11"], r)),
                ("R11G11B10 G (f11, bits 21-11)", self._f(FORMATS["f11"], g)),
                ("R11G11B10 B (f10, bits 31-22)", self._f(FORMATS["f10"], b))]

    @staticmethod
    def _rgb9e5(word: int, tips: dict[str, str]) -> list[tuple[str, str]]:
        rgb = np.asarray(decode_rgb9e5(np.uint32(word)), dtype=np.float64).reshape(-1)
        rows = [(f"R9G9B9E5 {ch} (CONV-RGB9E5)", repr(float(v))) for ch, v in zip("RGB", rgb)]
        for (key, _), v in zip(rows, rgb):  # every RGB9E5 value is a double: written in full
            tips[key] = f"exactly {format(Decimal(float(v)), 'f')}"
        return rows
