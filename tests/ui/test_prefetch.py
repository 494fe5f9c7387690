"""The neighbour prefetch: the conversions of the values one bit flip away, computed while
the app is idle, are the ones each value gets alone, and a bit click then converts nothing
itself (CONV-* rules: the answers are the model's, only computed ahead)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PySide6 import QtCore

from fpinspector.model.convert import VARIANTS
from fpinspector.model.formats import FORMATS
from fpinspector.ui import bridge
from fpinspector.ui.memo import Memo

#: the Conversions view's columns: the formats D3D converts into
SHOWN = [n for n, f in FORMATS.items() if f.d3d_conversion]


@pytest.fixture(autouse=True)
def _fresh_caches():
    bridge.clear_caches()
    yield
    bridge.clear_caches()


def _answers(fmt: str, pats: list[int]) -> dict:
    """Every conversion the views ask for, with its rules, as they find it now."""
    out: dict = {}
    for b in pats:
        out[("d3d", b)] = bridge.d3d_conversions(fmt, b)
        for var in VARIANTS:
            for dst in FORMATS:
                if dst == fmt:
                    continue
                try:
                    bits, rules = bridge.convert_lazy(b, fmt, dst, var)
                    out[(var, b, dst)] = (bits, rules())
                except ValueError as exc:
                    out[(var, b, dst)] = str(exc)
    return out


@pytest.mark.parametrize("fmt", ["f32", "f16", "f11", "f10", "f64"])
def test_prefetched_conversions_are_the_ones_each_value_gets_alone(fmt) -> None:
    """One model call per (format, variant) for all neighbours, each answer kept under its
    own value: the same patterns and fired rules as converting each value alone (a key
    mixed up between values, formats or variants fails here)."""
    rng = random.Random(fmt)
    width = FORMATS[fmt].bits
    specials = {"f32": [0x7F800000, 0x00000001, 0x477FF000], "f16": [0x7C00, 0x0001],
                "f11": [0x7C0, 0x001], "f10": [0x3E0, 0x001], "f64": [0x7FF0000000000000, 1]}
    for value in [rng.getrandbits(width) for _ in range(3)] + specials[fmt]:
        pats = [value ^ (1 << k) for k in range(width)]
        bridge.prefetch_conversions(fmt, pats, list(VARIANTS))
        kept = _answers(fmt, pats)
        bridge.clear_caches()
        assert _answers(fmt, pats) == kept, hex(value)
        bridge.clear_caches()


def test_a_prefetch_skips_what_is_kept_and_converts_the_rest_once(monkeypatch) -> None:
    calls = []
    real = bridge.convert
    monkeypatch.setattr(bridge, "convert", lambda bits, *a, **k: calls.append(bits.size)
                        or real(bits, *a, **k))
    bridge.prefetch_conversions("f32", [1, 2, 3], ["ieee"])
    assert calls == [3] * (len(FORMATS) - 1)  # one call per other format, all three values
    calls.clear()
    bridge.prefetch_conversions("f32", [2, 3, 4], ["ieee"])
    assert calls == [1] * (len(FORMATS) - 1)  # only the value not kept yet
    calls.clear()
    bridge.convert_lazy(4, "f32", "f16", "ieee")
    assert calls == []


def test_a_value_kept_already_counts_as_used_and_stays(monkeypatch) -> None:
    """A prefetch skips a kept value and keeps it for the next click: the value evicted
    to make room is one no prefetch asked for since."""
    monkeypatch.setattr(bridge, "_D3D", Memo(3))
    bridge.prefetch_conversions("f16", [1, 2, 3], ["d3d"])
    bridge.prefetch_conversions("f16", [1], ["d3d"])  # kept: skipped, and used
    bridge.prefetch_conversions("f16", [4], ["d3d"])
    assert ("f16", 1) in bridge._D3D and ("f16", 2) not in bridge._D3D


def test_the_memo_drops_the_least_recently_used_entry() -> None:
    m = Memo(2)
    m.put("a", 1)
    m.put("b", 2)
    assert m.get("a") == 1  # a use: "b" is now the oldest
    m.put("c", 3)
    assert "b" not in m and m.get("a") == 1 and m.get("c") == 3 and len(m) == 2
    with pytest.raises(ValueError):
        m.put("d", None)


def test_the_memo_makes_a_missing_value_once_and_keeps_it() -> None:
    m = Memo(2)
    made: list[str] = []
    assert m.get_or("a", lambda: made.append("a") or 10) == 10
    assert m.get_or("a", lambda: made.append("again") or 11) == 10  # (kept: not made again)
    assert made == ["a"] and m.get("a") == 10


def _idle(wait_for, win) -> None:
    assert wait_for(lambda: not win.prefetch.busy(), 10000)


def test_a_bit_click_after_an_idle_moment_converts_nothing_itself(make_window, qtbot,
                                                                  wait_for, monkeypatch) -> None:
    """Wide window, Conversions seen: after the idle prefetch a click on a bit shows every
    cell from kept answers, and the cells are the ones a cold click shows."""
    win = make_window()
    win.state.update(fmt="f32", bits=0x3F812345)
    _idle(wait_for, win)
    converted = []
    real = bridge.convert
    monkeypatch.setattr(bridge, "convert", lambda *a, **k: converted.append(a) or real(*a, **k))
    cells = win.editor.cells
    qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton, pos=cells.cell_rect(12).center().toPoint())
    assert win.state.snapshot.bits == 0x3F812345 ^ (1 << 12)
    assert converted == []  # every conversion of the clicked value was kept already
    view = win.conversions_view
    shown = {(v, d): view.cell_text(v, d) for v in view.variants for d in SHOWN if d != "f32"}
    tips = {(v, d): view.cell_tooltip(v, d) for v in view.variants for d in SHOWN if d != "f32"}
    decode = win.value_panel.others.item(0, 3).text()
    bridge.clear_caches()  # the same value, converted when it is shown
    win.state.update(bits=0)
    win.state.update(bits=0x3F812345 ^ (1 << 12))
    assert converted  # (this time the view did convert)
    assert {(v, d): view.cell_text(v, d) for v in view.variants for d in SHOWN
            if d != "f32"} == shown
    assert {(v, d): view.cell_tooltip(v, d) for v in view.variants for d in SHOWN
            if d != "f32"} == tips
    assert win.value_panel.others.item(0, 3).text() == decode


def _shown(win, fmt: str) -> tuple:
    """What the views show of the inspected value: every Conversions cell with its tip,
    the Decode panel's first conversion and the All formats rows' hex and rules."""
    view = win.conversions_view
    cells = {(v, d): (view.cell_text(v, d), view.cell_tooltip(v, d))
             for v in view.variants for d in SHOWN if d != fmt}
    rows = {k: (r.hex_edit.text(), r.rules.text()) for k, r in win.all_formats.rows.items()}
    return cells, win.value_panel.others.item(0, 3).text(), rows


@pytest.mark.parametrize("row, bit", [("f16", 3), ("f16", 14), ("f11", 0), ("f10", 9),
                                      ("f64", 40), ("r11g11b10", 24)])
def test_a_click_on_an_all_formats_row_after_an_idle_moment_converts_nothing_itself(
        make_window, qtbot, wait_for, monkeypatch, row, bit) -> None:
    """A bit of a row makes that row's pattern, one bit flipped, the inspected value in its
    format (a format switch; a field of the R11G11B10 word inspects that f11 or f10
    field). The prefetch converts each row's neighbours too, so the click converts
    nothing itself, and the views show what a cold click shows."""
    win = make_window()
    value = 0x3F812345
    win.state.update(fmt="f32", bits=value)
    _idle(wait_for, win)
    rows = bridge.d3d_conversions("f32", value)
    fmt, pattern = ("f10", rows["f10"][0] ^ (1 << (bit - 22))) if row == "r11g11b10" else (
        row, rows[row][0] ^ (1 << bit))
    converted = []
    real = bridge.convert
    monkeypatch.setattr(bridge, "convert", lambda *a, **k: converted.append(a) or real(*a, **k))
    cells = win.all_formats.rows[row].cells
    qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton,
                     pos=cells.cell_rect(bit).center().toPoint())
    assert (win.state.snapshot.fmt, win.state.snapshot.bits) == (fmt, pattern)
    assert converted == []
    shown = _shown(win, fmt)
    bridge.clear_caches()
    win.state.update(fmt="f32", bits=0)
    win.state.update(fmt=fmt, bits=pattern)
    assert converted  # (this time the views did convert)
    assert _shown(win, fmt) == shown


@pytest.mark.parametrize("value", [0x3F812345, 0xBF812345, 0x3F81234F])
def test_a_step_button_after_an_idle_moment_converts_nothing_itself(
        make_window, qtbot, wait_for, monkeypatch, value) -> None:
    """Next up and next down (the patterns beside the value, on either side of zero, and
    across a carry) are converted ahead as well."""
    win = make_window()
    for button in (win.editor.up_btn, win.editor.down_btn):
        win.state.update(fmt="f32", bits=value)
        _idle(wait_for, win)
        converted = []
        real = bridge.convert
        monkeypatch.setattr(bridge, "convert",
                            lambda *a, **k: converted.append(a) or real(*a, **k))
        qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton)
        assert win.state.snapshot.bits != value and converted == []
        monkeypatch.setattr(bridge, "convert", real)


def test_a_new_edit_replaces_the_prefetch_of_the_one_before(make_window, wait_for) -> None:
    win = make_window()
    win.state.update(fmt="f16", bits=0x3C00)
    win.state.update(fmt="f16", bits=0x4000)  # before the first one's idle moment
    _idle(wait_for, win)
    assert ("f16", 0x4000 ^ 1) in bridge._D3D and ("f16", 0x4000 ^ 1, "f11", "mesa") in \
        bridge._LAZY
    assert ("f16", 0x3C00 ^ 1) not in bridge._D3D


def test_variants_are_not_prefetched_for_a_conversions_view_behind_a_tab(
        make_compact_window, wait_for) -> None:
    """Compact window: the Conversions view is a tab behind another; its variants are
    converted when it is raised, the D3D row (Decode, All formats) ahead as always."""
    from fpinspector.ui.qt_utils import is_seen
    from fpinspector.ui.shell.window_layout import raise_dock

    win = make_compact_window()
    raise_dock(win, win.docks["history"])  # (Conversions heads the lower tab group)
    wait_for(lambda: not is_seen(win.conversions_view), 2000)
    assert not is_seen(win.conversions_view)
    win.state.update(fmt="f32", bits=0x40490FDB)
    _idle(wait_for, win)
    assert ("f32", 0x40490FDB ^ 1) in bridge._D3D
    assert not any(("f32", 0x40490FDB ^ 1, "f16", v) in bridge._LAZY for v in VARIANTS)


class _RenderTargetStandIn:
    """A GPU whose render targets store ``(f32 pattern >> 21) + offset`` (an independent,
    easily checked answer per pattern), counting the patterns of each conversion it runs."""

    info = {"renderer": "render-target stand-in"}

    def __init__(self) -> None:
        self.offset = 0
        self.sizes: list[int] = []

    def supports(self, op, fmt):
        return True

    def capture(self, op, *operands, format="f32"):
        return np.asarray(operands[0]).copy()

    def convert(self, bits, src, dst):
        b = np.asarray(bits).astype(np.uint32)
        self.sizes.append(b.size)
        mask = (1 << FORMATS[dst].bits) - 1
        return (((b >> np.uint32(21)) + np.uint32(self.offset)) & np.uint32(mask)).astype(
            FORMATS[dst].dtype)

    def close(self):
        pass


def _expected_row(value: int, offset: int) -> dict[str, str]:
    return {d: f"0x{((value >> 21) + offset) & ((1 << FORMATS[d].bits) - 1):0{(FORMATS[d].bits + 3) // 4}X}"
            for d in ("f16", "f11", "f10")}


def _gpu_row(win) -> dict[str, str]:
    from fpinspector.ui.inspector.conversions_view import GPU_ROW

    return {d: win.conversions_view.cell_text(GPU_ROW, d).split()[0] for d in ("f16", "f11", "f10")}


def test_the_gpu_rows_of_the_neighbours_come_in_one_job_and_a_click_shows_its_own(
        monkeypatch, make_window, qtbot, wait_for) -> None:
    import fpinspector.gpu as gpu

    session = _RenderTargetStandIn()
    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: session)
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available)
    value = 0x3F812345
    win.state.update(fmt="f32", bits=value)
    _idle(wait_for, win)
    assert wait_for(lambda: 33 in session.sizes)  # 32 flips, next up (next down: bit 0)
    assert wait_for(lambda: win.gpu.idle)
    asked = len(session.sizes)
    cells = win.editor.cells
    for bit in (12, 30, 0):
        value ^= 1 << bit
        qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton,
                         pos=cells.cell_rect(bit).center().toPoint())
        assert not win.ctl.conv_in_flight  # shown with the edit, nothing asked
        assert _gpu_row(win) == _expected_row(value, 0)
        _idle(wait_for, win)
        assert wait_for(lambda: win.gpu.idle)
    assert 1 not in session.sizes[asked:]  # no value asked for alone
    # a new session (a device switch): nothing kept is shown, the value is asked for
    session.offset = 7
    win.gpu.ready.emit(win.gpu.info)
    value ^= 1 << 5
    qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton,
                     pos=cells.cell_rect(5).center().toPoint())
    assert wait_for(lambda: _gpu_row(win) == _expected_row(value, 7))


def test_the_all_formats_rows_gpu_rows_are_asked_ahead_and_a_row_click_shows_its_own(
        monkeypatch, make_window, qtbot, wait_for) -> None:
    """After the inspected value's neighbours (32 flips and next up), the GPU is asked for
    the neighbours of the f16, f11 and f10 rows (one job each, narrow rows first; f64 has
    no batched route); a click on such a row then shows the GPU row with the edit, the
    one a request of its own gives."""
    import fpinspector.gpu as gpu

    session = _RenderTargetStandIn()
    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: session)
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available)
    assert wait_for(lambda: win.gpu.idle)
    asked = len(session.sizes)
    win.state.update(fmt="f32", bits=0x3F812345)
    _idle(wait_for, win)
    assert wait_for(lambda: win.gpu.idle and not win.ctl.conv_in_flight)
    # each job converts its batch into the three other batched formats, so 3 entries
    jobs = session.sizes[asked:]
    assert jobs == [n for n in (1, 33, 10, 11, 16) for _ in range(3)], jobs  # (1: its own)
    asked = len(session.sizes)
    cells = win.all_formats.rows["f16"].cells
    qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton,
                     pos=cells.cell_rect(6).center().toPoint())
    assert win.state.snapshot.fmt == "f16" and not win.ctl.conv_in_flight
    prefetched = _gpu_row_of(win, "f16")
    assert wait_for(lambda: win.gpu.idle)
    assert 1 not in session.sizes[asked:]  # the clicked value was not asked for alone
    win.ctl.forget_gpu_rows()
    s = win.state.snapshot
    win.state.update(bits=s.bits ^ 1)
    win.state.update(bits=s.bits)  # asked for alone this time
    assert wait_for(lambda: not win.ctl.conv_in_flight)
    assert _gpu_row_of(win, "f16") == prefetched


def _gpu_row_of(win, fmt: str) -> dict[str, str]:
    from fpinspector.ui.inspector.conversions_view import GPU_ROW

    return {d: win.conversions_view.cell_text(GPU_ROW, d) for d in SHOWN if d != fmt}


def _gated_stand_in(monkeypatch):
    """The GPU stand-in as the app's session, each conversion held until the gate opens:
    (session, gate)."""
    import threading

    import fpinspector.gpu as gpu

    session = _RenderTargetStandIn()
    gate = threading.Event()
    real = session.convert

    def gated(bits, src, dst):
        gate.wait(5)
        return real(bits, src, dst)

    session.convert = gated
    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: session)
    return session, gate


def test_an_edit_drops_the_gpu_batches_still_waiting_for_the_one_that_runs(
        monkeypatch, make_window, wait_for) -> None:
    """One job ahead at a time: batches asked for meanwhile wait and run in order, and an
    edit drops the ones still waiting (the new value's prefetch asks for its own)."""
    session, gate = _gated_stand_in(monkeypatch)
    win = make_window(gpu="auto")
    monkeypatch.setattr(win.prefetch, "_plan", lambda fmt, bits: iter(()))  # asked by hand
    try:
        gate.set()
        assert wait_for(lambda: win.gpu is not None and win.gpu.available and win.gpu.idle)
        for edit in (False, True):  # (other patterns the second time: none kept)
            gate.clear()
            asked, p = len(session.sizes), 100 * edit
            win.ctl.prefetch_gpu_rows("f32", [p + 1, p + 2, p + 3])  # runs (held at the gate)
            win.ctl.prefetch_gpu_rows("f16", [p + 4, p + 5, p + 6, p + 7])  # waits
            win.ctl.prefetch_gpu_rows("f32", [p + 8, p + 9, p + 10, p + 11, p + 12])  # waits
            if edit:
                win.state.update(fmt="f32", bits=0x40490FDB)  # its own row: 1 pattern
            gate.set()
            assert wait_for(lambda: win.gpu.idle and not win.ctl.conv_in_flight, 5000)
            want = [3, 1] if edit else [3, 4, 5]
            assert session.sizes[asked::3] == want
    finally:
        gate.set()


def test_rows_asked_ahead_go_after_every_other_request_and_replace_none(
        monkeypatch, wait_for) -> None:
    """The GPU worker runs one job at a time: while it is busy, the op's capture and the
    shown value's row wait before the neighbours' rows, and a newer request ahead only
    replaces an older one ahead."""
    from fpinspector.ui.gpu.gpu_worker import GpuRunner

    session, gate = _gated_stand_in(monkeypatch)
    runner = GpuRunner("auto")
    try:
        assert wait_for(lambda: runner.available is True)
        order = []
        runner.captured.connect(lambda req, out: order.append(req))
        busy = runner.request_route(np.asarray([1], np.uint32), "f32", ("f16",))
        old_ahead = runner.request_route(np.arange(4, dtype=np.uint32), "f32", ("f16",),
                                         ahead=True)
        shown = runner.request_route(np.asarray([2], np.uint32), "f32", ("f16",))
        capture = runner.request("mov", (np.asarray([3], np.uint32),), "f32")
        ahead = runner.request_route(np.arange(8, dtype=np.uint32), "f32", ("f16",), ahead=True)
        gate.set()
        assert wait_for(lambda: len(order) == 4, 5000)
        assert order == [busy, capture, shown, ahead] and old_ahead not in order
    finally:
        gate.set()
        runner.shutdown()


def test_a_batch_the_model_refuses_leaves_the_other_steps_running(
        make_window, wait_for, monkeypatch) -> None:
    win = make_window()
    real = bridge.prefetch_conversions

    def refuse_d3d(fmt, pats, variants):
        if variants == ["d3d"]:
            raise ValueError("conversion failed: a stand-in refusal")
        real(fmt, pats, variants)

    monkeypatch.setattr(bridge, "prefetch_conversions", refuse_d3d)
    win.state.update(fmt="f32", bits=0x40490FDB)
    _idle(wait_for, win)
    assert ("f32", 0x40490FDA) not in bridge._D3D
    assert ("f32", 0x40490FDA, "f16", "mesa") in bridge._LAZY
    win.state.update(bits=0x40490FDA)  # its D3D row converted by the edit itself
    assert win.conversions_view.cell_text("d3d", "f16").startswith("0x4248")


def test_the_prefetch_waits_for_the_edits_own_gpu_answers(qtbot, wait_for) -> None:
    """While the edit's GPU answers are still to come nothing is prefetched (a step run
    before them puts their paint off); once they came, after an idle moment, it is."""
    from PySide6 import QtWidgets

    from fpinspector.model.state import InspectorState
    from fpinspector.ui.inspector.prefetch import IDLE_MS, NeighbourPrefetch

    state, pending = InspectorState(), [True]
    pf = NeighbourPrefetch(state, ["d3d"], QtWidgets.QWidget(), wait=lambda: pending[0])
    state.update(fmt="f16", bits=0x3C00)
    qtbot.wait(4 * IDLE_MS)
    assert pf.busy() and ("f16", 0x3C00 ^ 1) not in bridge._D3D
    pending[0] = False
    assert wait_for(lambda: not pf.busy(), 5000)
    assert ("f16", 0x3C00 ^ 1) in bridge._D3D


def test_a_gpu_that_never_answers_delays_the_prefetch_only_a_while(qtbot, wait_for) -> None:
    from PySide6 import QtWidgets

    from fpinspector.model.state import InspectorState
    from fpinspector.ui.inspector.prefetch import NeighbourPrefetch

    state = InspectorState()
    pf = NeighbourPrefetch(state, ["d3d"], QtWidgets.QWidget(), wait=lambda: True)
    state.update(fmt="f16", bits=0x3C00)
    assert wait_for(lambda: not pf.busy(), 5000)
    assert ("f16", 0x3C00 ^ 1) in bridge._D3D


def test_an_edit_that_outlasts_the_idle_wait_gets_an_idle_moment_after_it(
        qtbot, qapp, wait_for) -> None:
    """An edit whose own work (views, paint) runs past ``IDLE_MS``: the idle wait's timer
    fires late, and no step runs then (it came right after, or before, that edit's paint,
    on a loaded machine); the wait starts again, and the neighbours are converted after
    it (bridge's kept answers as the witness)."""
    import time

    from PySide6 import QtWidgets

    from fpinspector.model.state import InspectorState
    from fpinspector.ui.inspector.prefetch import IDLE_MS, LATE_MS, NeighbourPrefetch

    state = InspectorState()
    pf = NeighbourPrefetch(state, ["d3d"], QtWidgets.QWidget())
    state.update(fmt="f16", bits=0x3C00)
    time.sleep((IDLE_MS + 4 * LATE_MS) / 1000)  # (the edit's views and paint, slow)
    qapp.processEvents()  # the overdue timer fires here
    assert pf.busy() and ("f16", 0x3C00 ^ 1) not in bridge._D3D
    assert wait_for(lambda: not pf.busy(), 5000)
    assert ("f16", 0x3C00 ^ 1) in bridge._D3D
