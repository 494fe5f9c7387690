"""``fpinspector send``: the message it prints (--json) is exactly the bits; bad input is
exit 2, no display to start the app on is exit 3, no app with --no-start is exit 1."""

from __future__ import annotations

import json
import sys

import pytest

from tests._cli_run import run_cli


def _json(argv, capsys, stdin=""):
    rc, out, err = run_cli(["send", "--json", *argv], capsys, stdin)
    assert rc == 0, err
    assert out.count("\n") == 1  # one JSON object on one line
    return json.loads(out)


def test_hex_pattern(capsys) -> None:
    assert _json(["0x3f800000"], capsys) == {"format": "f32", "lanes": ["0x3f800000"],
                                             "label": "0x3f800000", "source": "cli"}


def test_bytes_are_little_endian_lanes_of_the_format(capsys) -> None:
    got = _json(["--format", "f16", "--bytes", "00 3c 00 c0"], capsys)
    assert (got["format"], got["lanes"]) == ("f16", ["0x3c00", "0xc000"])
    got = _json(["--format", "f64", "--bytes", "9a9999999999b93f"], capsys)
    assert got["lanes"] == ["0x3fb999999999999a"]  # 0.1 as a double, memory order


def test_stdin_reads_any_paste_text_and_to(capsys) -> None:
    got = _json(["--to", "b", "-"], capsys, stdin="$1 = {1, 2.5}\n")
    assert got["lanes"] == ["0x3f800000", "0x40200000"] and got["to"] == "B"


def test_stdin_message_passes_through_unchanged(capsys) -> None:
    line = json.dumps({"format": "f16", "lanes": ["0x3c00"], "label": "h", "source": "gdb"})
    assert _json(["-"], capsys, stdin=line) == json.loads(line)


@pytest.mark.parametrize("argv,reason", [
    (["--bytes", "zz"], "hex bytes"),
    (["--format", "f32", "--bytes", "00 3c"], "not whole f32 lanes"),
    (["0x3c00", "0x3f800000"], "one format"),
    (["hello"], ""),
    ([], "nothing to send"),
])
def test_bad_input_is_exit_2(argv, reason, capsys) -> None:
    rc, out, err = run_cli(["send", "--json", *argv], capsys)
    assert rc == 2 and reason in err and "Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="the display probe is for X11 and Wayland")
def test_no_app_and_no_display_is_exit_3(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setenv("FPINSPECTOR_CHANNEL", str(tmp_path / "none.sock"))
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    rc, out, err = run_cli(["send", "0x3f800000"], capsys)
    assert rc == 3 and "no display" in err


def test_no_app_with_no_start_is_exit_1(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setenv("FPINSPECTOR_CHANNEL", str(tmp_path / "none.sock"))
    rc, out, err = run_cli(["send", "--no-start", "0x3f800000"], capsys)
    assert rc == 1 and "no fpinspector app is running" in err


def test_answer_prints_on_a_console_without_unicode() -> None:
    """The app's answer (a label with an arrow) on a cp1252 console: printed with
    replacements, not a UnicodeEncodeError that would turn a delivered value into exit 2."""
    import io

    from fpinspector.commands.send import _say

    stream = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    _say("from gdb: `x` lanes 0-5, f32: A = 1.0 \u2026 \u2192", stream)
    stream.flush()
    assert stream.buffer.getvalue().startswith(b"from gdb: `x` lanes 0-5")
