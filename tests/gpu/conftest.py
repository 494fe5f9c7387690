"""GPU test fixtures: one headless moderngl session for the whole run (llvmpipe counts).

``FPINSPECTOR_TEST_DRIVER=softpipe`` runs the tier on another Mesa software driver: every
context of the run (sessions, CLI commands, sweeps, child GPU processes) gets it, and a
driver that does not open fails the tier instead of skipping it. Without GL at all, every
GPU test is skipped with the reason.
"""

from __future__ import annotations

import os

import pytest

DRIVER = os.environ.get("FPINSPECTOR_TEST_DRIVER", "").strip() or None
if DRIVER:  # before any context exists: Mesa picks a driver once per process and device
    os.environ["GALLIUM_DRIVER"] = DRIVER

from wgpu_support import wgpu_gpu  # noqa: E402,F401 - the WebGPU session (test_wgpu_*)

from fpinspector.gpu import DeviceUnavailable, GpuUnavailable, open_session  # noqa: E402
from fpinspector.gpu.devices import renderer_family  # noqa: E402


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
    if DRIVER:
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
