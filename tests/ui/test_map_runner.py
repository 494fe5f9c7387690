"""The one map runner of the Sweep and Expression panels (ui/maps/map_runner.py): a job on
its own thread with progress, cancel, Run/Cancel enabled while it runs, the map drawn while
it fills, and a teardown that cancels and waits (a window closed while a map runs)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from _sweep_fakes import ThreadsOnlyBackend
from PySide6.QtWidgets import QProgressBar, QPushButton, QWidget

from fpinspector.model.state import InspectorState
from fpinspector.ui.expression.expression_panel import ExpressionPanel
from fpinspector.ui.maps.map_runner import MapRunner
from fpinspector.ui.maps.sweep_panel import SweepPanel


class _Feed:
    """A live feed as the map panels' BlockFeed answers it: blocks and how many are done."""

    def __init__(self) -> None:
        self.blocks, self.n = object(), 0

    def done(self) -> int:
        return self.n


@pytest.fixture
def host(qtbot) -> QWidget:
    """The widget that owns a runner and its buttons (alive for the whole test)."""
    w = QWidget()
    qtbot.addWidget(w)
    return w


def _runner(host: QWidget, drawn: list) -> tuple[MapRunner, QPushButton, QPushButton]:
    run, cancel = QPushButton("Run", host), QPushButton("Cancel", host)
    runner = MapRunner(host, QProgressBar(host), run, cancel,
                       lambda blocks, meta: drawn.append((blocks, meta)))
    return runner, run, cancel


def test_a_job_runs_off_the_ui_thread_and_its_result_comes_back(qtbot, host) -> None:
    drawn: list = []
    runner, run, cancel = _runner(host, drawn)
    feed = _Feed()
    seen: dict = {}
    texts: list = []
    runner.progressed.connect(texts.append)

    def job(progress, cancel_event):
        seen["thread"] = threading.current_thread()
        runner.live = (feed, {"op": "test"})
        for k in range(1, 5):
            feed.n = k
            progress(k, 4)
            time.sleep(0.1)
        return "result"

    with qtbot.waitSignal(runner.done, timeout=10000) as sig:
        assert runner.start(job)
        assert runner.is_running() and not run.isEnabled() and cancel.isEnabled()
        assert runner.start(job) is False  # one job at a time
    assert sig.args == ["result"]
    assert seen["thread"] is not threading.main_thread()
    assert not runner.is_running() and run.isEnabled() and not cancel.isEnabled()
    assert runner.live is None
    assert drawn and drawn[-1] == (feed.blocks, {"op": "test"})  # drawn while it filled
    assert texts and texts[-1].startswith("4 of 4 ")  # the last update is never skipped


def test_an_error_becomes_words_and_the_buttons_come_back(qtbot, host) -> None:
    runner, run, cancel = _runner(host, [])

    def job(progress, cancel_event):
        raise ValueError("no such domain")

    with qtbot.waitSignal(runner.failed, timeout=10000) as sig:
        runner.start(job)
    assert sig.args == ["no such domain"]
    assert not runner.is_running() and run.isEnabled() and not cancel.isEnabled()


def test_shutdown_while_running_cancels_and_waits_for_the_thread(qtbot, host) -> None:
    runner, run, cancel = _runner(host, [])
    started, stopped = threading.Event(), threading.Event()

    def job(progress, cancel_event):
        started.set()
        while not cancel_event.wait(0.01):
            pass
        stopped.set()
        return "cancelled"

    runner.start(job)
    assert started.wait(10)
    runner.shutdown()
    assert stopped.is_set()  # the job saw the cancel and ended before shutdown returned
    assert not runner.is_running() and run.isEnabled() and not cancel.isEnabled()


class _SlowBackend(ThreadsOnlyBackend):
    """sqrt as a numpy stage that takes 50 ms a chunk: long enough to close mid-run."""

    ARITY = {"sqrt": 1}

    def make(self, op, fmt, rules, gpu):
        def stage(ops):
            time.sleep(0.05)
            x = ops[0].view(np.float32)
            with np.errstate(all="ignore"):
                r = np.sqrt(x)
            n = len(x)
            return {"model": r.view(np.uint32), "exact": np.sqrt(x.astype(np.float64)),
                    "err_model": np.zeros(n), "ok_model": np.ones(n, bool)}

        return stage, "f32", {}


def test_closing_the_sweep_panel_while_its_map_runs_stops_it(qtbot) -> None:
    p = SweepPanel(backend=_SlowBackend())
    qtbot.addWidget(p)
    p.format.setCurrentText("f32")
    p.op.setCurrentText("sqrt")
    p.domain_a.setText("bits:0:0xFFFFF")  # 16 chunks of 65536, 50 ms each
    assert p.start_sweep()
    qtbot.waitUntil(lambda: p.progress.value() > 0, timeout=10000)
    p.close()
    assert not p.is_running() and p.run_button.isEnabled()


def test_closing_the_expression_panel_while_its_map_runs_stops_it(qtbot, wait_for) -> None:
    panel = ExpressionPanel(InspectorState(), gpu=False)
    qtbot.addWidget(panel)
    panel.edit.setText("a * 2.0")
    panel.evaluate()
    m = panel.map_panel
    m.axis_a.setCurrentText("a")
    m.axis_b.setCurrentText("(none)")  # a map over a alone
    m.domain_a.setText("all")
    assert m.start()
    assert wait_for(lambda: m.runner.live is not None and m.runner.live[0].done() > 0, 60000)
    panel.shutdown()
    assert not m.is_running() and m.run_button.isEnabled()
