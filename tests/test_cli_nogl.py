"""Every command on a machine without a display or usable OpenGL ("no usable GL at
all -> a clear error, nothing crashes"): the model commands work, gpu-report and the app say
why they cannot run and exit non-zero instead of aborting. The model results named here are
checked against struct (F32-FTZ, CONV-F2F-RTZ)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from fpinspector.commands.gui import display_problem

ROOT = Path(__file__).resolve().parents[1]


def _cli(*argv: str, **env_over: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    for k, v in env_over.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return subprocess.run([sys.executable, "-m", "fpinspector", *argv], cwd=ROOT, env=env, check=False,
                          capture_output=True, text=True, timeout=120)


NO_GL = {"FPINSPECTOR_GL_BACKEND": "no-such-backend"}
NO_DISPLAY = {"DISPLAY": None, "WAYLAND_DISPLAY": None, "QT_QPA_PLATFORM": None}


def test_gpu_report_without_gl_is_a_clear_error_not_a_crash():
    r = _cli("gpu-report", "--json", **NO_GL)
    assert r.returncode == 3 and r.stdout == ""
    assert "No usable OpenGL context" in r.stderr and "Traceback" not in r.stderr


def test_model_commands_need_no_gl_or_display_F32_FTZ_CONV_F2F_RTZ():
    """decode / convert / eval run with neither GL nor a display and give the rule results:
    0x1 * 1.0 flushes (F32-FTZ); f32 -> f16 truncates (CONV-F2F-RTZ)."""
    env = {**NO_GL, **NO_DISPLAY}
    r = _cli("eval", "mul", "0x00000001", "0x3f800000", "--json", **env)
    assert r.returncode == 0 and json.loads(r.stdout)["result"]["bits"] == "0x00000000"
    # 1 + 2^-11 + 2^-12 lies between f16 0x3C00 and 0x3C01, above the midpoint: RTZ gives
    # 0x3C00 where nearest-even would give 0x3C01.
    x = 1 + 2**-11 + 2**-12
    pattern = struct.unpack("<I", struct.pack("<f", x))[0]
    r = _cli("convert", f"0x{pattern:08x}", "--to", "f16", "--json", **env)
    res = json.loads(r.stdout)["values"][0]["results"][0]
    assert r.returncode == 0 and res["bits"] == 0x3C00 and "CONV-F2F-RTZ" in res["rules"]
    r = _cli("decode", "0x3c00", "--json", **env)
    assert r.returncode == 0 and json.loads(r.stdout)["values"][0]["value"] == 1.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland check is Linux")
@pytest.mark.parametrize("argv", [["gui"], []])
def test_app_without_display_exits_2_with_message(argv):
    """Qt would abort (SIGABRT) without a display; the command explains instead."""
    r = _cli(*argv, **NO_DISPLAY)
    assert r.returncode == 2 and "no display" in r.stderr and "Traceback" not in r.stderr


def test_display_problem_rules():
    def up(kind, name, env):  # a display that answers (the real probe: test_display_probe)
        return None

    assert display_problem({}, "linux") is not None
    assert display_problem({"DISPLAY": ":0"}, "linux", probe=up) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", probe=up) is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert display_problem({}, "win32") is None and display_problem({}, "darwin") is None
