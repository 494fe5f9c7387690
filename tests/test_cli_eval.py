"""`fpinspector eval`: text/JSON output and the --gpu-result verdict (F32-FTZ on mul of a
denormal; IEEE-RNE keeps it), batch reading (vectorized reader vs a Python int() oracle),
error rows, batch results vs numpy float32 with F32-FTZ, comparison verdicts (F32-CMPNAN),
integer kinds (CONV-ITOF / CONV-FTOI) and the documented JSON keys (docs/cli-json.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from _cli_run import run_cli

from fpinspector.commands._eval.batch_read import _fast, _fast_chunked, read_rows
from fpinspector.commands.eval import read_operand

DOCS = Path(__file__).resolve().parents[1] / "docs" / "cli-json.md"


def _run(argv, capsys, stdin=""):
    return run_cli(argv, capsys, stdin)


def test_mul_denormal_flushes_F32_FTZ_and_ieee_keeps_IEEE_RNE(capsys):
    rc, out, _ = _run(["eval", "mul", "0x00000001", "0x3f800000", "--json"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["result"]["bits"] == "0x00000000" and "F32-FTZ" in d["fired"]
    assert any("flushed to +0 by F32-FTZ" in s for s in d["explain"])
    rc, out, _ = _run(["eval", "mul", "0x00000001", "0x3f800000", "--json", "--rules", "ieee754"],
                      capsys)
    d = json.loads(out)
    assert d["result"]["bits"] == "0x00000001" and "F32-FTZ" not in d["fired"]


def test_text_output_and_gpu_verdict_F32_DIV(capsys):
    rc, out, _ = _run(["eval", "div", "1.0", "3.0", "--gpu-result", "0x3EAAAAAA"], capsys)
    assert rc == 0
    assert "model result: 0x3EAAAAAB" in out
    assert "allowed:      [0x3EAAAAAA (0.3333333), 0x3EAAAAAB (0.33333334)]" in out
    assert "CONFORMANT" in out and "F32-DIV" in out
    rc, out, _ = _run(["eval", "div", "1.0", "3.0", "--gpu-result", "0x3EAAAAA9"], capsys)
    assert "NOT CONFORMANT: outside the allowed results" in out and "ULP" in out


def test_gpu_verdict_names_the_reason_and_withholds_a_misleading_ulp_error(capsys):
    """F32-FTZ: an exact but denormal result is refused, with the reason and ULP error 0;
    CONV-F2F-SAT: a saturated conversion quotes no ULP error and says why."""
    rc, out, _ = _run(["eval", "mad", "0x00800000", "0.5", "0", "--gpu-result", "0x00400000",
                       "--json"], capsys)
    g = json.loads(out)["gpu_result"]
    assert not g["allowed"] and "F32-FTZ" in g["reason"] and g["ulp_error"] == 0.0
    assert json.loads(out)["allowed"]["ranges"] == [["0x00000000", "0x00000000"]]
    rc, out, _ = _run(["eval", "to_f11", "0x7F7FFFFF", "--gpu-result", "0x7BF", "--json"],
                      capsys)
    g = json.loads(out)["gpu_result"]
    assert g["allowed"] and g["ulp_error"] is None and "saturates" in g["ulp_note"]


def test_option_switch_is_reported_F32_PREC(capsys):
    rc, out, _ = _run(["eval", "add", "1.0", "0x33800001", "--option", "lenient_d3d11=true",
                       "--json", "--gpu-result", "0x3F800000"], capsys)
    d = json.loads(out)
    assert d["gpu_result"]["allowed"] and any("lenient" in r for r in d["readings"])


def test_batch_json_lines_F32_NANOUT(capsys):
    rows = "0x3f800000 0x40000000 0x40400000\n0x7f800000,0xff800000, 0xffc00001\n# comment\n"
    rc, out, _ = _run(["eval", "add", "--batch", "-"], capsys, stdin=rows)
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
    rc, out, err = _run(argv, capsys)
    assert rc != 0 and msg in err and "Traceback" not in err


def _random_batch(rng, n):
    """Rows in every accepted spelling, with the patterns an independent reader expects."""
    a = rng.integers(0, 2**32, size=(n, 3), dtype=np.uint64)
    styles = [lambda v: f"0x{v:08x}", lambda v: f"0X{v:X}", lambda v: f"{v:x}",
              lambda v: f"{v:08X}", lambda v: f"0x{v:x}"]
    seps = [" ", "\t", ", ", ",", "  \t "]
    lines, want = [], []
    for i in range(n):
        k = 2 + (i % 3 == 0)
        toks = [styles[rng.integers(len(styles))](int(v)) for v in a[i, :k]]
        line = toks[0]
        for t in toks[1:]:
            line += seps[rng.integers(len(seps))] + t
        if i % 7 == 0:
            line += "  # note 1.5"
        if i % 11 == 0:
            lines.append("")
        if i % 13 == 0:
            lines.append("# comment only")
        lines.append(line + ("\r" if i % 5 == 0 else ""))
        want.append([len(lines)] + [int(v) for v in a[i, :k]])
    return "\n".join(lines) + "\n", want


def test_batch_reader_matches_python_int_oracle_F32_PREC():
    """Every spelling of a row (0x/0X/bare hex, commas, tabs, CRLF, comments, blank lines)
    reads to the patterns Python's int(text, 16) gives; the observed column is optional."""
    rng = np.random.default_rng(7)
    text, want = _random_batch(rng, 3000)
    rows = read_rows(text, 2, ["f32", "f32", "f32"], read_operand)
    assert not rows.error
    assert rows.ops.shape == (len(want), 2)
    for i, (line, *w) in enumerate(want):
        assert int(rows.line[i]) == line
        assert rows.ops[i].tolist() == w[:2]
        assert bool(rows.has_obs[i]) == (len(w) == 3)
        if len(w) == 3:
            assert int(rows.obs[i]) == w[2]


def test_chunked_reader_equals_single_pass_at_every_cut():
    """Cutting the text into pieces at line ends changes nothing (pieces of 1 byte and up)."""
    rng = np.random.default_rng(3)
    text, _ = _random_batch(rng, 400)
    buf = np.frombuffer(text.encode(), np.uint8)
    whole = _fast(buf, 2, ["f32"] * 3)
    for chunk in (1, 5, 64, 1000, 10**6):
        got = _fast_chunked(buf, 2, ["f32"] * 3, chunk=chunk)
        for x, y in zip(got, whole):
            assert np.array_equal(x, y), chunk


def test_batch_mul_matches_numpy_float32_with_F32_FTZ(capsys, tmp_path):
    """Batch rows of f32 mul equal numpy's IEEE float32 product with denormal inputs and
    outputs flushed to sign-preserved zero (F32-FTZ, F32-PREC); NaN results allow any NaN."""
    rng = np.random.default_rng(11)
    n = 4000
    a = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    a[:200] &= np.uint32(0x807FFFFF)  # denormals and zeros
    b[200:400] = (b[200:400] & np.uint32(0x80FFFFFF)) | np.uint32(0x0C000000)  # tiny products
    path = tmp_path / "rows.txt"
    path.write_text("\n".join(f"{x:08x},{y:08x}" for x, y in zip(a.tolist(), b.tolist())))
    rc, out, _ = _run(["eval", "mul", "--batch", str(path)], capsys)
    assert rc == 0
    got = [json.loads(x) for x in out.splitlines()]

    def ftz(u):
        den = (u & np.uint32(0x7F800000)) == 0
        return np.where(den, u & np.uint32(0x80000000), u)

    with np.errstate(all="ignore"):
        p = (ftz(a).view(np.float32) * ftz(b).view(np.float32)).view(np.uint32)
    want = ftz(p)
    for i, g in enumerate(got):
        assert g["row"] == i and g["line"] == i + 1
        if np.isnan(p[i:i + 1].view(np.float32)[0]):
            assert g["nan_ok"]
        else:
            assert g["bits"] == f"0x{int(want[i]):08X}", (i, hex(a[i]), hex(b[i]))
    assert any("F32-FTZ" in g["rules"] for g in got[:200])


def test_bad_rows_become_error_rows_and_the_rest_is_evaluated_F32_FTZ(capsys):
    """A bad row is reported with its line and reason; good rows still get results (here the
    F32-FTZ flush of 0x1 * 1.0); exit status 1 and a summary on stderr."""
    text = ("0x00000001 0x3f800000\n"        # 1 good: flushed
            "zz 0x3f800000\n"                # 2 unreadable field
            "\n# only a comment\n"           # 3, 4 skipped
            "0x1ffffffff 0x3f800000\n"       # 5 wider than f32
            "1 2 3 4\n"                      # 6 too many fields
            "-1 0x3f800000\n"                # 7 negative pattern
            "1.5 2.0 0x40400000\n"           # 8 decimals, observed 3.0
            "0x3f800000 0x40000000 0x0\n")   # 9 observed result (wrong)
    rc, out, err = _run(["eval", "mul", "--batch", "-"], capsys, stdin=text)
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and "5 of 7 rows" not in err and "4 of 7 rows could not be read" in err
    assert [r["line"] for r in rows] == [1, 2, 5, 6, 7, 8, 9]
    assert rows[0]["bits"] == "0x00000000" and "F32-FTZ" in rows[0]["rules"]
    assert "allowed" not in rows[0]
    for r, word in zip(rows[1:5], ["'zz'", "wider than f32", "got 4 field", "negative"]):
        assert set(r) == {"row", "line", "op", "error"} and word in r["error"], r
    assert rows[5]["bits"] == "0x40400000" and rows[5]["allowed"] is True
    assert rows[6]["allowed"] is False and rows[6]["ulp_error"] != 0
    assert "Traceback" not in err


def test_empty_batch_exits_2(capsys):
    rc, out, err = _run(["eval", "add", "--batch", "-"], capsys, stdin="\n# nothing\n")
    assert rc == 2 and out == "" and "no rows" in err


def test_integer_kinds_in_batch_CONV_ITOF_CONV_FTOI(capsys):
    """itof reads decimal or 0x integers (negatives too) and gives the float32 of the value
    (exact here, so CONV-ITOF's rounding latitude does not apply: oracle numpy float32);
    ftoi takes a decimal observed result and range-checks it (CONV-FTOI clamps to i32)."""
    vals = [-5, 16, -(2**31), 2**31 - 1 - 127, 0, 1 << 24]
    text = "\n".join(str(v) if i % 2 else f"{'-' if v < 0 else ''}0x{abs(v):x}"
                     for i, v in enumerate(vals))
    rc, out, _ = _run(["eval", "itof", "--batch", "-"], capsys, stdin=text)
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 0
    for v, r in zip(vals, rows):
        assert r["operands"] == [str(v)]
        assert r["bits"] == f"0x{int(np.array([v], np.float32).view(np.uint32)[0]):08X}"
    text = "0x4f000000 2147483647\n0x4f000000 2147483648\n0xcf800000 -2147483648\n"
    rc, out, _ = _run(["eval", "ftoi", "--batch", "-"], capsys, stdin=text)
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 1
    assert rows[0]["allowed"] is True and rows[0]["bits"] == "2147483647"
    assert "outside i32" in rows[1]["error"]
    assert rows[2]["bits"] == "-2147483648" and rows[2]["allowed"] is True


@pytest.mark.parametrize("obs, allowed", [("false", True), ("0", True), ("true", False),
                                          ("1", False)])
def test_gpu_result_for_comparisons_F32_CMPNAN(obs, allowed, capsys):
    """NaN == NaN is false (F32-CMPNAN): --gpu-result takes true/false or 1/0; a comparison
    has no ULP error (null)."""
    rc, out, _ = _run(["eval", "eq", "0x7fc00000", "0x7fc00000", "--json", "--gpu-result",
                       obs], capsys)
    d = json.loads(out)
    assert rc == 0 and d["gpu_result"]["allowed"] is allowed
    assert d["gpu_result"]["ulp_error"] is None and "F32-CMPNAN" in d["fired"]


@pytest.mark.parametrize("argv, msg", [
    (["eval", "eq", "1", "1", "--gpu-result", "2"], "true/false"),
    (["eval", "add", "1", "1", "--gpu-result", "0x1ffffffff"], "wider than f32"),
    (["eval", "add", "--", "-0x1", "1"], "cannot be negative"),
    (["eval", "add", "1", "1", "--gpu-result", "maybe"], "not a pattern"),
    (["eval", "to_unorm8", "0x3f000000", "--gpu-result", "300"], "outside unorm8"),
    (["eval", "ftoi", "0x3f800000", "--gpu-result", "2147483648"], "outside i32"),
])
def test_bad_gpu_result_and_operands_exit_2_F32_PREC(argv, msg, capsys):
    rc, out, err = _run(argv, capsys)
    assert rc == 2 and msg in err and "Traceback" not in err and out == ""


def _doc_keys(title: str) -> set[str]:
    text = DOCS.read_text()
    sec = text.split(title, 1)[1].split("\n## ", 1)[0]
    keys = set()
    for row in re.findall(r"^\| (`[^|]+`) \|", sec, re.MULTILINE):
        keys |= set(re.findall(r"`([a-z_]+)`", row))
    return keys


def test_eval_json_keys_are_documented_both_ways_F32_FTZ(capsys):
    """Every key `eval --json` and `eval --batch` print is in docs/cli-json.md and every
    documented key is printed (the acceptance example: F32-FTZ flushes 0x1 * 1.0)."""
    rc, out, _ = _run(["eval", "mul", "0x00000001", "0x3f800000", "--json", "--gpu-result",
                       "0x0"], capsys)
    d = json.loads(out)
    assert rc == 0 and "F32-FTZ" in d["fired"]
    assert set(d) == _doc_keys("## `eval --json` (one operation)")
    rc, out, _ = _run(["eval", "mul", "--batch", "-"], capsys,
                      stdin="0x1 0x3f800000 0x0\nzz 1\n")
    good, bad = (json.loads(x) for x in out.splitlines())
    assert set(good) == _doc_keys("## `eval --batch FILE` (JSON lines)")
    assert set(bad) == {"row", "line", "op", "error"}


def test_huge_decimal_operand_is_read_at_once_IEEE_RNE(capsys):
    """'1e999999999' as an operand encodes to +INF at once (it froze the CLI before)."""
    rc, out, _ = _run(["eval", "add", "1e999999999", "1", "--json"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["operands"][0]["bits"] == "0x7F800000"
