"""GPU test fixtures: one headless moderngl session for the whole run (llvmpipe counts).

Skips every GPU test, with the reason, when no GL context can be created.
"""

from __future__ import annotations

import pytest

from fpinspector.gpu import GpuUnavailable, open_session


@pytest.fixture(scope="session")
def gpu():
    try:
        session = open_session()
    except GpuUnavailable as exc:
        pytest.skip(f"no usable OpenGL context: {exc.message}")
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
