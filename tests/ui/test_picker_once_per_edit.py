"""The inspected-value picker is refreshed once per operand edit, and its "GPU result"
button still follows the GPU's answer: off as soon as the operation changes (its GPU
result is to come), on when the answer comes, off after a device switch.

Before, an operand edit refreshed the picker twice before the paint: once when the GPU
adapter dropped the old GPU result (``follow_gpu(None)``), and once more as the picker's
own listener of the same change."""

from __future__ import annotations

import numpy as np

from fpinspector.model.state import OP_FIELDS
from fpinspector.ui.operation.inspected import GPU

F32_ONE = 0x3F800000


def test_one_refresh_per_operand_edit_and_the_gpu_button_follows(make_window, monkeypatch) -> None:
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
    assert refreshes == [False]
    assert not picker.buttons[GPU].isEnabled()
    win.ctl._gpu_req = req = 777
    win.ctl._gpu_captured(req, np.array([0x40400000], dtype=np.uint32))  # the answer
    assert picker.buttons[GPU].isEnabled()
    # a device switch asks for the op again outside a state change: the picker is told
    refreshes.clear()
    win.ctl._request(OP_FIELDS, in_change=False)
    assert refreshes == [False] and not picker.buttons[GPU].isEnabled()


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
