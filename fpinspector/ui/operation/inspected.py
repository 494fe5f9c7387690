"""One value under inspection, made explicit: the inspected value (inspector, All formats,
Decode, Conversions) is an operand (A, B, C), the model's result, the GPU's result, or a
value of its own ("value"), and a visible picker says which.

Why: the inspector and its docks followed one value while the operation followed A/B/C;
pasting one value with a unary op changed the inspector and not A, and a map click loaded
the operands but not the inspector or Decode. Now the two stay one: with A picked, an edit
of A shows in the inspector and an edit in the inspector is an edit of A, in one undo step.

:class:`LinkedState` keeps the link inside the state's own changes (each change and its
linked half are one event and one undo step); :class:`InspectedPicker` is the picker.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from PySide6 import QtWidgets

from ...model.formats import FloatFormat, operand_format
from ...model.state import InspectorState
from .. import bridge_ops
from ..qt_utils import signals_blocked

__all__ = ["LinkedState", "InspectedPicker", "VALUE", "MODEL", "GPU", "selection_name"]

#: The inspected value is a value of its own (not linked to the operation).
VALUE = "value"
#: The inspected value is the model's result of the operation.
MODEL = "model"
#: The inspected value is this GPU's result of the operation.
GPU = "gpu"

_VALUES = frozenset({"fmt", "bits"})
_OPERATION = frozenset({"op", "op_format", "operands", "rule_set", "options"})


def selection_name(selection: object, op: str = "", arity: int = 3) -> str:
    """How the picker and the messages name a selection: "A", "model result", ..."""
    if isinstance(selection, int):
        from .operations_view import operand_names

        names = operand_names(op, max(arity, selection + 1))
        return names[selection] if selection < len(names) else chr(ord("A") + selection)
    return {VALUE: "own value", MODEL: "model result", GPU: "GPU result"}[str(selection)]


def _is_float(fmt: str) -> bool:
    """A float format the inspector can show (not a code type, not a comparison's bool)."""
    try:
        return isinstance(operand_format(fmt), FloatFormat)
    except ValueError:
        return False


class LinkedState(InspectorState):
    """An :class:`InspectorState` whose inspected value (fmt, bits) is linked to what
    :attr:`selection` names.

    - An operand ``i``: a change of the operands shows operand ``i`` in the inspector; an
      edit of the inspected value is an edit of operand ``i`` (a value in another format
      than the op's unlinks: the inspector keeps its own value).
    - The model result: the inspector shows the op's result; editing it unlinks.
    - The GPU result: the inspector shows it when it comes (:meth:`follow_gpu`), without an
      undo step of its own (the GPU's answer is not an edit).
    Each change and its linked half are one change event and one undo step. Undo and redo
    bring back snapshots that were linked when they were made.

    Signals go through :attr:`selection_changed` (a plain callback list: the model layer
    has no Qt)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.selection: object = VALUE
        self.selection_listeners: list = []
        self._gpu: tuple[str, int] | None = None
        #: True from an operation change that dropped a GPU result (the GPU adapter's
        #: listener, ``follow_gpu(None, notify=False)``) until the answer comes or the
        #: change ends (:meth:`gpu_settled`): the picker keeps its "GPU result" button as
        #: it is meanwhile, so an answer that comes inside the change does not switch it
        #: off and on again (two repaints of it and its row for nothing)
        self.gpu_due = False
        self._linking = False
        #: True while a change only shows another of the values the state holds (a pick
        #: in the picker, the GPU's answer shown): no operand, op or value is new, so a
        #: message about them (a paste's) still holds (the message bar reads it)
        self.only_showing = False

    # -- the selection -------------------------------------------------------------
    def select(self, selection: object) -> None:
        """Inspect ``selection`` (VALUE, MODEL, GPU or an operand index) from now on: the
        inspected value becomes it at once (one undo step)."""
        if selection == self.selection:
            return
        self.selection = selection
        if selection != VALUE:
            self._linking = True  # (its own change is the link: not an edit to link back)
            self.only_showing = True
            try:
                with super().batch():
                    self._link_now(_OPERATION)
            finally:
                self._linking = False
                self.only_showing = False
        for listener in list(self.selection_listeners):
            listener(selection)

    def linkable(self, selection: object) -> bool:
        """Whether ``selection`` can be inspected now: an operand the op takes, in a float
        format (an integer code op's operands are codes, not floats), a float result."""
        s = self.snapshot
        if selection == VALUE:
            return True
        if isinstance(selection, int):
            spec = bridge_ops.op_infos().get(s.op)
            arity = spec.arity if spec else 2
            return selection < arity and _is_float(s.op_format)
        return self._result() is not None if selection == MODEL else self._gpu is not None

    def follow_gpu(self, fmt: str | None, bits: int | None, notify: bool = True) -> None:
        """The GPU's result of the current operation (None: none yet / none at all).
        ``notify`` False: the caller is a listener of a change of the operation, which the
        selection listeners (the picker) are shown anyway: not told twice."""
        had, held = self._gpu is not None, self.gpu_due
        self._gpu = None if fmt is None or bits is None else (fmt, int(bits))
        self.gpu_due = not notify and had and self._gpu is None
        # what can be picked changed: the picker's "GPU result" on or off; not when the
        # answer came while the picker held that button on (it shows it already)
        if notify and (self._gpu is not None) != had and not (held and self._gpu is not None):
            for listener in list(self.selection_listeners):
                listener(self.selection)
        if self.selection != GPU or self._gpu is None or self._batch_depth:
            return
        fmt, bits = self._gpu
        if not _is_float(fmt):
            return
        s = self.snapshot
        if (s.fmt, s.bits) == (fmt, bits):
            return
        # shown without an undo step: the GPU answering is not an edit
        old = self._snap
        self._snap = replace(old, fmt=fmt, bits=bits).validated()
        self.only_showing = True
        try:
            self._emit(frozenset(f for f in _VALUES if getattr(old, f) != getattr(self._snap, f)))
        finally:
            self.only_showing = False

    def gpu_settled(self) -> None:
        """The change that dropped the GPU result is done (its views updated, a quick
        answer delivered): where no answer came, the picker is told now, before the
        paint (its "GPU result" button goes off until the answer)."""
        if self.gpu_due:
            self.gpu_due = False
            for listener in list(self.selection_listeners):
                listener(self.selection)

    # -- the link, inside every change ------------------------------------------------
    def update(self, **changes: Any) -> frozenset:
        if self._linking or self.selection == VALUE:
            return super().update(**changes)
        before = self.snapshot
        with self.batch():  # (linked as the batch ends: one event, one undo step)
            super().update(**changes)
        return frozenset(f for f in before.__dataclass_fields__
                         if getattr(before, f) != getattr(self.snapshot, f))

    @contextmanager
    def batch(self) -> Iterator[InspectorState]:
        outer = self._batch_depth == 0
        start = self.snapshot
        with super().batch():
            yield self
            if outer and not self._linking and self.selection != VALUE:
                self._link(frozenset(f for f in start.__dataclass_fields__
                                     if getattr(start, f) != getattr(self.snapshot, f)))

    def _link(self, changed: frozenset) -> None:
        """Make the inspected value and what the selection names one again, after
        ``changed`` fields changed (inside a batch: one event, one undo step)."""
        if self._linking or not changed:
            return
        self._linking = True
        try:
            self._link_now(changed)
        finally:
            self._linking = False

    def _link_now(self, changed: frozenset) -> None:
        sel, s = self.selection, self.snapshot
        values, operation = bool(_VALUES & changed), bool(_OPERATION & changed)
        if not self.linkable(sel) and sel != GPU:
            self._unlink()
            return
        if isinstance(sel, int):
            linked = (s.fmt == s.op_format and s.bits == s.operands[sel])
            if linked:
                return
            if values and not operation:  # an edit of the inspected value: of the operand
                if s.fmt != s.op_format:
                    self._unlink()  # (another format than the op's: a value of its own)
                    return
                ops = list(s.operands)
                ops[sel] = s.bits
                super().update(operands=ops)
            elif operation and not values:
                super().update(fmt=s.op_format, bits=s.operands[sel])
            elif s.fmt == s.op_format and s.bits == s.operands[0]:
                self._reselect(0)  # several values pasted: the first is A, inspected
            else:
                self._unlink()
            return
        if values and not operation:  # an edit of a result: a value of its own
            self._unlink()
        elif operation and not values:
            if sel == MODEL:
                res = self._result()
                if res is not None and (s.fmt, s.bits) != res:
                    super().update(fmt=res[0], bits=res[1])
            else:
                self._gpu = None  # (the operation changed: its GPU result is to come)
        elif sel != MODEL or (s.fmt, s.bits) != self._result():
            self._unlink()  # a whole state restored: its own inspected value

    def undo(self) -> bool:
        done = super().undo()
        self._reconcile()
        return done

    def redo(self) -> bool:
        done = super().redo()
        self._reconcile()
        return done

    def _reconcile(self) -> None:
        """After undo/redo (snapshots as they were): still linked to the selection, or a
        value of its own."""
        s, sel = self.snapshot, self.selection
        if sel == VALUE or sel == GPU:
            return
        if sel == MODEL:
            if (s.fmt, s.bits) != self._result():
                self._unlink()
            return
        if not (s.fmt == s.op_format and s.bits == s.operands[sel]):
            self._unlink()

    def _result(self) -> tuple[str, int] | None:
        s = self.snapshot
        try:
            o = bridge_ops.evaluate(s.op, s.operands, s.op_format, s.rule_set, s.options)
        except ValueError:
            return None
        if not _is_float(o.result_format):
            return None
        return o.result_format, int(o.bits)

    def _unlink(self) -> None:
        self._reselect(VALUE)

    def _reselect(self, selection: object) -> None:
        if selection != self.selection:
            self.selection = selection
            for listener in list(self.selection_listeners):
                listener(selection)

class InspectedPicker(QtWidgets.QWidget):
    """"inspecting: own value | A | B | C | model result | GPU result": which value the
    inspector, All formats, Decode and Conversions show. Paste, map clicks and History set
    it too; buttons for what cannot be inspected now are disabled (an op's unused
    operands, integer codes, a result not there yet)."""

    def __init__(self, state: LinkedState, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        lay = QtWidgets.QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        title = QtWidgets.QLabel("<b>Inspector</b> — inspecting:")
        title.setToolTip("The value the inspector, All formats, Decode and Conversions show: an "
                         "operand of the operation, its model or GPU result, or a value of "
                         "its own. An edit in the inspector is an edit of that operand.")
        lay.addWidget(title)
        self.group = QtWidgets.QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[object, QtWidgets.QToolButton] = {}
        for sel in (VALUE, 0, 1, 2, MODEL, GPU):
            b = QtWidgets.QToolButton()
            b.setCheckable(True)
            b.setAutoRaise(True)
            b.setText(selection_name(sel))
            b.clicked.connect(lambda _=False, s=sel: self.state.select(s))
            self.group.addButton(b)
            self.buttons[sel] = b
            lay.addWidget(b)
        lay.addStretch(1)
        state.selection_listeners.append(lambda _sel: self.refresh())
        state.connect(lambda changed: self.refresh() if _OPERATION & changed or
                      self.state.selection in (MODEL, GPU) else None)
        self.refresh()

    def refresh(self) -> None:
        """Names (A/B/C or a0.., by the op), what can be picked, and the pick shown."""
        st, s = self.state, self.state.snapshot
        spec = bridge_ops.op_infos().get(s.op)
        arity = spec.arity if spec else 2
        for sel, b in self.buttons.items():
            if isinstance(sel, int):
                name = selection_name(sel, s.op, arity)
                if b.text() != name:  # (a new text lays the row out again)
                    b.setText(name)
                b.setVisible(sel < arity)
            if sel != GPU or not st.gpu_due:  # (due: kept until the change ends)
                b.setEnabled(st.linkable(sel) or sel == st.selection)
            with signals_blocked(b):
                b.setChecked(sel == st.selection)
