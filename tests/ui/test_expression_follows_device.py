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


def test_a_driver_this_process_cannot_open_runs_in_a_gpu_process(qtbot, wait_for,
                                                                 monkeypatch):
    """Mesa keeps a display's first driver for a whole process (checked on this machine:
    a second EGL context asking for softpipe after llvmpipe got llvmpipe, released or not;
    a fresh process got softpipe). GPU ▸ Device ▸ softpipe then reaches the Expression
    dock through a GPU child process (ExprChild), as it reaches the inspector and the maps;
    the label says so. Before, the dock refused with "Expressions run in this window's own
    process" and named `fpinspector expr --driver`."""
    import fpinspector.gpu.expr_capture as expr_capture
    import fpinspector.gpu.expr_child as expr_child
    from fpinspector.gpu.errors import DriverSwitchNeeded

    class _Refused(_FakeExprGpu):
        def __init__(self, path="auto", api=None, adapter=None, choice=None) -> None:
            if choice is not None and choice.driver == "softpipe":
                raise DriverSwitchNeeded(
                    f"{choice.label()}: this process already runs llvmpipe on that device "
                    "and Mesa keeps a display's first driver for the whole process, so "
                    "softpipe needs a separate GPU process")
            super().__init__(path, api, adapter, choice)

    class _Child(_FakeExprGpu):
        def __init__(self, path="auto", choice=None) -> None:
            super().__init__(path, choice=choice)
            self.info = {**self.info, "renderer": "softpipe", "path": "fragment",
                         "process": "child"}

    _FakeExprGpu.opened = []
    monkeypatch.setattr(expr_capture, "ExprGpu", _Refused)
    monkeypatch.setattr(expr_child, "ExprChild", _Child)
    runner = _Runner(DeviceChoice(index=0))
    monkeypatch.setattr("fpinspector.gpu.devices._SELECTED", runner.choice, raising=False)
    p = ExpressionPanel(InspectorState(), gpu=True)
    qtbot.addWidget(p)
    try:
        p.bridge.follow(runner)
        p.evaluate()
        assert wait_for(lambda: "renderer of device 0" in p.gpu_status.text(), 10000), \
            p.gpu_status.text()
        runner.switch(DeviceChoice(index=0, driver="softpipe"))
        assert wait_for(lambda: "softpipe" in p.gpu_status.text()
                        and "switching" not in p.gpu_status.text(), 10000), p.gpu_status.text()
        assert p.gpu_status.text() == ("GPU: softpipe (device 0 / softpipe, fragment path, "
                                       "GPU process)")
        assert isinstance(p.bridge.gpu, _Child) and "gpu" in p.report
        # wrapped: the long line never widens the dock (a docked panel was cut at 1280x720)
        assert p.minimumSizeHint().width() < 700, p.minimumSizeHint()
    finally:
        p.shutdown()


def test_a_runner_in_a_gpu_process_sends_the_dock_straight_to_one(qtbot, wait_for,
                                                                  monkeypatch):
    """The window's runner says it opened the device in a GPU process: the dock opens a
    GPU process too, without trying (and importing GL for) this process first."""
    import fpinspector.gpu.expr_capture as expr_capture
    import fpinspector.gpu.expr_child as expr_child

    tried = []

    class _InProcess(_FakeExprGpu):
        def __init__(self, *a, **kw) -> None:
            tried.append(kw.get("choice"))
            super().__init__(*a, **kw)

    class _Child(_FakeExprGpu):
        def __init__(self, path="auto", choice=None) -> None:
            super().__init__(path, choice=choice)
            self.info = {**self.info, "process": "child"}

    monkeypatch.setattr(expr_capture, "ExprGpu", _InProcess)
    monkeypatch.setattr(expr_child, "ExprChild", _Child)
    runner = _Runner(DeviceChoice(index=0))
    p = ExpressionPanel(InspectorState(), gpu=True)
    qtbot.addWidget(p)
    try:
        p.bridge.follow(runner)
        soft = DeviceChoice(index=0, driver="softpipe")
        runner.choice = soft
        runner.switched.emit({"renderer": "softpipe", "process": "child"})
        p.evaluate()
        assert wait_for(lambda: "GPU process" in p.gpu_status.text(), 10000), \
            p.gpu_status.text()
        assert isinstance(p.bridge.gpu, _Child) and p.bridge.gpu.choice == soft
        assert soft not in tried
    finally:
        p.shutdown()
