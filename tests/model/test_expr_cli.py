"""`fpinspector expr` and `fpinspector sweep --expr` without a GPU: the step table, JSON,
and bad input as a one-line message with a caret and exit status 2 (never a traceback)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fpinspector.cli import main


def run(argv, capsys):
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_step_table_and_result(capsys):
    rc, out, err = run(["expr", "n * rsqrt(dot(n, n))", "--set", "n=float3(1e-20,0,0)"], capsys)
    assert rc == 0 and not err
    assert "r0 = dp3 n.x, n.y, n.z, n.x, n.y, n.z" in out
    assert "F32-FTZ" in out and "+INF" in out
    assert "x: model 0x7F800000 (+INF), exact 1.0, error inf ULP" in out


def test_json_schema(capsys):
    rc, out, _ = run(["expr", "saturate(a * b + c)", "--set", "a=1.5", "--set", "b=2",
                      "--set", "c=-1", "--json"], capsys)
    assert rc == 0
    rep = json.loads(out)
    assert rep["schema"] == "fpinspector.expr" and rep["version"] == 1
    assert rep["listing"] == ["r0 = mul a, b", "r1 = add_sat r0, c"]
    s1 = rep["steps"][1]
    assert s1["instruction"] == "add_sat" and s1["model"]["hex"] == "0x3F800000"
    assert s1["rules"] == ["EXPR-SAT"]  # 3 - 1 = 2 exactly: nothing rounded
    assert s1["allowed"]["ranges"] == [[0x3F800000, 0x3F800000]]
    assert [i["hex"] for i in s1["inputs"]] == ["0x40400000", "0xBF800000"]
    comp = rep["result"]["components"][0]
    assert comp["exact"] == 1.0 and comp["ulp_error"] == 0.0 and comp["format"] == "f32"
    assert "gpu" not in rep


@pytest.mark.parametrize("argv, words", [
    (["expr", "dot(a, b)", "--set", "a=float2(1,2)", "--set", "b=float3(1,2,3)"],
     "dot(float2, float3): both operands must have the same size (at column 1)"),
    (["expr", "a +", "--set", "a=1"], "ends here (at column 4)"),
    (["expr", "a + b", "--set", "a=1"], "unbound variable 'b'"),
    (["expr", '__import__("os").system("echo hi")'], "(at column 1)"),
    (["expr", "a", "--set", "a=float3(1,2)"], "--set a: float3 needs 3 components"),
    (["expr", "a", "--set", "a"], "expected NAME=VALUE"),
    (["sweep", "--expr", "a * b + c", "-d", "lin:0:1:4"], "1 or 2 variables, got 3"),
    (["sweep", "--expr", "a * q", "--set", "q=1", "--axes", "a,b"], "no such variable"),
    (["sweep", "mul", "--expr", "a * b"], "either OP or --expr"),
    (["sweep", "--expr", "dot(a, n)", "--set", "n=float2(1,2)", "-d", "lin:0:1:4"],
     "same size"),
    (["sweep"], "give an op"),
])
def test_bad_input_exits_2_with_a_message(argv, words, capsys):
    rc, out, err = run(argv, capsys)
    assert rc == 2, (out, err)
    assert words in err and "Traceback" not in err
    assert not out


def test_caret_under_the_offending_text(capsys):
    rc, _, err = run(["expr", "a + foo(b)", "--set", "a=1", "--set", "b=2"], capsys)
    lines = err.splitlines()
    assert rc == 2 and lines[1] == "a + foo(b)" and lines[2] == "    ^~~"


def test_sweep_expr_writes_a_map(tmp_path, capsys):
    out = tmp_path / "m.npz"
    rc, text, err = run(["sweep", "--expr", "saturate(a * b + c)", "--set", "c=0.25", "-d",
                         "lin:-2:2:16", "--domain-b", "log:1e-3:1e3:8", "--out", str(out),
                         "-q"], capsys)
    assert rc == 0, err
    assert "over a x b" in text and "EXPR-SAT" in text
    from fpinspector.model.sweep import load_npz
    res = load_npz(out)
    assert res.domain.shape == (16, 8) and res.meta["expression"] == "saturate(a * b + c)"
    assert res.meta["variables"] == ["a", "b"] and res.meta["bindings"] == {"c": "0.25"}
    m = res.columns["model"].view(np.float32)
    assert np.all((m >= 0) & (m <= 1))


def test_sweep_expr_one_axis_vector_component(capsys):
    rc, text, err = run(["sweep", "--expr", "n * rsqrt(dot(n, n))", "--axes", "n.x", "--set",
                         "n=float3(0, 2, 3)", "-d", "log:1e-30:1e30:64", "-q",
                         "--component", "x"], capsys)
    assert rc == 0, err
    assert "elements: 64" in text
