"""An edit waits a little (GIL released) for the GPU answer it asked for, so a quick GPU's op
result is shown with the edit, in the same frame, instead of in a second repaint; a slow
GPU's answer comes later as before, and the wait is bounded (controller.GPU_SAME_FRAME_S).

Fake sessions stand in for the GPU: their capture returns operand A (what a mov would) and
they have no render targets (each conversion fails, which the row shows), one of them only
when the test opens its gate."""

from __future__ import annotations

import threading
import time

import numpy as np

from fpinspector.ui.gpu import controller


class _EchoSession:
    info = {"renderer": "echo stand-in"}

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()

    def supports(self, op, fmt):
        return True

    def capture(self, op, *operands, format="f32"):
        self.gate.wait(5)
        return np.asarray(operands[0]).copy()

    def convert(self, bits, src, dst):
        self.gate.wait(5)
        raise ValueError("no render targets on this stand-in")

    def close(self):
        self.gate.set()


def _window(monkeypatch, make_window, wait_for, session):
    import fpinspector.gpu as gpu

    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: session)
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available)
    win.state.update(op="mul", op_format="f32")
    assert wait_for(lambda: win.ctl.gpu_result is not None)
    return win


def test_a_quick_gpu_answer_is_shown_with_the_edit(monkeypatch, make_window, wait_for) -> None:
    session = _EchoSession()
    win = _window(monkeypatch, make_window, wait_for, session)
    monkeypatch.setattr(controller, "GPU_SAME_FRAME_S", 1.0)  # (a busy test machine)
    for bits in (0x40490FDB, 0x3F800001, 0x00000001):
        win.state.set_operand(0, bits)
        # no event loop ran: the answer was delivered inside the edit, before the repaint
        assert win.ctl.gpu_result == ("f32", bits)
        assert win.ops_view.gpu_box.value.text().startswith(f"0x{bits:08X}")
        assert win.ctl.gpu_update_s <= win.ctl.last_update_s


def test_a_slow_gpu_answer_comes_later_and_the_wait_is_bounded(
        monkeypatch, make_window, wait_for) -> None:
    session = _EchoSession()
    win = _window(monkeypatch, make_window, wait_for, session)
    monkeypatch.setattr(controller, "GPU_SAME_FRAME_S", 0.05)
    session.gate.clear()  # the GPU takes its time
    try:
        t0 = time.perf_counter()
        win.state.set_operand(0, 0x40490FDB)
        took = time.perf_counter() - t0
        assert win.ctl.gpu_result is None  # not waited for past the bound
        assert took < 1.0
        assert "0x40490FDB" in win.ops_view.model_box.value.text()  # the model's is shown
    finally:
        session.gate.set()
    assert wait_for(lambda: win.ctl.gpu_result == ("f32", 0x40490FDB))
    assert win.ops_view.gpu_box.value.text().startswith("0x40490FDB")


def test_a_quick_gpu_row_is_shown_with_the_edit_and_never_as_waiting(
        monkeypatch, make_window, wait_for) -> None:
    """The Conversions GPU row of a new value: a quick answer is drawn with the edit, with
    no "waiting" state set first (it was set, then overwritten, in the same frame)."""
    from fpinspector.ui.shell.window_layout import raise_dock

    session = _EchoSession()
    win = _window(monkeypatch, make_window, wait_for, session)
    monkeypatch.setattr(controller, "GPU_SAME_FRAME_S", 1.0)  # (a busy test machine)
    win.show()
    raise_dock(win, win.docks["conversions"])
    assert wait_for(lambda: not win.conversions_view.is_stale() and not win.ctl.conv_in_flight)
    view = win.conversions_view
    shown: list[dict] = []
    real = view.show_gpu

    def spy(results, note, tips=None, route=""):
        shown.append(dict(tips or {}))
        real(results, note, tips, route)

    monkeypatch.setattr(view, "show_gpu", spy)
    for bits in (0x40490FDB, 0x3F800001):
        shown.clear()
        win.state.update(fmt="f32", bits=bits)
        # no event loop ran: the row came inside the edit, once, with its answer
        assert len(shown) == 1 and not any("waiting" in t for t in shown[0].values())
        assert view.cell_text("this GPU (render target)", "f16") == "—"  # (the stand-in's)
        assert win.ctl.conv_update_s <= win.ctl.last_update_s
    session.gate.clear()  # a slow GPU: the row waits, then gets its answer
    try:
        shown.clear()
        win.state.update(bits=0x3F800002)
        assert len(shown) == 1 and all("waiting" in t for t in shown[0].values())
    finally:
        session.gate.set()
    assert wait_for(lambda: not win.ctl.conv_in_flight)
