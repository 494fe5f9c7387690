"""The sweep panel's op/format controls: arity decides which of B and C are editable, and
ops on integer codes (itof, from_unorm8, ...) show their code type and a code domain.

Split from :mod:`.sweep_panel` (modules under ~300 lines); mixed into ``SweepPanel``, which
provides ``backend``, ``op``, ``format``, ``domain_a``, ``domain_b`` and ``c_value``.
"""

from __future__ import annotations

from .sweep_backend import default_domain

__all__ = ["FLOAT_FORMATS", "SweepControlsMixin"]

#: Float operand formats a sweep offers (f11/f10 have no arithmetic ops).
FLOAT_FORMATS = ("f32", "f16", "f64")


class SweepControlsMixin:
    """Keeps the op, format, A/B/C fields consistent with the chosen op."""

    def _arity(self) -> int:
        try:
            return int(self.backend.arity(self.op.currentText()))
        except ValueError:
            return 2

    def _pull_arity(self) -> None:
        """Enable B for 2- and 3-operand ops, C for mad; code ops show their code type."""
        arity = self._arity()
        self.domain_b.setEnabled(arity >= 2)
        self.c_value.setEnabled(arity == 3)
        code = self._code_format()
        shown = self.format.currentText()
        if code is not None and shown != code:
            if shown in FLOAT_FORMATS:
                self._float_a = self.domain_a.text()
            self.format.blockSignals(True)
            self.format.clear()
            self.format.addItem(code)
            self.format.blockSignals(False)
            self.format.setEnabled(False)
            self.domain_a.setText(default_domain(code))
        elif code is None and shown not in FLOAT_FORMATS:
            self.format.blockSignals(True)
            self.format.clear()
            self.format.addItems(list(FLOAT_FORMATS))
            self.format.setCurrentText(self._float_format)
            self.format.blockSignals(False)
            self.format.setEnabled(True)
            self.domain_a.setText(getattr(self, "_float_a", default_domain(self._float_format)))

    def _remember_format(self, fmt: str) -> None:
        if fmt in FLOAT_FORMATS:
            self._float_format = fmt

    def _code_format(self) -> str | None:
        """The integer code type the current op takes (itof: i32), or None for float ops."""
        of = getattr(self.backend, "operand_format", None)
        if of is None:
            return None
        try:
            fmt = of(self.op.currentText(), self._float_format)
        except (ValueError, KeyError):
            return None
        return None if fmt in FLOAT_FORMATS else fmt

