"""The GPU render-target row for any inspected format (through f32), and hostile pastes.

Fake sessions compute the hardware steps with numpy (float16 round-to-nearest as a stand-in
render target, exact float16->float32 as the sampler) so the test checks the *route*; one
test runs the real llvmpipe path when GL is available.
"""

from __future__ import annotations

import os
import struct
import threading
import time

import numpy as np
import pytest
from _retimed import retimed
from PySide6 import QtCore

from fpinspector.gpu.conversion_route import convert_via_f32
from fpinspector.ui.inspector.conversions_view import GPU_ROW


class _NumpySession:
    """Sampler f16 -> f32 exact; render f32 -> f16 by numpy's RNE cast; no f11/f10 targets."""

    info = {"renderer": "numpy stand-in"}

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def supports(self, op, fmt):
        return True

    def capture(self, op, *operands, format="f32"):
        return np.asarray(operands[0]).copy()

    def convert(self, bits, src, dst):
        self.calls.append((src, dst))
        a = np.asarray(bits)
        if (src, dst) == ("f16", "f32"):
            return a.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
        if (src, dst) == ("f32", "f16"):  # (beyond 65504: INF, as a GPU's cast gives)
            with np.errstate(over="ignore"):
                return a.astype(np.uint32).view(np.float32).astype(np.float16).view(np.uint16)
        raise ValueError(f"no {dst} render target on this stand-in")

    def close(self):
        pass


def test_route_f16_source_samples_then_renders() -> None:
    """Hardware starts from f32: f16 is sampled to f32 first (CONV-WIDEN on the GPU)."""
    s = _NumpySession()
    got = convert_via_f32(s, np.asarray([0x3C01], np.uint16), "f16", ("f64", "f32", "f11", "f10"))
    assert s.calls[0] == ("f16", "f32")
    assert int(got.results["f32"][0]) == struct.unpack("<I", struct.pack("<f", 1 + 2 ** -10))[0]
    assert "f64" in got.results["f64"] and "sample" in got.tips["f32"]
    assert "no f11 render target" in got.results["f11"]
    assert "through f32" in got.route


def test_route_f64_source_uses_the_model_dtof_then_renders() -> None:
    """CONV-DTOF: no GPU format holds f64, so the model's f64 -> f32 (RNE) feeds the target."""
    s = _NumpySession()
    x = 1 + 2 ** -11 + 2 ** -40  # f64 -> f32 RNE keeps 2^-11; then f32 -> f16 (numpy RNE)
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    got = convert_via_f32(s, np.asarray([bits], np.uint64), "f64", ("f32", "f16", "f11", "f10"))
    f32 = np.float32(x)  # numpy's f64 -> f32 is RNE: an independent CONV-DTOF oracle
    assert s.calls == [("f32", "f16"), ("f32", "f11"), ("f32", "f10")]
    assert int(got.results["f16"][0]) == int(f32.astype(np.float16).view(np.uint16))
    assert isinstance(got.results["f32"], str) and "CONV-DTOF" in got.results["f32"]
    assert f"0x{int(f32.view(np.uint32)):08X}" in got.tips["f16"]


def test_conversions_view_fills_gpu_row_for_f16(monkeypatch, make_window, wait_for) -> None:
    """The app asks for the row for any source; the cells and tooltips say how (through f32)."""
    import fpinspector.gpu as gpu

    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: _NumpySession())
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available)
    win.state.update(fmt="f16", bits=0x3555)  # 0.333 in f16
    want = np.uint16(0x3555).view(np.float16).astype(np.float32).view(np.uint32)
    cv = win.conversions_view
    assert wait_for(lambda: cv.cell_text(GPU_ROW, "f32").startswith(f"0x{int(want):08X}"))
    r, c = cv._rows.index(GPU_ROW), cv._targets.index("f32")
    assert "sample" in cv.table.item(r, c).toolTip()
    assert "through f32" in cv.table.verticalHeaderItem(r).toolTip()
    assert cv.cell_text(GPU_ROW, "f64") == "—"
    assert "f64" in cv.table.item(r, cv._targets.index("f64")).toolTip()
    assert cv.cell_text(GPU_ROW, "f11") == "—"  # the stand-in has no f11 target: the reason
    assert "render target" in cv.table.item(r, cv._targets.index("f11")).toolTip()


def test_gpu_row_behind_a_tab_is_asked_for_when_the_tab_is_raised(
        monkeypatch, make_window, qtbot, wait_for) -> None:
    """No GPU round trip per edit for a row no one can see; raising its tab asks for the
    current value's row (never an older value's)."""
    import fpinspector.gpu as gpu
    from fpinspector.ui.qt_utils import is_seen

    session = _NumpySession()
    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: session)
    win = make_window(gpu="auto")
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    qtbot.wait(100)  # (the docks laid out again for the new size: window_layout.Reflow)
    assert wait_for(lambda: win.gpu is not None and win.gpu.available)
    cv = win.conversions_view
    # behind another tab of its own group (the layout's; tabifying it with Word by hand is
    # not honoured by Qt 6.12 under the layout's reflow: both stayed on screen)
    behind = win.tabifiedDockWidgets(win.docks["conversions"])
    if not behind:
        win.tabifyDockWidget(win.docks["conversions"], win.docks["word"])
        behind = [win.docks["word"]]
    behind[0].raise_()
    assert wait_for(lambda: not is_seen(cv))
    qtbot.wait(50)  # (a row asked for before the tab went behind lands now)
    session.calls.clear()
    for bits in (0x3C00, 0x3555):
        win.state.update(fmt="f16", bits=bits)
        qtbot.wait(20)
    assert session.calls == []  # nothing asked while the row cannot be seen
    assert not win.ctl.conv_in_flight
    win.docks["conversions"].raise_()
    want = np.uint16(0x3555).view(np.float16).astype(np.float32).view(np.uint32)

    def gpu_f32_cell() -> str:
        try:  # (the table has the f16 source's columns once the view caught up)
            return cv.cell_text(GPU_ROW, "f32")
        except ValueError:
            return ""

    assert wait_for(lambda: gpu_f32_cell().startswith(f"0x{int(want):08X}"))
    assert session.calls[0] == ("f16", "f32")


class _SlowSession(_NumpySession):
    """A GPU that answers a conversion only when the test opens the gate."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.gate.set()

    def convert(self, bits, src, dst):
        self.gate.wait(5)
        return super().convert(bits, src, dst)


def test_gpu_row_waiting_for_an_answer_keeps_its_note_and_header(
        monkeypatch, make_window, qtbot, wait_for, layout_requests, paints) -> None:
    """While the GPU row waits for the new value's answer it already says the route the
    answer comes by: the note under the table and the row header keep their text, so an
    edit neither lays the Conversions view out again nor repaints its note (blanking the
    note and flipping the header's tip, then setting both back, would do both every edit)."""
    import fpinspector.gpu as gpu
    from fpinspector.gpu.conversion_route import route_text
    from fpinspector.ui.qt_utils import is_seen
    from fpinspector.ui.shell import window_layout

    session = _SlowSession()
    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: session)
    win = make_window(gpu="auto")
    size = QtCore.QSize(1800, 1000)
    win.resize(size)
    win.layout_mode = window_layout.arrange_docks(win, size)
    win.show()
    qtbot.waitExposed(win)
    assert wait_for(lambda: win.gpu is not None and win.gpu.available)
    cv = win.conversions_view
    assert is_seen(cv)
    win.state.update(fmt="f16", bits=0x3C00)
    assert wait_for(lambda: not win.ctl.conv_in_flight)
    qtbot.wait(50)
    head = cv.table.verticalHeaderItem(cv._rows.index(GPU_ROW))
    assert cv.note.text() == head.toolTip() == route_text("f16")
    # every column as wide as the longest value first: a column widened for a longer value
    # (never narrower) and, side by side, the table with it (test_conversions_room.py)
    # are not what this test is about; the waiting row is
    from fpinspector.ui.qt_utils import widen_column

    for c in range(cv.table.columnCount()):
        widen_column(cv.table, c, "0x0000000000000000\n-8.8888888888888888e-308")
    cv._columns_widened()
    qtbot.wait(50)
    relayouts, note_paints = layout_requests(cv), paints(cv.note)
    try:
        # (each value is more than one bit away from those before: a neighbour's row is
        # asked for ahead, while the app is idle, and shown at once)
        for bits in (0x3555, 0x4A21, 0x0003):
            session.gate.clear()  # the answer is held back: the row waits
            win.state.update(bits=bits)
            qtbot.wait(20)
            assert win.ctl.conv_in_flight
            assert cv.cell_text(GPU_ROW, "f32") == "—"
            assert cv.note.text() == head.toolTip() == route_text("f16")
            session.gate.set()
            assert wait_for(lambda: not win.ctl.conv_in_flight)
            qtbot.wait(20)
            assert cv.cell_text(GPU_ROW, "f32").startswith("0x")
            assert cv.note.text() == head.toolTip() == route_text("f16")
    finally:
        session.gate.set()  # (a failed check leaves no worker waiting)
    assert relayouts.count == 0
    assert note_paints.count == 0


@pytest.mark.gpu
def test_route_on_the_real_gpu() -> None:
    """Real llvmpipe/GPU: f11 0x3C1 sampled to f32 is exact (CONV-WIDEN), rendered to f16."""
    import fpinspector.gpu as gpu

    try:
        s = gpu.open_session("auto")
    except Exception as exc:  # noqa: BLE001 - no GL here: nothing to check
        pytest.skip(f"no GPU: {getattr(exc, 'message', exc)}")
    try:
        got = convert_via_f32(s, np.asarray([0x3C1], np.uint16), "f11", ("f32", "f16", "f10"))
    finally:
        s.close()
    one = struct.unpack("<I", struct.pack("<f", 1 + 2 ** -6))[0]
    assert int(np.asarray(got.results["f32"]).reshape(-1)[0]) == one
    assert int(np.asarray(got.results["f16"]).reshape(-1)[0]) == int(
        np.float16(1 + 2 ** -6).view(np.uint16))  # exact in f16: every rounding agrees


# -- hostile paste -------------------------------------------------------------------------

def test_five_megabyte_paste_is_refused_fast(make_window) -> None:
    """5 MB of text: a clear inline message at once, state untouched, no traceback."""
    win = make_window()
    before = win.state.snapshot
    text = "0x3f800000 " * (5_000_000 // 11)

    def refuse() -> float:
        t0 = time.perf_counter()
        assert win.ctl.paste(text) is False
        return time.perf_counter() - t0

    assert retimed(refuse, 0.1) < 0.1
    assert win.paste_box.is_error()
    assert "too much text" in win.paste_box.message.text()
    assert f"{len(text):,}" in win.paste_box.message.text()
    assert win.state.snapshot == before


def test_ctrl_v_of_huge_and_binary_clipboard(qtbot, make_window) -> None:
    """Ctrl+V (Edit > Paste values) with 5 MB and with binary garbage: short readable message."""
    from PySide6 import QtWidgets

    win = make_window()
    win.show()
    before = win.state.snapshot
    clip = QtWidgets.QApplication.clipboard()
    clip.setText("1.5 " * 1_300_000)
    t0 = time.perf_counter()
    win.paste_action.trigger()
    assert time.perf_counter() - t0 < 0.5
    assert "too much text" in win.paste_box.message.text()
    assert win.paste_box.edit.text() == ""  # 5 MB never copied into the line edit
    garbage = bytes(np.random.default_rng(1).integers(0, 256, 4000, dtype=np.uint8))
    garbage = garbage.decode("latin-1") + "\x00\x07\x1b[31m"
    clip.setText(garbage)
    win.paste_action.trigger()
    msg = win.paste_box.message.text()
    assert win.paste_box.is_error()
    assert all(ch.isprintable() or ch == "\n" for ch in msg)
    assert len(msg) < 500 and msg.count("\n") < 4
    assert win.state.snapshot == before
    # the window still answers: a normal paste right after works
    clip.setText("0x40490fdb")
    win.paste_action.trigger()
    assert (win.state.fmt, win.state.bits) == ("f32", 0x40490FDB)
    assert not win.paste_box.is_error()


def test_garbage_just_under_the_limit_stays_responsive(make_window) -> None:
    """32 K characters of random text is parsed (and refused) in well under a frame budget x10."""
    win = make_window()
    text = os.urandom(32_000).decode("latin-1")
    t0 = time.perf_counter()
    assert win.ctl.paste(text) is False
    assert time.perf_counter() - t0 < 0.2
    assert win.paste_box.is_error()
    assert "\x00" not in win.paste_box.message.text()


def test_paste_box_enter_with_long_garbage(qtbot, make_window) -> None:
    """Typing/pasting into the box itself and pressing Enter: QLineEdit caps at 32767 chars."""
    from PySide6 import QtCore

    win = make_window()
    win.paste_box.edit.setText("\x01garbage\x02" * 10_000)
    assert len(win.paste_box.edit.text()) <= 32767
    before = win.state.snapshot
    qtbot.keyClick(win.paste_box.edit, QtCore.Qt.Key.Key_Return)
    assert win.paste_box.is_error() and win.state.snapshot == before
    assert "\x01" not in win.paste_box.message.text()


def test_conversion_cells_update_in_place(make_window) -> None:
    """CONV-F2F-RTZ: 1 + 3*2^-11 -> f16 is 0x3C01 by d3d, 0x3C02 by ieee (RNE, highlighted);
    then 1.0 is exact everywhere: the highlight and the rules tooltip follow the new value."""
    win = make_window()
    cv = win.conversions_view
    win.state.update(fmt="f32", bits=struct.unpack("<I", struct.pack("<f", 1 + 3 * 2.0 ** -11))[0])
    assert cv.cell_text("ieee", "f16").startswith("0x3C02")  # numpy RNE oracle below
    assert int(np.float16(1 + 3 * 2.0 ** -11).view(np.uint16)) == 0x3C02
    assert cv.is_highlighted("ieee", "f16") and not cv.is_highlighted("d3d", "f16")
    assert "CONV-F2F-RTZ" in cv.cell_tooltip("d3d", "f16")
    win.state.update(bits=0x3F800000)
    assert cv.cell_text("ieee", "f16").startswith("0x3C00")
    assert not cv.is_highlighted("ieee", "f16")
    assert not cv.cell_tooltip("ieee", "f16").startswith("differs")
    assert "CONV-F2F-RTZ" not in cv.cell_tooltip("d3d", "f16")


def test_runner_is_free_when_a_result_arrives(monkeypatch, qtbot, wait_for) -> None:
    """The result signal doubles as "worker idle": a request made while handling a result
    goes to the worker at once, and results already posted can be delivered on demand."""
    import fpinspector.gpu as gpu
    from fpinspector.ui.gpu.gpu_worker import GpuRunner

    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: _NumpySession())
    runner = GpuRunner("auto")
    try:
        assert wait_for(lambda: runner.available is True)
        seen = []
        runner.captured.connect(lambda req, out: seen.append((req, runner._busy)))
        first = runner.request_route(np.asarray([0x3C00], np.uint16), "f16", ("f32",))
        assert wait_for(lambda: seen, 3000)
        assert seen[0] == (first, False)
        second = runner.request_route(np.asarray([0x3C01], np.uint16), "f16", ("f32",))
        assert runner._busy and not runner._pending  # sent, not parked
        assert wait_for(lambda: len(seen) == 2, 3000) and seen[1][0] == second
        runner.deliver_ready()  # nothing posted: a no-op
        assert len(seen) == 2
    finally:
        runner.shutdown()
