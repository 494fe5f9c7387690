"""Every command that needs neither a GPU nor Qt works without moderngl and PySide6; those
that need them say so in one line with the documented exit status (3: no GL, as
gpu-report's "no usable OpenGL context"; 2: the app cannot start), never a traceback.

The packages are hidden from a child interpreter by an import blocker (a sitecustomize on
PYTHONPATH), which is what a venv without them looks like to the package; .ci/run also
checks one real venv without them (scripts/venv_tiers.sh)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GL = "moderngl glcontext"
QT = "PySide6 shiboken6 pyqtgraph"

BLOCKER = '''
import os, sys
BLOCKED = set(os.environ["FPI_TEST_BLOCK"].split())
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Block())
'''


@pytest.fixture(scope="module")
def blocker(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("blocker")
    (folder / "sitecustomize.py").write_text(BLOCKER)
    return folder


def _run(blocker: Path, block: str, *argv: str, **env_over: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(ROOT)]),
           "FPI_TEST_BLOCK": block, **env_over}
    return subprocess.run([sys.executable, "-m", "fpinspector", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180, check=False)


def test_the_blocker_hides_the_packages(blocker):
    env = {**os.environ, "PYTHONPATH": str(blocker), "FPI_TEST_BLOCK": f"{GL} {QT}"}
    for mod in ("moderngl", "PySide6"):
        r = subprocess.run([sys.executable, "-c", f"import {mod}"], env=env,
                           capture_output=True, text=True, timeout=60, check=False)
        assert r.returncode == 1 and "ModuleNotFoundError" in r.stderr


def test_model_commands_and_saved_report_comparison_work_without_gl_or_qt_F32_FTZ(blocker,
                                                                                  tmp_path):
    """decode, convert, eval (0x1 * 1.0 flushes: F32-FTZ), sweep without --gpu and
    gpu-compare of two saved reports (the shipped examples) all run."""
    block = f"{GL} {QT}"
    r = _run(blocker, block, "eval", "mul", "0x00000001", "0x3f800000", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["result"]["bits"] == "0x00000000"
    r = _run(blocker, block, "decode", "0x3c00", "--format", "f16", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["values"][0]["value"] == 1.0, r.stderr
    r = _run(blocker, block, "convert", "0x3f800000", "--to", "f16", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["values"][0]["results"][0]["bits"] == 0x3C00
    out = tmp_path / "rcp.npz"
    r = _run(blocker, block, "sweep", "rcp", "--format", "f16", "--out", str(out))
    assert r.returncode == 0 and out.exists(), r.stderr
    r = _run(blocker, block, "gpu-compare", "example:llvmpipe", "example:softpipe", "--json")
    assert r.returncode == 0, r.stderr
    assert "SOFTPIPE-NO-FTZ" in r.stdout
    r = _run(blocker, block, "gpu-compare", "example:llvmpipe", "example:softpipe", "--live")
    assert r.returncode == 3 and "moderngl" in r.stderr


@pytest.mark.parametrize("argv", [["gpu-report"], ["eval", "rcp", "0x3f800000", "--gpu"],
                                  ["gpu-devices"], ["sweep", "rcp", "--format", "f16", "--gpu"]])
def test_gpu_commands_without_moderngl_say_so_in_one_line(blocker, argv):
    r = _run(blocker, GL, *argv)
    assert r.returncode == 3, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "moderngl" in lines[0] and "pip install" in lines[0], r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("argv", [[], ["gui"]])
def test_the_app_without_pyside6_says_so_in_one_line(blocker, argv):
    r = _run(blocker, QT, *argv, QT_QPA_PLATFORM="offscreen")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "PySide6" in r.stderr


@pytest.mark.slow
def test_the_app_starts_without_moderngl(blocker):
    """No GL package: the app starts in its no-GPU mode (the model works fully)."""
    r = _run(blocker, GL, "gui", QT_QPA_PLATFORM="offscreen", FPINSPECTOR_QUIT_AFTER_SHOW="1")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
