"""One value under inspection (ui/inspected.py): a visible picker says whether the
inspector, All formats, Decode and Conversions show an operand, the model's or GPU's result
or a value of their own; with an operand picked, an edit on either side is an edit of that
operand, in one undo step; a one-value paste for a unary op goes into A; a map click and a
paste of several values inspect A. Before, the inspector and the operation followed two
different values (a paste of one value for sqrt changed the inspector, not A; a map click
loaded the operands, not the inspector or Decode). Expected values are numpy's float32."""

from __future__ import annotations

import numpy as np

from fpinspector.ui.operation.inspected import GPU, MODEL, VALUE


def f32(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def test_an_operand_picked_is_the_inspected_value_both_ways(make_window) -> None:
    win = make_window()
    st = win.state
    st.update(op="add", op_format="f32", operands=[f32(1.5), f32(2.0), 0, 0])
    win.inspected_picker.buttons[1].click()  # "B"
    assert st.selection == 1
    assert (st.fmt, st.bits) == ("f32", f32(2.0))
    assert win.editor.bits() == f32(2.0)
    assert win.value_panel.text("shortest") == "2.0"  # Decode follows
    assert win.conversions_view.cell_text("d3d", "f16").startswith("0x4000")  # Conversions
    win.ops_view.editors[1].bits_changed.emit(f32(-3.0))  # B edited in the operation
    assert st.bits == f32(-3.0) and win.editor.bits() == f32(-3.0)
    steps = len(st._undo)
    win.editor.bits_changed.emit(f32(0.25))  # the inspector edited: B is edited
    assert st.operands[1] == f32(0.25) and len(st._undo) == steps + 1  # one undo step
    st.undo()
    assert st.operands[1] == f32(-3.0) and st.bits == f32(-3.0) and st.selection == 1
    win.fmt_combo.setCurrentText("f16")  # another format than the op's: its own value
    assert st.selection == VALUE and st.operands[1] == f32(-3.0)
    assert win.inspected_picker.buttons[VALUE].isChecked()


def test_the_model_result_picked_follows_the_operands(make_window) -> None:
    win = make_window()
    st = win.state
    st.update(op="mul", op_format="f32", operands=[f32(3.0), f32(0.5), 0, 0])
    win.inspected_picker.buttons[MODEL].click()
    assert (st.fmt, st.bits) == ("f32", f32(1.5))
    st.set_operand(1, f32(4.0))
    assert st.bits == f32(12.0)  # 3 * 4, numpy float32
    assert win.value_panel.text("shortest") == "12.0"
    win.editor.bits_changed.emit(f32(7.0))  # editing a result: a value of its own
    assert st.selection == VALUE and st.operands[:2] == (f32(3.0), f32(4.0))


def test_a_gpu_result_picked_shows_when_it_comes_without_an_undo_step(make_window) -> None:
    win = make_window()
    st = win.state
    st.update(op="mul", op_format="f32", operands=[f32(3.0), f32(0.5), 0, 0])
    assert not win.inspected_picker.buttons[GPU].isEnabled()  # no GPU result (GPU off)
    st.follow_gpu("f32", f32(1.5))  # what the controller does when the GPU answers
    assert win.inspected_picker.buttons[GPU].isEnabled()  # (it stayed off until an op edit)
    st.select(GPU)
    steps = len(st._undo)
    st.follow_gpu("f32", f32(1.25))
    assert st.bits == f32(1.25) and len(st._undo) == steps


def test_one_value_pasted_for_a_unary_op_goes_into_a(make_window) -> None:
    win = make_window()
    st = win.state
    st.update(op="sqrt", op_format="f32")
    assert st.selection == VALUE
    assert win.ctl.paste("2.25")
    assert st.selection == 0 and st.operands[0] == f32(2.25) and st.bits == f32(2.25)
    assert "into A (the value inspected)" in win.messages.text()
    assert "A" in win.inspected_picker.buttons[0].text()
    st.undo()  # one step back: A and the inspector as before the paste
    assert st.operands[0] != f32(2.25)
    before = st.snapshot
    assert not win.ctl.paste("0xZZZZ garbage(")
    assert st.snapshot == before  # a failed paste changes nothing


def test_several_values_pasted_inspect_a(make_window) -> None:
    win = make_window()
    st = win.state
    st.update(op="add")
    win.inspected_picker.buttons[1].click()
    assert win.ctl.paste("1.5 2.5")
    assert st.selection == 0 and st.bits == f32(1.5) and st.operands[:2] == (f32(1.5), f32(2.5))
    st.select(VALUE)
    steps = len(st._undo)
    assert win.ctl.paste("3 4")  # from a value of its own too
    assert st.selection == 0 and st.bits == f32(3.0) and len(st._undo) == steps + 1
    st.select(VALUE)
    assert win.ctl.paste("3 4")  # the same values again (no operand changes): A inspected
    assert st.selection == 0


def test_a_map_click_inspects_the_cells_a(make_window) -> None:
    from fpinspector.ui.maps.sweep_panel import SweepPanel

    win = make_window()
    st = win.state
    panel = SweepPanel()
    panel.bind_state(st)
    try:
        panel.inspect_requested.emit("mul", "f32", "d3d11", (f32(1e-40), f32(3.0)))
        assert st.selection == 0 and st.bits == f32(1e-40)
        assert st.operands[:2] == (f32(1e-40), f32(3.0))
        st.undo()  # the click is one step
        assert st.operands[:2] != (f32(1e-40), f32(3.0)) and st.selection == VALUE
    finally:
        panel.shutdown()
