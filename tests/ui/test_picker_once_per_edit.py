"""The inspected-value picker's "GPU result" button follows the GPU's answer without
switching off and on inside one operand edit: an answer that comes inside the edit leaves
it on (one refresh less, no repaint of it and its row), one that does not switches it off
before the paint, and a device switch switches it off.

Before, an operand edit refreshed the picker three times when the GPU answered inside it
(the GPU adapter dropping the old result, the picker's own listener, the answer) and the
button went off and on again: two repaints for nothing on every operand click."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from fpinspector.model.state import OP_FIELDS
from fpinspector.ui.operation.inspected import GPU

F32_ONE = 0x3F800000


class _Flips(QtCore.QObject):
    """Counts a widget's enabled-state changes (each one repaints it)."""

    def __init__(self, widget: QtWidgets.QWidget) -> None:
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if event.type() == QtCore.QEvent.Type.EnabledChange:
            self.count += 1
        return False


def test_no_answer_inside_the_edit_the_gpu_button_goes_off_before_the_paint(
        make_window, monkeypatch) -> None:
    """GPU off (no answer inside the edit): after an operand edit the "GPU result" button
    is off once the edit's listeners are done, on with the answer, off after a device
    switch; the picker is refreshed at most twice per edit (main: twice, the first from
    the GPU adapter, the second its own listener)."""
    win = make_window()
    st, picker = win.state, win.inspected_picker
    st.update(op="mul", op_format="f32", operands=[F32_ONE, 0x40000000, 0, 0])
    st.follow_gpu("f32", 0x40000000)  # the GPU answered this op
    assert picker.buttons[GPU].isEnabled()
    refreshes: list[bool] = []
    real = picker.refresh

    def counting() -> None:
        real()
        refreshes.append(picker.buttons[GPU].isEnabled())

    monkeypatch.setattr(picker, "refresh", counting)
    st.set_operand(1, 0x40400000)  # B = 3.0: the GPU's answer for 2.0 no longer holds
    assert len(refreshes) <= 2 and refreshes[-1] is False
    assert not picker.buttons[GPU].isEnabled() and not st.gpu_due
    win.ctl._gpu_req = req = 777
    win.ctl._gpu_captured(req, np.array([0x40400000], dtype=np.uint32))  # the answer
    assert picker.buttons[GPU].isEnabled()
    # a device switch asks for the op again outside a state change: the picker is told
    refreshes.clear()
    win.ctl._request(OP_FIELDS, in_change=False)
    assert refreshes == [False] and not picker.buttons[GPU].isEnabled()


class _AnsweringGpu:
    """A GPU whose answer to the op (numpy's float32 product) is delivered inside the
    edit, by ``deliver_ready`` (as a quick GPU's is)."""

    available = True
    info: dict = {}

    def __init__(self, ctl) -> None:
        self.ctl = ctl
        self.next = 1000

    def request(self, op, operands, fmt) -> int:
        a, b = (np.asarray(o, np.uint32).view(np.float32) for o in operands[:2])
        self.answer = (a * b).view(np.uint32).reshape(1)
        self.next += 1
        return self.next

    def request_route(self, bits, src, dsts, ahead=False) -> int:
        self.next += 1
        return self.next

    def deliver_ready(self, wait_s: float = 0.0) -> bool:
        self.ctl._gpu_captured(self.ctl._gpu_req, self.answer)
        return True


def test_an_answer_inside_the_edit_leaves_the_gpu_button_on(make_window) -> None:
    """A quick GPU answers inside the operand edit: the "GPU result" button stays on (no
    off-and-on, which repainted it and its row on every operand click), and it holds
    the new answer; the picker is refreshed once, by its own listener: the answer finds
    the button held on and tells it nothing (main: twice, the answer refreshed it again)."""
    win = make_window()
    st, picker = win.state, win.inspected_picker
    st.update(op="mul", op_format="f32", operands=[F32_ONE, 0x40000000, 0, 0])
    real = win.gpu
    win.gpu = _AnsweringGpu(win.ctl)
    try:
        st.set_operand(1, 0x40800000)  # B = 4.0 (an edit: the GPU answers this op)
        assert picker.buttons[GPU].isEnabled()
        flips = _Flips(picker.buttons[GPU])
        refreshes: list[bool] = []
        real_refresh = picker.refresh
        picker.refresh = lambda: (real_refresh(), refreshes.append(  # type: ignore[method-assign]
            picker.buttons[GPU].isEnabled()))
        st.set_operand(1, 0x40400000)  # B = 3.0, answered inside the edit
        assert flips.count == 0
        assert refreshes == [True]
        assert win.ctl.gpu_result == ("f32", 0x40400000)
        assert st.linkable(GPU) and not st.gpu_due
    finally:
        win.gpu = real


class _RecordingGpu:
    """Records the order of the GPU requests (the worker runs one job at a time: the
    first asked is the first answered)."""

    available = True

    def __init__(self) -> None:
        self.asked: list[str] = []

    def request(self, op, operands, fmt) -> int:
        self.asked.append("capture")
        return len(self.asked)

    def request_convert(self, bits, src, dst) -> int:
        self.asked.append("convert")
        return len(self.asked)

    def request_route(self, bits, src, dsts, ahead=False) -> int:
        self.asked.append("route")
        return len(self.asked)


def test_a_linked_operand_edit_asks_for_the_op_before_the_conversion_row(
        make_window, monkeypatch) -> None:
    """An edit of operand A while A is inspected changes the op and the inspected value:
    the op's capture (what the edit watches, a fraction of a millisecond) is asked for
    first, the conversion row after it."""
    from fpinspector.ui.gpu import controller

    win = make_window()
    gpu, real = _RecordingGpu(), win.gpu
    monkeypatch.setattr(controller, "is_seen", lambda w: True)  # (the row can be seen)
    win.gpu = gpu
    try:
        win.ctl._request(frozenset({"operands", "bits"}))
        assert gpu.asked == ["capture", "route"]
        gpu.asked.clear()
        win.ctl._request(frozenset({"bits"}))  # a value of its own: the row only
        assert gpu.asked == ["route"]
    finally:
        win.gpu = real
