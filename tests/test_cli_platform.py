"""The CLI on a user's machine: text output that never fails on the console's encoding (a
Windows code page, a pipe), a version to report, options before operands, the windowed
entry point, freeze_support, and the package's licence in the wheel's metadata."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fpinspector import cli

ROOT = Path(__file__).resolve().parents[1]


def _cli(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = {**os.environ, **(env or {})}
    full.pop("PYTHONUTF8", None)
    return subprocess.run([sys.executable, "-m", "fpinspector", *argv], cwd=ROOT, env=full,
                          capture_output=True, timeout=120, check=False)


def test_cp1252_pipe_gets_the_whole_output_spelled_in_ascii():
    """`fpinspector eval rcp 0x7e800000 > out.txt` in a cp1252 console: the allowed set
    (F32-FTZ: +0 or the smallest normals) is written whole, the union sign as '|'; the
    same run in UTF-8 has '∪' there and otherwise the same text."""
    utf8 = _cli("eval", "rcp", "0x7e800000", env={"PYTHONIOENCODING": "utf-8"})
    cp = _cli("eval", "rcp", "0x7e800000", env={"PYTHONIOENCODING": "cp1252"})
    assert utf8.returncode == 0 and cp.returncode == 0, cp.stderr.decode(errors="replace")
    want = utf8.stdout.decode("utf-8")
    assert "\u222a" in want
    got = cp.stdout.decode("cp1252")  # every byte is valid cp1252
    assert got == want.replace("\u222a", "|")
    assert "§" in got  # what cp1252 has stays itself (the D3D11.3 § references)
    assert cp.stderr == b""


def test_unencodable_symbols_have_ascii_spellings_and_the_rest_a_question_mark():
    text = "1 \u2192 \u221e \u2212 2 \u222a \u4e00"
    assert text.encode("ascii", errors="fpinspector-ascii") == b"1 -> inf - 2 | ?"


def test_a_chosen_error_handler_is_kept():
    """PYTHONIOENCODING=cp1252:strict is the user's choice: it still fails, with a message."""
    r = _cli("eval", "rcp", "0x7e800000", env={"PYTHONIOENCODING": "cp1252:strict"})
    assert r.returncode != 0


def test_version_matches_the_installed_metadata():
    r = _cli("--version")
    assert r.returncode == 0
    assert r.stdout.decode().strip() == f"fpinspector {importlib.metadata.version('fpinspector')}"


def test_options_may_stand_before_the_operands_F64_RCP():
    """`eval rcp --format f64 0x3ff0...` reads like `eval rcp 0x3ff0... --format f64`:
    rcp(1.0) = 1.0 exactly in f64 (F64-RCP)."""
    a = _cli("eval", "rcp", "--format", "f64", "0x3ff0000000000000", "--json")
    b = _cli("eval", "rcp", "0x3ff0000000000000", "--format", "f64", "--json")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout and b'"0x3FF0000000000000"' in a.stdout


def test_entry_points_call_freeze_support(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(cli.multiprocessing, "freeze_support", lambda: calls.append(1))
    assert cli.main(["decode", "0x3c00", "--format", "f16"]) == 0
    assert calls == [1]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display check is Linux's")
def test_windowed_entry_point_shows_a_failed_start_instead_of_losing_it(monkeypatch):
    """fpinspector-gui under pythonw has no stdout/stderr: a start that fails (here: no
    display) comes to the user as a message (a message box on Windows), exit status 2."""
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    monkeypatch.setattr(sys, "argv", ["fpinspector-gui"])
    shown = []
    monkeypatch.setattr(cli, "show_start_failure", shown.append)
    assert cli.gui_main() == 2
    assert len(shown) == 1 and "fpinspector gui: error:" in shown[0]


def test_both_entry_points_are_declared():
    eps = {ep.name: (ep.group, ep.value)
           for ep in importlib.metadata.distribution("fpinspector").entry_points}
    assert eps["fpinspector"] == ("console_scripts", "fpinspector.cli:main")
    assert eps["fpinspector-gui"] == ("gui_scripts", "fpinspector.cli:gui_main")
