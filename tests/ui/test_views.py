"""Conversions view (docs/rules.md variants side by side), word reinterpretation, GPU worker,
and the ``gui`` command."""

from __future__ import annotations

import threading
import time

import numpy as np
from PySide6 import QtCore, QtWidgets


def test_conversions_view_disagreement_case_1(make_window) -> None:
    """docs/rules.md case 1 (CONV-F2F-RTZ): 1 + 3*2^-11 -> f16 is 0x3C01 under d3d, 0x3C02 RNE.

    Oracle for the RNE rows: numpy's float16 cast (round to nearest even).
    """
    win = make_window()
    x = 1 + 3 * 2.0 ** -11
    rne = int(np.float16(x).view(np.uint16))
    assert rne == 0x3C02
    win.state.update(fmt="f32", bits=int(np.float32(x).view(np.uint32)))
    cv = win.conversions_view
    assert cv.cell_text("d3d", "f16").startswith("0x3C01")
    assert cv.cell_text("ieee", "f16").startswith(f"0x{rne:04X}")
    assert cv.is_highlighted("ieee", "f16") and not cv.is_highlighted("d3d", "f16")
    cv.select("d3d", "f16")
    text = cv.anatomy.toPlainText()
    assert "0x3C01" in text and "0x3C02" in text  # both neighbours named


def test_rounding_anatomy_of_a_new_value_shows_from_its_top(make_window, qtbot) -> None:
    """A new value's anatomy replaces the old one whole: shown from its first line, no
    selection left over from the old text."""
    win = make_window()
    win.resize(1800, 1000)
    win.show()
    qtbot.waitExposed(win)
    win.docks["conversions"].raise_()
    cv = win.conversions_view
    win.state.update(fmt="f32", bits=0x3F800001)
    QtWidgets.QApplication.processEvents()
    cv.select("d3d", "f16")
    assert "8388609/8388608" in cv.anatomy.toPlainText()
    cv.anatomy.setFixedHeight(48)  # (a few lines: the anatomy scrolls)
    QtWidgets.QApplication.processEvents()
    bar = cv.anatomy.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(bar.maximum())
    cv.anatomy.selectAll()
    win.state.update(bits=0x3F800FFF)
    QtWidgets.QApplication.processEvents()
    text = cv.anatomy.toPlainText()
    assert text.startswith("f32 → f16 by d3d") and "8392703/8388608" in text
    assert bar.value() == 0
    assert not cv.anatomy.textCursor().hasSelection()


def test_conversions_view_saturation_case_2(make_window) -> None:
    """docs/rules.md case 2 (CONV-F2F-SAT): 1e6 -> f16 saturates to 0x7BFF under d3d; INF by RNE."""
    win = make_window()
    win.state.update(fmt="f32", bits=int(np.float32(1e6).view(np.uint32)))
    cv = win.conversions_view
    assert cv.cell_text("d3d", "f16").startswith("0x7BFF")
    with np.errstate(over="ignore"):
        inf16 = int(np.float16(1e6).view(np.uint16))
    assert cv.cell_text("ieee", "f16").startswith(f"0x{inf16:04X}")


def test_word_view_r11g11b10_fields(make_window) -> None:
    """FMT-R11G11B10: R = bits 0-10 (f11), G = 11-21 (f11), B = 22-31 (f10); decoded by DEC-*.

    Oracle: shifting the word by hand and decoding each field with the DEC-NORMAL formula.
    """
    win = make_window()
    r, g, b = 0x3C0, 0x400, 0x1E0  # 1.0, 2.0, 1.0
    word = r | g << 11 | b << 22
    win.state.update(word=word)
    rd = win.word_view.readings()
    assert rd["R11G11B10 R (f11, bits 10-0)"] == "0x3C0 = 1.0"
    assert rd["R11G11B10 G (f11, bits 21-11)"] == "0x400 = 2.0"
    assert rd["R11G11B10 B (f10, bits 31-22)"] == "0x1E0 = 1.0"


def test_word_view_rgb9e5(make_window) -> None:
    """CONV-RGB9E5: channel = mantissa / 512 * 2^(E - 15); word with E=16, R=256 -> 1.0."""
    win = make_window()
    word = 256 | (0 << 9) | (511 << 18) | (16 << 27)
    win.state.update(word=word)
    rd = win.word_view.readings()
    assert float(rd["R9G9B9E5 R (CONV-RGB9E5)"]) == 256 / 512 * 2.0 ** (16 - 15)
    assert float(rd["R9G9B9E5 G (CONV-RGB9E5)"]) == 0.0
    assert float(rd["R9G9B9E5 B (CONV-RGB9E5)"]) == 511 / 512 * 2.0


class _SlowSession:
    """Stands in for GpuSession: records the thread and how many captures ran."""

    info = {"renderer": "fake GPU", "version": "test"}

    def __init__(self) -> None:
        self.threads: set[str] = set()
        self.calls = 0

    def supports(self, op, fmt):
        return True

    def capture(self, op, *operands, format="f32"):
        self.threads.add(threading.current_thread().name)
        self.calls += 1
        time.sleep(0.05)
        return np.asarray(operands[0]).copy()

    def convert(self, bits, src, dst):
        return np.zeros(np.shape(bits), np.uint16)

    def close(self):
        pass


def test_gpu_capture_runs_off_the_ui_thread_and_coalesces(qtbot, monkeypatch, wait_for) -> None:
    """Edits stay instant: captures run on the worker thread; stale requests are dropped."""
    import fpinspector.gpu as gpu
    from fpinspector.ui.gpu.gpu_worker import GpuRunner

    fake = _SlowSession()
    monkeypatch.setattr(gpu, "open_session", lambda *a, **k: fake)
    runner = GpuRunner("auto")
    try:
        assert wait_for(lambda: runner.available is True)
        got = []
        runner.captured.connect(lambda i, out: got.append((i, int(np.asarray(out).reshape(-1)[0]))))
        t0 = time.perf_counter()
        ids = [runner.request("mov", (np.asarray([v], np.uint32),), "f32") for v in range(10)]
        assert time.perf_counter() - t0 < 0.05  # requesting never waits for the GPU
        assert wait_for(lambda: got and got[-1][0] == ids[-1], 5000)
        assert got[-1][1] == 9
        assert fake.calls < 10  # the requests queued behind a running capture were coalesced
        assert threading.current_thread().name not in fake.threads
    finally:
        runner.shutdown()


def test_gui_command_is_registered_and_lazy() -> None:
    """``fpinspector`` with no arguments runs the gui command; the CLI imports no Qt for it."""
    from fpinspector import cli

    parser, runners = cli.build_parser()
    assert "gui" in runners
    args = parser.parse_args(["gui", "--no-gpu"])
    assert args.no_gpu is True


def test_gui_command_runs_the_app(monkeypatch) -> None:
    import fpinspector.ui.shell.app as app
    from fpinspector import cli

    seen = {}
    monkeypatch.setattr(app, "main", lambda gpu="auto": seen.setdefault("gpu", gpu) and 0)
    assert cli.main([]) == 0
    assert seen["gpu"] == "auto"
    seen.clear()
    assert cli.main(["gui", "--no-gpu"]) == 0
    assert seen["gpu"] == "off"


def test_conversion_cell_tooltip_names_the_fired_rules(make_window) -> None:
    """CONV-F2F-SAT: 1e6 -> f16 under d3d saturates; the cell's tooltip names the rule."""
    from PySide6 import QtCore, QtGui, QtWidgets

    win = make_window()
    win.state.update(fmt="f32", bits=int(np.float32(1e6).view(np.uint32)))
    cv = win.conversions_view
    assert "CONV-F2F-SAT" in cv.cell_tooltip("d3d", "f16")
    assert cv.cell_tooltip("ieee", "f16").startswith("differs from d3d (0x7BFF)")
    # a real hover shows the same text (computed on demand)
    win.show()
    r, c = cv._rows.index("d3d"), cv._targets.index("f16")
    assert "CONV-F2F-SAT" in cv.table.item(r, c).toolTip()  # the D3D row's rules are known
    r = cv._rows.index("ieee")  # another encoder's rules are computed on hover
    pos = cv.table.visualItemRect(cv.table.item(r, c)).center()
    ev = QtGui.QHelpEvent(QtCore.QEvent.Type.ToolTip, pos, cv.table.viewport().mapToGlobal(pos))
    assert QtWidgets.QApplication.sendEvent(cv.table.viewport(), ev)  # (shown by the view)
    assert QtWidgets.QToolTip.text() == cv.cell_tooltip("ieee", "f16")
    assert QtWidgets.QToolTip.text().startswith("differs from d3d (0x7BFF)")


def test_a_failing_model_shows_a_message_not_a_traceback(make_window, monkeypatch) -> None:
    """Bad input or a model failure reaches the user as an inline message."""
    from fpinspector.ui import bridge_ops

    def broken(*a, **k):
        raise ZeroDivisionError("simulated engine bug")

    win = make_window()
    monkeypatch.setattr(bridge_ops, "evaluate_op", broken)
    # (an earlier test in this process may have cached add's outcome on these operands:
    # the failing engine must be asked, not the cache)
    bridge_ops.clear_caches()
    win.state.update(op="add")
    text = win.ops_view.error_label.text()
    assert "the rule engine failed: ZeroDivisionError: simulated engine bug" in text
    assert win.ops_view.model_box.value.text() == "—"


def test_conversion_columns_fit_their_text_and_never_narrow(qtbot) -> None:
    """Each cell's text fits its column after every edit (only new text is measured), and a
    shorter value never narrows a column (no relayout per edit)."""
    from fpinspector.model.state import InspectorState
    from fpinspector.ui.inspector.conversions_view import ConversionsView

    state = InspectorState()
    view = ConversionsView(state)
    qtbot.addWidget(view)
    view.show()
    t = view.table
    for fmt, bits in (("f32", 0x3F800000), ("f32", 0x00000001), ("f32", 0xC788B840),
                      ("f32", 0x3F800000), ("f16", 0x0001), ("f64", 0x0000000000000001)):
        before = [t.columnWidth(c) for c in range(t.columnCount())]
        src = view._src
        state.update(fmt=fmt, bits=bits)
        fm = t.fontMetrics()
        for r in range(t.rowCount()):
            for c in range(t.columnCount()):
                item = t.item(r, c)
                if item is not None:
                    widest = max(fm.horizontalAdvance(line) for line in item.text().split("\n"))
                    assert widest < t.columnWidth(c), item.text()  # (pattern over value)
        if view._src == src:
            assert all(t.columnWidth(c) >= w for c, w in enumerate(before))


def test_a_narrow_conversions_dock_puts_the_anatomy_under_every_row(qtbot, wait_for) -> None:
    """590 px wide (the Conversions tab at 1280x720): the rounding anatomy goes under the
    table, which shows every variant row and more of its columns than beside it; 1000 px
    wide, beside it again."""
    from fpinspector.model.state import InspectorState
    from fpinspector.ui.inspector.conversions_view import ConversionsView

    state = InspectorState()
    view = ConversionsView(state)
    qtbot.addWidget(view)
    state.update(fmt="f32", bits=0x00800000)
    view.resize(1000, 620)
    view.show()
    qtbot.waitExposed(view)
    view.resize(590, 620)
    t = view.table
    assert wait_for(lambda: view._split.orientation() == QtCore.Qt.Orientation.Vertical
                    and t.viewport().height() >= t.verticalHeader().length())
    assert t.width() >= view.width() - 20  # the whole dock's width for the columns
    assert view.anatomy.height() >= 200
    view.resize(1000, 620)
    assert wait_for(lambda: view._split.orientation() == QtCore.Qt.Orientation.Horizontal)


def test_an_operand_edit_lists_the_steps_only_when_the_why_tab_shows_them(
        make_compact_window, qtbot, wait_for) -> None:
    """Behind its tab the Why view lists nothing, and nothing lists the engine's steps for
    it (about 0.5 ms of every operand edit); raised, it shows the steps and rules of the
    op as evaluated (mul of 1.5 and 2.0: exact, so the steps say so)."""
    import numpy as np

    from fpinspector.model.engine import evaluate as engine_evaluate
    from fpinspector.ui import bridge_ops

    win = make_compact_window()
    win.state.update(op="mul", op_format="f32", operands=[0x3FC00000, 0x40000000, 0])
    s = win.state.snapshot
    outcome = bridge_ops.evaluate(s.op, s.operands, s.op_format, s.rule_set, s.options)
    assert "steps" not in outcome.__dict__ and "rules" not in outcome.__dict__
    ev = engine_evaluate("mul", np.asarray([0x3FC00000], np.uint32),
                         np.asarray([0x40000000], np.uint32), format="f32", rules=s.rule_set)
    want = [f"{i}. {t}" for i, t in enumerate(ev.steps_at(0), 1)]
    assert any("0x3FC00000" in t for t in want)
    win.docks["why"].raise_()
    assert wait_for(lambda: win.why_view.lines() == want, 5000)
    assert ", ".join(ev.rules_at(0)) in win.why_view.heading.text()
