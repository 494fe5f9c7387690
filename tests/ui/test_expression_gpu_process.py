"""The Expression dock on a real GPU process: GPU ▸ Device ▸ the other Mesa driver runs the
expression there (this process keeps its first driver), with that driver's words; a GPU
process that dies is said in the dock, the model's result stays, and the next evaluation
starts a new one; the process goes with the dock; a dock told to use a GPU process never
imports GL in the window's process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from PySide6.QtCore import QObject, Signal

from fpinspector.gpu.devices import SOFTWARE_DRIVERS, DeviceChoice, renderer_family
from fpinspector.model.state import InspectorState
from fpinspector.ui.expression.expression_panel import ExpressionPanel

pytestmark = pytest.mark.gpu


class _Runner(QObject):
    """The GpuRunner's part the dock reads: ``choice`` and ``switched``."""

    switched = Signal(object)

    def __init__(self, choice) -> None:
        super().__init__()
        self.choice = choice

    def switch(self, choice, info=None) -> None:
        self.choice = choice
        self.switched.emit(info or {})


def _gpu_hex(report) -> list[str]:
    return [c["gpu"]["hex"] for c in report["result"]["components"]]


def _cli_gpu_hex(driver: str) -> list[str]:
    """softpipe's (or llvmpipe's) answer from a fresh `fpinspector expr --driver` process."""
    env = {k: v for k, v in os.environ.items() if k != "GALLIUM_DRIVER"}
    run = subprocess.run([sys.executable, "-m", "fpinspector", "expr", "log2(a)", "--set",
                          "a=0x00000003", "--gpu", "--json", "--driver", driver],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    rep = json.loads(run.stdout)
    assert renderer_family(rep["gpu"]["renderer"]) == driver
    return [c["gpu"]["hex"] for c in rep["result"]["components"]]


def test_the_dock_follows_a_switch_to_the_other_driver(qtbot, wait_for):
    """log2 of the denormal 0x00000003: llvmpipe flushes it (-127), softpipe does not, so
    the dock's GPU words show which driver ran them; they equal a fresh process's on that
    driver. Then the GPU process is killed: the dock says so and keeps the model's result;
    the next evaluation runs on a new GPU process; closing the dock ends it."""
    runner = _Runner(DeviceChoice())
    p = ExpressionPanel(InspectorState(), gpu=True)
    qtbot.addWidget(p)
    try:
        p.bridge.follow(runner)
        p.edit.setText("log2(a)")
        p.evaluate()
        p.bindings.set_typed("a", "0x00000003")
        p.evaluate()
        if not wait_for(lambda: p.report is not None and "gpu" in p.report["steps"][0], 60000):
            pytest.skip(p.gpu_status.text())
        family = renderer_family(p.bridge.info["renderer"])
        if family not in SOFTWARE_DRIVERS:
            pytest.skip(f"{p.bridge.info['renderer']} is not one of Mesa's software drivers")
        other = next(d for d in SOFTWARE_DRIVERS if d != family)
        want = _cli_gpu_hex(other)
        here = _gpu_hex(p.report)
        runner.switch(DeviceChoice(driver=other))  # this process cannot: a GPU process
        assert wait_for(lambda: "GPU process" in p.gpu_status.text()
                        and "gpu" in p.report["steps"][0], 60000), p.gpu_status.text()
        assert p.gpu_status.text().startswith(f"GPU: {other}")
        assert _gpu_hex(p.report) == want
        if {family, other} == set(SOFTWARE_DRIVERS):
            assert want != here  # (the two drivers differ on this input)
        model = p.result.text().split("\nGPU ")[0]  # the model's lines (the GPU's follow)
        proc = p.bridge.gpu.session._proc
        proc.kill()
        proc.join(10)
        p.evaluate()
        assert wait_for(lambda: "stopped" in p.gpu_status.text(), 30000), p.gpu_status.text()
        assert "exit code -9" in p.gpu_status.text()
        assert "the next evaluation starts it again" in p.gpu_status.text()
        assert p.result.text() == model and "gpu" not in p.report["steps"][0]  # nothing lost
        assert wait_for(lambda: p.bridge.gpu is None, 10000)
        p.evaluate()
        assert wait_for(lambda: "GPU process" in p.gpu_status.text()
                        and "gpu" in p.report["steps"][0], 60000), p.gpu_status.text()
        assert _gpu_hex(p.report) == want
        proc = p.bridge.gpu.session._proc
        assert proc.is_alive()
    finally:
        p.shutdown()
    assert not proc.is_alive()  # the GPU process went with the dock


def test_a_dock_on_a_gpu_process_imports_no_gl_here():
    """The window's process never loads moderngl when the dock's expressions run in a GPU
    process (checked in a fresh process: this one has GL already)."""
    code = textwrap.dedent("""
        import json, sys, time
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from fpinspector.model.state import InspectorState
        from fpinspector.ui.expression.expression_panel import ExpressionPanel
        p = ExpressionPanel(InspectorState(), gpu=True, gpu_process=True)
        end = time.monotonic() + 60
        while time.monotonic() < end and not (p.report and "gpu" in p.report["steps"][0]):
            app.processEvents()
            time.sleep(0.01)
        out = {"gl": "moderngl" in sys.modules, "status": p.gpu_status.text(),
               "gpu": bool(p.report and "gpu" in p.report["steps"][0])}
        p.shutdown()
        print(json.dumps(out))
    """)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    if not out["gpu"] and "No GPU" in out["status"]:
        pytest.skip(out["status"])
    assert out["gpu"] and "GPU process" in out["status"], out
    assert out["gl"] is False
