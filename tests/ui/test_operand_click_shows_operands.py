"""An operand edit shows the operand editors' new bits and sets nothing else of the
operations panel again (issue 36's latency goal: the pickers' texts, the editors'
visibility and the operands area's height were set again on every operand click, each
unchanged); an op, operand format, rule set or options change still shows all of it.

Oracle: a fresh OperationsView bound to a state with the same snapshot (a view that never
took the shortcut) shows the same pickers, editors and bits after every step of a walk
over ops (a unary, a ternary, an integer-code op, a dot product), formats, rule sets,
options and operand edits."""

from __future__ import annotations

import numpy as np
from PySide6 import QtWidgets

from fpinspector.model.state import InspectorState
from fpinspector.ui.operation import operations_view
from fpinspector.ui.operation.operations_view import OperationsView


def _f32(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def _shown(view: OperationsView) -> dict:
    """What the panel shows of the state: pickers, each editor's visibility, title and
    bits, and the operands area's height."""
    eds = []
    for flt, code in zip(view.editors, view.code_editors):
        eds.append((flt.isVisibleTo(view), code.isVisibleTo(view)))
        if flt.isVisibleTo(view):
            eds.append(("f", flt.fmt.name, flt.title.text(), flt.bits(), flt.hex_edit.text(),
                        flt.dec_edit.text()))
        if code.isVisibleTo(view):
            eds.append(("c", code.fmt_name, code.title.text(), code.bits()))
    combo = view.fmt_combo
    return {
        "op": view.op_combo.currentText(),
        "formats": [combo.itemText(i) for i in range(combo.count())],
        "format": combo.currentText(),
        "rules": view.rules_combo.currentText(),
        "options": {n: b.currentText() for n, b in view.option_boxes.items()},
        "editors": eds,
        "area": view.operands_area.minimumHeight(),
        "model": view.model_box.value.text(),
    }


def _fresh(qtbot, snap) -> OperationsView:
    state = InspectorState()
    state.update(**{f: getattr(snap, f) for f in snap.__dataclass_fields__})
    view = OperationsView(state)
    qtbot.addWidget(view)
    view.show()
    return view


def test_an_operand_edit_sets_only_the_operands(qtbot, monkeypatch) -> None:
    """mul, A = 1.5 then 2.5 then B = 3.0: show_state (the pickers, the editors'
    formats, visibility and titles) is not run for the edits (it ran on each before);
    the editors and the model's result show the new operands."""
    state = InspectorState()
    view = OperationsView(state)
    qtbot.addWidget(view)
    view.show()
    state.update(op="mul", op_format="f32", operands=[_f32(1.5), _f32(2.0)])
    calls: list[object] = []
    real = view.show_state
    monkeypatch.setattr(view, "show_state", lambda s: calls.append(s) or real(s))
    for i, x in ((0, 2.5), (0, -0.0), (1, 3.0)):
        ops = list(state.snapshot.operands)
        ops[i] = _f32(x)
        state.update(operands=ops)
        assert view.editors[i].bits() == _f32(x)
        assert _shown(view) == _shown(_fresh(qtbot, state.snapshot))
    assert calls == []
    assert view.model_box.value.text() == f"0x{_f32(-0.0 * 3.0):08X} = -0.0"
    state.update(rule_set="ieee754")  # not an operand edit: all of it again
    assert len(calls) == 1


def test_a_walk_shows_what_a_fresh_panel_shows(qtbot) -> None:
    """Every step of a walk (ops of 1, 2, 3 and 8 operands, an integer-code op, f16,
    a rule set, an option, operand edits between them) leaves the panel as a panel
    made for that state shows it."""
    state = InspectorState()
    view = OperationsView(state)
    qtbot.addWidget(view)
    view.show()
    option = next(iter(view.option_boxes))
    other = [c for c in (view.option_boxes[option].itemText(i)
                         for i in range(view.option_boxes[option].count()))
             if c != view.option_defaults[option]][0]

    def edit(i: int, bits: int) -> None:
        ops = list(state.snapshot.operands)
        ops[i] = bits
        state.update(operands=ops)

    steps = [
        lambda: state.update(op="mul", op_format="f32"),
        lambda: edit(0, _f32(0.1)),
        lambda: edit(1, 0x1),  # a denormal: the raw inputs' line
        lambda: state.update(op="sqrt"),
        lambda: edit(0, _f32(2.0)),
        lambda: state.update(op="mad"),
        lambda: edit(2, _f32(-1.0)),
        lambda: view.switch_format("f16"),
        lambda: edit(0, 0x3C01),
        lambda: state.update(rule_set="d3d10"),
        lambda: edit(1, 0x7C00),
        lambda: state.update(options=(f"{option}={other}",)),
        lambda: edit(0, 0x0001),
        lambda: state.update(op="dp4", op_format="f32", operands=[_f32(1.0)] * 8),
        lambda: edit(7, _f32(2.0)),
        lambda: state.update(op="itof", op_format="i32", operands=[7, 0]),
        lambda: edit(0, 0xFFFFFFFF),
        lambda: state.update(op="add", op_format="f32", operands=[_f32(1.0), _f32(2.0)]),
        lambda: edit(1, _f32(3.0)),
    ]
    for k, step in enumerate(steps):
        step()
        assert _shown(view) == _shown(_fresh(qtbot, state.snapshot)), k
        QtWidgets.QApplication.processEvents()


def test_setup_names_what_show_state_shows() -> None:
    """The shortcut's key holds every field show_state reads besides the operands."""
    from fpinspector.model.state import Snapshot

    snap = Snapshot()
    for field, value in (("op", "add"), ("op_format", "f16"), ("rule_set", "d3d10"),
                         ("options", ("X=y",))):
        assert operations_view._setup(snap) != operations_view._setup(
            Snapshot(**{**{f: getattr(snap, f) for f in snap.__dataclass_fields__},
                        field: value}))
