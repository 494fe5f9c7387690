"""GPU test fixtures: one headless moderngl session for the whole run (llvmpipe counts).

``FPINSPECTOR_TEST_DRIVER=softpipe`` runs the tier on another Mesa software driver: every
context of the run (sessions, CLI commands, sweeps, child GPU processes) gets it, and a
driver that does not open fails the tier instead of skipping it. Without GL at all, every
GPU test is skipped with the reason.

Any GPU: tests of fpinspector's own behaviour (capture fidelity, judging, report format)
hold on every device. What a device does that no deviation row names is checked strictly
only on the drivers whose rows the project ships (``STRICT_DRIVERS``: llvmpipe, softpipe);
on any other device it is a *finding*, printed in the test summary, not a failure
(``device_behaviour``). ``FPINSPECTOR_TEST_PRETEND_RENDERER="NVIDIA ..."`` makes every
in-process session report that renderer, which is how that path is tested on Mesa: no
deviation row then matches, and Mesa's own deviations must come out as findings.
"""

from __future__ import annotations

import json
import os

import pytest

DRIVER = os.environ.get("FPINSPECTOR_TEST_DRIVER", "").strip() or None
PRETEND = os.environ.get("FPINSPECTOR_TEST_PRETEND_RENDERER", "").strip() or None
if DRIVER:  # before any context exists: Mesa picks a driver once per process and device
    os.environ["GALLIUM_DRIVER"] = DRIVER

from device_checks import FINDINGS, DeviceBehaviour  # noqa: E402
from wgpu_support import wgpu_behaviour, wgpu_gpu  # noqa: E402,F401 - WebGPU (test_wgpu_*)

from fpinspector.gpu import DeviceUnavailable, GpuUnavailable, open_session  # noqa: E402
from fpinspector.gpu.devices import renderer_family  # noqa: E402
from fpinspector.gpu.session import GpuSession  # noqa: E402

if PRETEND:  # every in-process session reports this renderer (see the module docstring)
    _real_info = GpuSession.info

    def _pretend_info(self):  # noqa: ANN001, ANN202
        return {**_real_info.fget(self), "renderer": PRETEND, "vendor": "pretend",
                "driver": renderer_family(PRETEND)}

    GpuSession.info = property(_pretend_info)  # type: ignore[assignment]

    from fpinspector.gpu.wgpu_session import WgpuSession  # noqa: E402

    _real_wgpu_info = WgpuSession.info

    def _pretend_wgpu_info(self):  # noqa: ANN001, ANN202 - the real adapter only, not
        info = _real_wgpu_info.fget(self)  # the stand-in D3D12 / Metal ones of the tests
        if renderer_family(info["renderer"]) != "llvmpipe":
            return info
        return {**info, "renderer": f"{PRETEND} via {info['renderer'].rsplit(' via ', 1)[-1]}",
                "vendor": "pretend", "driver": renderer_family(PRETEND)}

    WgpuSession.info = property(_pretend_wgpu_info)  # type: ignore[assignment]


@pytest.fixture
def device_behaviour(gpu, request) -> DeviceBehaviour:
    return DeviceBehaviour(gpu.info["renderer"], request.node.nodeid.split("::", 1)[-1])


def pytest_sessionfinish(session) -> None:  # noqa: ANN001
    """Under pytest-xdist each worker keeps its own findings: hand them to the controller."""
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out["device_findings"] = json.dumps(FINDINGS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # noqa: ANN001, ARG001 - xdist's hook
    FINDINGS.extend(json.loads(getattr(node, "workeroutput", {}).get("device_findings", "[]")))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ARG001
    if not FINDINGS:
        return
    terminalreporter.section(f"device findings ({len(FINDINGS)}): behaviours of this GPU "
                             "that no deviation row names (not failures)")
    for line in FINDINGS:
        terminalreporter.write_line(line[:400])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that takes the GL session is in the gpu tier, marked or not."""
    for item in items:
        if "gpu" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.gpu)


@pytest.fixture(scope="session")
def gpu():
    try:
        session = open_session(driver=DRIVER)
    except DeviceUnavailable as exc:
        pytest.fail(f"FPINSPECTOR_TEST_DRIVER={DRIVER}: {exc.message}")
    except GpuUnavailable as exc:
        pytest.skip(f"no usable OpenGL context: {exc.message}")
    if DRIVER and not PRETEND:
        assert renderer_family(session.info["renderer"]) == DRIVER
    yield session
    session.close()


@pytest.fixture(autouse=True)
def gl_clean(request):
    """moderngl's own convention: GL_NO_ERROR before and after every GPU test."""
    if "gpu" not in request.fixturenames:
        yield
        return
    session = request.getfixturevalue("gpu")
    with session.ctx:
        assert session.ctx.error == "GL_NO_ERROR"
    yield
    with session.ctx:
        assert session.ctx.error == "GL_NO_ERROR"


@pytest.fixture(params=["compute", "fragment"])
def path(request, gpu):
    if request.param not in gpu.info["paths"]:
        pytest.skip(f"{request.param} path not available on {gpu.info['renderer']}")
    return request.param
