"""The Expression dock follows GPU ▸ Device: its GPU column runs on the device the window's
GPU runner switched to (a GL device and driver, or a WebGPU adapter), and its label says
which. Before, ExprGpu opened the default device once and kept it after a switch, and the
label named the old device."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QObject, Signal

from fpinspector.gpu.devices import DeviceChoice
from fpinspector.model.state import InspectorState
from fpinspector.ui.expression.expression_panel import ExpressionPanel


class _Runner(QObject):
    """The GpuRunner's part the dock reads: ``choice`` and ``switched``."""

    switched = Signal(object)

    def __init__(self, choice=None) -> None:
        super().__init__()
        self.choice = choice

    def switch(self, choice) -> None:
        self.choice = choice
        self.switched.emit({"renderer": f"renderer of {choice.label()}"})


class _FakeExprGpu:
    """ExprGpu without a GPU: records the device it was opened on; the result of every
    step is the model's own words (the judge then says allowed everywhere)."""

    opened: list = []

    def __init__(self, path="auto", api=None, adapter=None, choice=None) -> None:
        from fpinspector.gpu.devices import selected_device

        self.choice = choice = selected_device() if choice is None else choice
        self.info = {"renderer": f"renderer of {choice.label()}", "path": "compute"}
        _FakeExprGpu.opened.append(choice)
        self.closed = threading.Event()

    def submit_job(self, job):
        from concurrent.futures import Future

        class _Runner:
            def unsupported_reason(self, program):
                return None

            def run(self, program, slots, variant="precise"):
                n = len(program.steps) if variant == "precise" else 1
                return [np.zeros((), np.uint32)] * n

        fut: Future = Future()  # answered on another thread, as ExprGpu's pool does
        threading.Thread(target=lambda: fut.set_result(job(_Runner())), daemon=True).start()
        return fut

    def close(self) -> None:
        self.closed.set()


def test_a_device_switch_reopens_the_dock_on_the_new_device(qtbot, wait_for, monkeypatch):
    import fpinspector.gpu.expr_capture as expr_capture

    _FakeExprGpu.opened = []
    monkeypatch.setattr(expr_capture, "ExprGpu", _FakeExprGpu)
    gl = DeviceChoice(index=0)
    runner = _Runner(gl)
    monkeypatch.setattr("fpinspector.gpu.devices._SELECTED", gl, raising=False)
    p = ExpressionPanel(InspectorState(), gpu=True)
    qtbot.addWidget(p)
    try:
        p.bridge.follow(runner)
        p.evaluate()
        assert wait_for(lambda: "renderer of device 0" in p.gpu_status.text(), 10000), \
            p.gpu_status.text()
        assert _FakeExprGpu.opened[-1] == gl
        assert p.gpu_status.text() == "GPU: renderer of device 0 (device 0, compute path)"
        first = p.bridge.gpu
        vk = DeviceChoice(api="vulkan", adapter=0)
        runner.switch(vk)
        assert wait_for(lambda: "vulkan adapter 0" in p.gpu_status.text()
                        and "switching" not in p.gpu_status.text(), 10000), p.gpu_status.text()
        assert _FakeExprGpu.opened[-1] == vk and first.closed.is_set()
        assert p.gpu_status.text() == ("GPU: renderer of vulkan adapter 0 (vulkan adapter 0, "
                                       "compute path)")
        assert "gpu" in p.report  # the expression ran again, on the new device
    finally:
        p.shutdown()


def test_expr_gpu_opens_the_gl_device_and_driver_it_is_given(monkeypatch):
    """ExprGpu passes a GL choice's device, driver and backend to open_session (it passed
    api="gl" alone: GPU ▸ Device's GL device was ignored) and a WebGPU choice's adapter."""
    import fpinspector.gpu.expr_capture as expr_capture

    seen = []

    class _Session:
        info = {"renderer": "r", "paths": ["compute"]}
        path = "compute"
        api = "gl"

        def close(self):
            pass

    def fake_open(path="auto", **kw):
        seen.append(kw)
        return _Session()

    monkeypatch.setattr(expr_capture, "open_session", fake_open)
    for choice, want in ((DeviceChoice(index=1, driver="softpipe"),
                          {"device": 1, "driver": "softpipe", "backend": None}),
                         (DeviceChoice(api="vulkan", adapter=2), {"api": "vulkan", "adapter": 2})):
        gpu = expr_capture.ExprGpu(choice=choice)
        try:
            assert gpu.choice == choice and seen[-1] == want
        finally:
            gpu._pool.shutdown(wait=True)


@pytest.mark.gpu
def test_the_dock_runs_on_a_webgpu_adapter_after_a_switch(qtbot, wait_for):
    """A real switch: llvmpipe through GL, then lavapipe through Vulkan (wgpu): the label
    names the adapter and the GPU column is back."""
    from fpinspector.gpu.wgpu_devices import adapters_or_none

    if not any(a.family == "lavapipe" for a in adapters_or_none()):
        pytest.skip("needs lavapipe through Vulkan")
    runner = _Runner(DeviceChoice())
    p = ExpressionPanel(InspectorState(), gpu=True)
    qtbot.addWidget(p)
    try:
        p.bridge.follow(runner)
        p.evaluate()
        if not wait_for(lambda: p.report is not None and "gpu" in p.report, 30000):
            pytest.skip(p.gpu_status.text())
        assert "(default device, compute path)" in p.gpu_status.text()
        runner.switch(DeviceChoice(api="vulkan", adapter=0))
        assert wait_for(lambda: "vulkan adapter 0" in p.gpu_status.text()
                        and "gpu" in (p.report or {}), 30000), p.gpu_status.text()
        assert "via Vulkan" in p.gpu_status.text()
    finally:
        p.shutdown()


def test_the_result_line_says_what_its_error_is_against(qtbot) -> None:
    """Every ULP error says what it is measured against: an expression's exact value is of
    the raw inputs (a flush is one of the errors it measures), and the line says so."""
    p = ExpressionPanel(InspectorState(), gpu=False)
    qtbot.addWidget(p)
    try:
        p.edit.setText("a * b")
        assert p.evaluate()
        assert "ULP vs exact of the raw inputs (f32)" in p.result.text(), p.result.text()
    finally:
        p.shutdown()


def test_a_driver_this_process_cannot_switch_to_says_what_to_do(qtbot, wait_for, monkeypatch):
    """Mesa keeps a display's first driver for a whole process (checked on this machine:
    a second EGL context asking for softpipe after llvmpipe got llvmpipe, released or not;
    a fresh process got softpipe). GPU ▸ Device ▸ softpipe then cannot reach the
    Expression dock, which runs in the window's process: the dock says so and names the
    ways to run the expression there (the app started on softpipe; the CLI's expr with
    --driver softpipe: tests/gpu/test_expr_cli_driver.py runs it there)."""
    import fpinspector.gpu.expr_capture as expr_capture
    from fpinspector.gpu.errors import DriverSwitchNeeded

    class _Refused(_FakeExprGpu):
        def __init__(self, path="auto", api=None, adapter=None, choice=None) -> None:
            if choice is not None and choice.driver == "softpipe":
                raise DriverSwitchNeeded(
                    f"{choice.label()}: this process already runs llvmpipe on that device "
                    "and Mesa keeps a display's first driver for the whole process, so "
                    "softpipe needs a separate GPU process")
            super().__init__(path, api, adapter, choice)

    monkeypatch.setattr(expr_capture, "ExprGpu", _Refused)
    runner = _Runner(DeviceChoice(index=0))
    monkeypatch.setattr("fpinspector.gpu.devices._SELECTED", runner.choice, raising=False)
    p = ExpressionPanel(InspectorState(), gpu=True)
    qtbot.addWidget(p)
    try:
        p.bridge.follow(runner)
        p.evaluate()
        assert wait_for(lambda: "renderer of device 0" in p.gpu_status.text(), 10000), p.gpu_status.text()
        runner.switch(DeviceChoice(index=0, driver="softpipe"))
        assert wait_for(lambda: "softpipe" in p.gpu_status.text()
                        and "switching" not in p.gpu_status.text(), 10000), p.gpu_status.text()
        text = p.gpu_status.text()
        assert "Mesa keeps a display's first driver" in text
        assert "fpinspector gui --driver softpipe" in text
        assert 'fpinspector expr "…" --gpu --driver softpipe' in text
        # wrapped: the long line never widens the dock (a docked panel was cut at 1280x720)
        assert p.minimumSizeHint().width() < 700, p.minimumSizeHint()
    finally:
        p.shutdown()
