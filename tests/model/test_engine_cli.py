"""`fpinspector eval`: text/JSON output, the --gpu-result verdict, batch JSON lines, errors
(F32-FTZ on the issue's acceptance example; IEEE-RNE keeps the denormal)."""

from __future__ import annotations

import io
import json
import sys

import pytest

from fpinspector.cli import main


def _run(argv: list[str], stdin: str = "", capsys=None) -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        rc = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return rc, out, err


def test_acceptance_mul_denormal_flushes_F32_FTZ_and_ieee_keeps_IEEE_RNE(capsys):
    rc, out, _ = _run(["eval", "mul", "0x00000001", "0x3f800000", "--json"], capsys=capsys)
    d = json.loads(out)
    assert rc == 0 and d["result"]["bits"] == "0x00000000" and "F32-FTZ" in d["fired"]
    assert any("flushed to +0 by F32-FTZ" in s for s in d["explain"])
    rc, out, _ = _run(["eval", "mul", "0x00000001", "0x3f800000", "--json", "--rules", "ieee754"],
                      capsys=capsys)
    d = json.loads(out)
    assert d["result"]["bits"] == "0x00000001" and "F32-FTZ" not in d["fired"]


def test_text_output_and_gpu_verdict_F32_DIV(capsys):
    rc, out, _ = _run(["eval", "div", "1.0", "3.0", "--gpu-result", "0x3EAAAAAA"], capsys=capsys)
    assert rc == 0
    assert "model result: 0x3EAAAAAB" in out and "allowed:      0x3EAAAAAA .. 0x3EAAAAAB" in out
    assert "CONFORMANT" in out and "F32-DIV" in out
    rc, out, _ = _run(["eval", "div", "1.0", "3.0", "--gpu-result", "0x3EAAAAA9"], capsys=capsys)
    assert "NOT CONFORMANT" in out


def test_option_switch_is_reported_F32_PREC(capsys):
    rc, out, _ = _run(["eval", "add", "1.0", "0x33800001", "--option", "lenient_d3d11=true",
                       "--json", "--gpu-result", "0x3F800000"], capsys=capsys)
    d = json.loads(out)
    assert d["gpu_result"]["allowed"] and any("lenient" in r for r in d["readings"])


def test_batch_json_lines_F32_NANOUT(capsys):
    rows = "0x3f800000 0x40000000 0x40400000\n0x7f800000,0xff800000, 0xffc00001\n# comment\n"
    rc, out, _ = _run(["eval", "add", "--batch", "-"], stdin=rows, capsys=capsys)
    lines = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and len(lines) == 2
    assert lines[0]["bits"] == "0x40400000" and lines[0]["allowed"] is True
    assert lines[1]["nan_ok"] and lines[1]["allowed"] and "F32-INFINF" in lines[1]["rules"]


@pytest.mark.parametrize("argv, msg", [
    (["eval", "pow", "1"], "unknown op"),
    (["eval", "add", "0x1"], "takes 2"),
    (["eval", "add", "0x1", "zz"], "not a pattern"),
    (["eval", "add", "1", "2", "--option", "bogus"], "NAME=VALUE"),
    (["eval", "add", "1", "2", "--format", "f7"], "unknown format"),
])
def test_bad_input_exits_nonzero_with_message(argv, msg, capsys):
    rc, out, err = _run(argv, capsys=capsys)
    assert rc != 0 and msg in err and "Traceback" not in err
