"""`fpinspector expr --gpu --driver NAME` runs the expression on that Mesa software driver.

Why a child process: Mesa keeps a display's first driver for a whole process, and this
test process already holds the tier's session; the CLI opens its first GL context itself,
so it gets the driver asked for. The Expression dock names this command where the
window's process cannot switch (ui/expression/expr_gpu_bridge.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from fpinspector.gpu.devices import SOFTWARE_DRIVERS, renderer_family

pytestmark = pytest.mark.gpu


def _expr(*argv: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "GALLIUM_DRIVER"}
    return subprocess.run([sys.executable, "-m", "fpinspector", "expr", "a * b", "--set",
                           "a=1.5", "--set", "b=0x00000001", "--gpu", "--json", *argv],
                          capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("driver", SOFTWARE_DRIVERS)
def test_expr_runs_on_the_driver_named(gpu, driver):
    if renderer_family(gpu.info["renderer"]) not in SOFTWARE_DRIVERS:
        pytest.skip(f"{gpu.info['renderer']} is not one of Mesa's software drivers")
    run = _expr("--driver", driver)
    assert run.returncode == 0, run.stderr
    rep = json.loads(run.stdout)
    assert renderer_family(rep["gpu"]["renderer"]) == driver, rep["gpu"]["renderer"]
    # F32-FTZ: the denormal operand B is flushed by the model: 1.5 * 0 = 0
    assert rep["result"]["components"][0]["model"]["hex"] == "0x00000000"


def test_expr_refuses_a_gl_driver_with_a_webgpu_api():
    run = _expr("--driver", "softpipe", "--api", "vulkan")
    assert run.returncode == 2 and "--device and --driver pick a GL device" in run.stderr
    assert "Traceback" not in run.stderr
