"""The WebGPU (wgpu) session the test_wgpu_* modules share: lavapipe through Vulkan here.

Without wgpu or a Vulkan adapter the tests are skipped with the reason, unless
``FPINSPECTOR_TEST_API`` names the API (CI's lavapipe step): then they fail, so a broken
install cannot pass the tier by skipping it.
"""

from __future__ import annotations

import os

import pytest
from device_checks import DeviceBehaviour

from fpinspector.gpu import GpuUnavailable, open_session

API = os.environ.get("FPINSPECTOR_TEST_API", "").strip() or "vulkan"
REQUIRED = bool(os.environ.get("FPINSPECTOR_TEST_API", "").strip())


@pytest.fixture(scope="session")
def wgpu_gpu():
    try:
        session = open_session(api=API)
    except GpuUnavailable as exc:
        if REQUIRED:
            pytest.fail(f"FPINSPECTOR_TEST_API={API}: {exc.message}")
        pytest.skip(f"no WebGPU {API} adapter: {exc.message}")
    yield session
    session.close()


@pytest.fixture
def wgpu_behaviour(wgpu_gpu, request) -> DeviceBehaviour:
    """``device_behaviour`` for the WebGPU adapter: strict on lavapipe (it names itself
    llvmpipe), findings on any other adapter."""
    return DeviceBehaviour(wgpu_gpu.info["renderer"], request.node.nodeid.split("::", 1)[-1])
