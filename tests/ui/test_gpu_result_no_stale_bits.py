"""The GPU result's bit cells never keep the bits of a previous operation: where the GPU
column has no result for the op now shown (a format no GPU route captures, a failed
capture, the GPU gone) its cells are drawn without digits, so no number from the last op
stays on screen beside the new one (issue 36, "numbers that say what they measure").

A fake session captures f32 mul (numpy's float32 product, not the engine's) and refuses
every other format with a reason of its own; the check reads the painted pixels, not a
flag of the widget: a digit drawn in a cell makes the inside of that cell two-coloured.
"""

from __future__ import annotations

import numpy as np
from _fake_gpu import FakeMulSession
from PySide6 import QtGui

REASON = "the fake GPU captures f32 only"


class _F32OnlySession(FakeMulSession):
    REASON = REASON

    def refuses(self, fmt: str) -> bool:
        return fmt != "f32"


def _cells_with_digits(cells) -> list[int]:
    """The bits whose cell shows a mark inside it (a digit), read from the painted image."""
    img = cells.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
    dpr = img.devicePixelRatio() or 1.0
    marked = []
    for bit in range(cells.segments()[0].hi + 1):
        r = cells.cell_rect(bit).adjusted(3, 3, -3, -3)
        colours = {img.pixel(int(x * dpr), int(y * dpr))
                   for x in range(int(r.left()), int(r.right()))
                   for y in range(int(r.top()), int(r.bottom()))}
        if len(colours) > 1:
            marked.append(bit)
    return marked


def _show_f32_product(monkeypatch, make_window, wait_for):
    import fpinspector.gpu as gpu

    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: _F32OnlySession())
    win = make_window(gpu="auto")
    win.resize(1280, 720)
    win.show()
    assert wait_for(lambda: win.gpu is not None and win.gpu.available is True, 10000)
    win.state.update(op="mul", op_format="f32", operands=[0x40000000, 0x3FC00000, 0])
    assert wait_for(lambda: win.ctl.gpu_result == ("f32", 0x40400000), 5000)  # 2 * 1.5 = 3
    cells = win.ops_view.gpu_box.cells
    assert len(_cells_with_digits(cells)) == 32  # (the check sees every digit of a result)
    return win, cells


def test_an_op_the_gpu_cannot_capture_blanks_the_last_gpu_result(
        monkeypatch, make_window, wait_for) -> None:
    """GPU column, refused format (bf16 mul after an f32 mul): the reason, "—", and no digit
    of the f32 result left in the cells."""
    win, cells = _show_f32_product(monkeypatch, make_window, wait_for)
    win.state.update(op_format="bf16", operands=[0x4000, 0x3FC0, 0])
    assert wait_for(lambda: REASON in win.ops_view.gpu_box.detail.text(), 5000)
    assert win.ops_view.gpu_box.value.text() == "—"
    assert _cells_with_digits(cells) == []


def test_a_lost_gpu_blanks_the_last_gpu_result(monkeypatch, make_window, wait_for) -> None:
    """GPU column, the GPU gone (a failed session): its message and no digit left."""
    win, cells = _show_f32_product(monkeypatch, make_window, wait_for)
    win.ctl._gpu_unavailable("no GPU: the fake device was lost")
    assert _cells_with_digits(cells) == []
    assert "fake device was lost" in win.ops_view.gpu_box.detail.text()


def test_a_new_gpu_result_shows_its_digits_again(monkeypatch, make_window, wait_for) -> None:
    """GPU column: after a blank, the next captured result is drawn in full (2 * 2 = 4)."""
    win, cells = _show_f32_product(monkeypatch, make_window, wait_for)
    win.state.update(op_format="bf16", operands=[0x4000, 0x3FC0, 0])
    assert wait_for(lambda: REASON in win.ops_view.gpu_box.detail.text(), 5000)
    win.state.update(op_format="f32", operands=[0x40000000, 0x40000000, 0])
    assert wait_for(lambda: win.ctl.gpu_result == ("f32", 0x40800000), 5000)
    assert len(_cells_with_digits(cells)) == 32
    assert cells.bits() == 0x40800000


def test_another_op_blanks_the_gpu_result_until_its_answer(monkeypatch, make_window,
                                                           wait_for) -> None:
    """GPU column, a slow GPU: switching mul -> add blanks the cells and says it waits, so
    the product and its verdict do not stand beside the sum; the sum's answer fills them."""
    import threading

    gate = threading.Event()
    gate.set()

    class Slow(_F32OnlySession):
        def capture(self, op, *operands, format="f32"):
            gate.wait(10)
            a, b = (np.asarray(o, np.uint32).view(np.float32) for o in operands[:2])
            return (a + b if op == "add" else a * b).view(np.uint32)

    import fpinspector.gpu as gpu

    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: Slow())
    win = make_window(gpu="auto")
    win.resize(1280, 720)
    win.show()
    assert wait_for(lambda: win.gpu is not None and win.gpu.available is True, 10000)
    win.state.update(op="mul", op_format="f32", operands=[0x40000000, 0x3FC00000, 0])
    assert wait_for(lambda: win.ctl.gpu_result == ("f32", 0x40400000), 5000)
    cells = win.ops_view.gpu_box.cells
    assert len(_cells_with_digits(cells)) == 32
    gate.clear()
    try:
        win.state.update(op="add")
        assert _cells_with_digits(cells) == []
        assert "waiting for the GPU" in win.ops_view.gpu_box.detail.text()
        assert "waiting for the GPU" in win.ops_view.verdict_text()
    finally:
        gate.set()
    assert wait_for(lambda: win.ctl.gpu_result == ("f32", 0x40600000), 5000)  # 2 + 1.5
    assert len(_cells_with_digits(cells)) == 32
