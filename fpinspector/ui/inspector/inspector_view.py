"""The inspector: the inspected value's format picker and bit editor, bound to the state."""

from __future__ import annotations

from PySide6 import QtWidgets

from ...model.formats import FORMATS
from ...model.state import InspectorState, Snapshot, edits
from ..qt_utils import signals_blocked
from .bit_editor import BitFieldEditor

__all__ = ["InspectorView"]


class InspectorView(QtWidgets.QGroupBox):
    """Format combo + :class:`BitFieldEditor` of ``state``'s inspected value.

    Switching the format carries the value over by the D3D conversion (CONV-*); a drag over
    the bits is one undo step. ``editor.error`` says when typed text cannot be read.
    """

    def __init__(self, state: InspectorState, parent=None) -> None:
        super().__init__("Inspector", parent)
        self.state = state
        self.fmt_combo = QtWidgets.QComboBox()
        self.fmt_combo.addItems(list(FORMATS))
        self.fmt_combo.setToolTip("Format of the inspected value; switching converts the value "
                                  "with the D3D conversion rules (CONV-*).")
        self.editor = BitFieldEditor("f32")
        self.editor.set_leading(self.fmt_combo)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(0)
        lay.addWidget(self.editor)
        self.fmt_combo.currentTextChanged.connect(lambda fmt: edits.switch_format(state, fmt))
        self.editor.bits_changed.connect(lambda bits: state.update(bits=bits))
        self.editor.edit_started.connect(state.begin_undo_group)
        self.editor.edit_finished.connect(state.end_undo_group)
        state.connect(self._pull_value)
        self._pull_value(frozenset(Snapshot.__dataclass_fields__))

    def set_picker(self, picker: QtWidgets.QWidget) -> None:
        """Which value is inspected (ui/inspected.InspectedPicker), as the box's title row."""
        self.setTitle("")
        self.layout().insertWidget(0, picker)

    def _pull_value(self, changed: frozenset) -> None:
        if not {"fmt", "bits"} & changed:
            return
        s = self.state.snapshot
        with signals_blocked(self.fmt_combo):
            self.fmt_combo.setCurrentText(s.fmt)
        if self.editor.fmt.name != s.fmt:
            self.editor.set_format(s.fmt, s.bits)
        self.editor.set_bits(s.bits)  # (no-op after a format switch)
