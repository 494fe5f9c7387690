"""The gdb and lldb ``fpi`` commands (fpinspector/resources) in the real debuggers, on a
small C program (tests/data/send/values.c) compiled here: ``fpi --json`` gives exactly the
bytes, the width and the lane count of float, double, _Float16, arrays, a vector, an xmm
register, a struct field and ``*ptr@N``; failures are the debugger's error messages, never a
Python traceback. The expected bits come from Python's struct module."""

from __future__ import annotations

import glob
import json
import os
import platform
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from fpinspector.commands.debugger_script import script_path

SOURCE = Path(__file__).parent / "data" / "send" / "values.c"
X86 = platform.machine().lower() in ("x86_64", "amd64")


def _hexes(code: str, *values) -> list[str]:
    data = struct.pack(code, *values)
    width = struct.calcsize(code[-1])
    return [f"0x{int.from_bytes(data[i:i + width], 'little'):0{width * 2}x}"
            for i in range(0, len(data), width)]


ARR = (1.0, -2.5, 2.0 ** -149, 3.0e38)
#: expression -> (format, lanes) from struct, independent of the debuggers and the scripts
EXPECTED = {
    "f": ("f32", _hexes("<f", 1.5)),
    "d": ("f64", _hexes("<d", 0.1)),
    "h": ("f16", _hexes("<e", -2.0)),
    "arr": ("f32", _hexes("<4f", *ARR)),
    "darr": ("f64", _hexes("<2d", 0.1, -0.0)),
    "harr": ("f16", _hexes("<3e", 1.0, 65504.0, 2.0 ** -24)),
    "vec": ("f32", _hexes("<4f", 0.5, 0.25, -1.0, 2.0)),
    "s.x": ("f32", _hexes("<f", 1.5)),
    "s.d": ("f64", _hexes("<d", 0.1)),
    "*ptr@3": ("f32", _hexes("<3f", *ARR[:3])),
    "code": ("i32", ["0xfffffffd"]),
}
#: a register holding arr: as f32 lanes by default, as f64 / f16 lanes when asked
XMM = {
    "": ("f32", _hexes("<4f", *ARR)),
    "d": ("f64", [f"0x{v:016x}" for v in struct.unpack("<2Q", struct.pack("<4f", *ARR))]),
    "h": ("f16", [f"0x{v:04x}" for v in struct.unpack("<8H", struct.pack("<4f", *ARR))]),
}
#: gdb's bfloat16 view of the same register (``builtin_type_bfloat16`` lanes): bf16, the
#: format of the lanes' type, not f16 (struct: the halves of arr's f32 words)
XMM_BF16 = ("bf16", [f"0x{v:04x}" for v in struct.unpack("<8H", struct.pack("<4f", *ARR))])
ERRORS = {"nosuch": "fpi: ", "text": "is a pointer", "s": "not all one float type",
          "*ptr@100": "1 to 64"}


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed (scripts/bootstrap.sh installs it)")
    out = tmp_path_factory.mktemp("fpi") / "values"
    subprocess.run([gcc, "-g", "-O0", str(SOURCE), "-o", str(out)], check=True, timeout=120)
    return out


def _json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{\"format\"")]


def test_gdb_fpi_json_gives_exact_bytes_width_and_lanes(program) -> None:
    gdb = shutil.which("gdb")
    if gdb is None:
        pytest.skip("gdb is not installed (scripts/bootstrap.sh installs it)")
    cmds = [f"fpi --json {e}" for e in EXPECTED]
    if X86:
        cmds += ["fpi --json $xmm0", "fpi/d --json $xmm0", "fpi/h --json --to b $xmm0",
                 "fpi --json $xmm0.v8_bfloat16"]
    cmds += [f"fpi --json {e}" for e in ERRORS] + ["fpi/q x", "fpi"]
    argv = [gdb, "-nx", "-batch", "-ex", f"source {script_path('gdb')}", "-ex", "break stop",
            "-ex", "run"]
    for c in cmds:
        argv += ["-ex", c]
    res = subprocess.run(argv + [str(program)], capture_output=True, text=True, timeout=120)
    out = res.stdout + res.stderr
    assert "Traceback" not in out, out
    got = _json_lines(res.stdout)
    want = list(EXPECTED.items()) + ([(f"$xmm0{k}", v) for k, v in XMM.items()] if X86 else [])
    if X86:
        bf16 = got.pop()
        assert (bf16["format"], bf16["lanes"]) == XMM_BF16, bf16
        assert bf16["label"] == "$xmm0.v8_bfloat16"
    assert len(got) == len(want), out
    for (expr, (fmt, lanes)), msg in zip(want, got):
        assert (msg["format"], msg["lanes"], msg["source"]) == (fmt, lanes, "gdb"), expr
        assert msg["label"] == expr.rstrip("dh") if expr.startswith("$xmm0") else expr
    if X86:
        assert got[-1]["to"] == "B"
    for expr, reason in ERRORS.items():
        assert reason in res.stderr, (expr, res.stderr)
    assert "unknown format letter '/q'" in res.stderr and "usage: fpi" in res.stderr


def _lldb_python_path() -> str | None:
    """Debian 12's lldb-14 looks for its Python module in the wrong place (lldb -P): point
    PYTHONPATH at the one python3-lldb-14 installs."""
    found = sorted(glob.glob("/usr/lib/llvm-*/lib/python3*/dist-packages/lldb/"
                             "embedded_interpreter.py"))
    return str(Path(found[-1]).parents[1]) if found else None


DRIVER = """
import json, lldb
def __lldb_init_module(debugger, d):
    out = []
    ci = debugger.GetCommandInterpreter()
    for cmd in json.load(open({cmds!r})):
        r = lldb.SBCommandReturnObject()
        ci.HandleCommand(cmd, r)
        out.append([cmd, r.Succeeded(), r.GetOutput() or "", r.GetError() or ""])
    open({result!r}, "w").write(json.dumps(out))
"""


def _lldb(program: Path, tmp_path: Path, cmds: list[str]) -> list:
    lldb = shutil.which("lldb") or shutil.which("lldb-14")
    if lldb is None:
        pytest.skip("lldb is not installed (scripts/bootstrap.sh installs lldb and "
                    "python3-lldb-14)")
    (tmp_path / "cmds.json").write_text(json.dumps(cmds))
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER.format(cmds=str(tmp_path / "cmds.json"),
                                    result=str(tmp_path / "result.json")))
    env = dict(os.environ)
    pp = _lldb_python_path()
    if pp:
        env["PYTHONPATH"] = pp
    res = subprocess.run([lldb, "-b", "-o", f"command script import {script_path('lldb')}",
                          "-o", "b stop", "-o", "run", "-o", f"command script import {driver}",
                          str(program)], capture_output=True, text=True, timeout=180, env=env)
    if not (tmp_path / "result.json").exists():
        if "No module named 'lldb" in res.stderr:
            pytest.skip(f"lldb has no Python here: {res.stderr.strip()[-200:]}")
        raise AssertionError(res.stdout + res.stderr)
    assert "Traceback" not in res.stdout + res.stderr
    return json.loads((tmp_path / "result.json").read_text())


def test_lldb_fpi_json_gives_exact_bytes_width_and_lanes(program, tmp_path) -> None:
    cmds = [f"fpi --json {e}" for e in EXPECTED]
    if X86:
        cmds += ["fpi --json $xmm0", "fpi -d --json $xmm0", "fpi -h --json --to b $xmm0"]
    results = _lldb(program, tmp_path, cmds + [f"fpi --json {e}" for e in ERRORS])
    want = list(EXPECTED.items()) + ([(f"$xmm0{k}", v) for k, v in XMM.items()] if X86 else [])
    for (expr, (fmt, lanes)), (cmd, ok, out, err) in zip(want, results):
        assert ok, (cmd, err)
        msg = json.loads(out)
        assert (msg["format"], msg["lanes"], msg["source"]) == (fmt, lanes, "lldb"), cmd
    for (expr, reason), (cmd, ok, out, err) in zip(ERRORS.items(), results[len(want):]):
        assert not ok and err.startswith("error: fpi: ") and reason in err, (cmd, err)
        assert "Traceback" not in err


def test_debugger_script_prints_existing_paths(capsys) -> None:
    from fpinspector.cli import main

    for name in ("gdb", "lldb", "renderdoc"):
        assert main(["debugger-script", name]) == 0
        path = Path(capsys.readouterr().out.strip())
        assert path.is_absolute() and path.exists(), name


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shells")
def test_scripts_import_only_the_standard_library() -> None:
    """The debuggers' Python has neither numpy nor fpinspector: the scripts and what they
    load must stand on the standard library alone."""
    common = script_path("gdb").parent / "fpi_common.py"
    code = ("import sys, runpy; sys.modules['numpy'] = None; sys.modules['fpinspector'] = None;"
            f"m = runpy.run_path({str(common)!r}); assert m['message'].WIDTHS['f32'] == 32")
    res = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_fpi_finds_the_fpinspector_command_to_start_the_app(monkeypatch) -> None:
    """With no app running, fpi starts one through `fpinspector send -`: the command of the
    environment the scripts were installed into (here the source tree's .venv or PATH)."""
    import runpy

    monkeypatch.delenv("FPINSPECTOR_COMMAND", raising=False)
    common = runpy.run_path(str(script_path("gdb").parent / "fpi_common.py"))
    cmd = common["_command"]()
    assert cmd is not None and Path(cmd[0]).name.startswith("fpinspector")
    res = subprocess.run(cmd + ["send", "--json", "0x3c00", "--format", "f16"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and json.loads(res.stdout)["lanes"] == ["0x3c00"], res.stderr
    monkeypatch.setenv("FPINSPECTOR_COMMAND", f"{sys.executable} -m fpinspector")
    assert common["_command"]() == [sys.executable, "-m", "fpinspector"]
