"""Every ULP error the CLI prints says what it is measured against (issue 36): the sweep
summary's worst inputs, gpu-compare's ULP rows, and expr's result; a d3d11 f32 sweep says
its exact value is the one after input flush (F32-FTZ)."""

from __future__ import annotations

import re

from fpinspector import cli


def _out(argv, capsys) -> str:
    assert cli.main(argv) == 0
    return capsys.readouterr().out


def test_sweep_worst_inputs_name_their_error_F32_FTZ(capsys) -> None:
    out = _out(["sweep", "mul", "--domain", "log:1e-42:1e-30:8", "--domain-b", "lin:0.25:4:6",
                "-q"], capsys)
    assert "vs the exact value after the rule set's input flush, F32-FTZ" in out
    worst = [ln for ln in out.splitlines() if "worst:" in ln]
    assert worst and all(re.search(r"model vs exact \S+ ULP$", ln) for ln in worst), worst
    out = _out(["sweep", "mul", "--rules", "ieee754", "--domain", "lin:1:2:4", "--domain-b",
                "lin:1:2:4", "-q"], capsys)
    assert "input flush" not in out


def test_gpu_compare_ulp_rows_say_vs_exact(capsys) -> None:
    out = _out(["gpu-compare", "example:llvmpipe", "example:softpipe", "--all"], capsys)
    rows = [ln for ln in out.splitlines() if re.search(r": max \S+ ULP", ln)]
    assert rows and all(" ULP vs exact, mean " in ln for ln in rows), rows[:3]


def test_expr_result_error_says_vs_exact(capsys) -> None:
    out = _out(["expr", "a*b", "--set", "a=1.1", "--set", "b=1.3"], capsys)
    # (an expression's exact value is of the raw inputs: model/expr/exact.py)
    assert re.search(r"error \S+ ULP vs exact of the raw inputs \(f32\)", out), out


def test_batch_rows_carry_the_raw_inputs_figures_of_eval_json_F32_FTZ(capsys) -> None:
    """`eval --batch` gives, per row, the same exact value of the raw inputs and ULP error
    against it as `eval --json` of that row, only where the flush changed the exact value
    (1e-45 x 0 is 0 either way). The raw product 2^-149 x 1.5 by Fraction."""
    import json
    from fractions import Fraction

    rows = [("0x1", "0x3fc00000", "0x1"), ("0x3f800000", "0x3f800000", "0x3f800000"),
            ("0x1", "0x0", "0x0"), ("0x80000003", "0x40000000", "0x0")]
    import io
    import sys

    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO("\n".join(" ".join(r) for r in rows).encode()))
    try:
        out = _out(["eval", "mul", "--batch", "-"], capsys)
    finally:
        sys.stdin = stdin
    got = [json.loads(ln) for ln in out.splitlines()]
    assert Fraction(got[0]["exact_raw"]) == Fraction(2) ** -149 * Fraction(3, 2)
    for (a, b, obs), g in zip(rows, got):
        one = json.loads(_out(["eval", "mul", a, b, "--gpu-result", obs, "--json"], capsys))
        assert g.get("exact_raw") == one.get("exact_raw")
        assert g.get("ulp_error_raw") == one["gpu_result"].get("ulp_error_raw")
        assert g["ulp_error"] == one["gpu_result"]["ulp_error"]
    assert "exact_raw" in got[0] and "exact_raw" in got[3]
    assert "exact_raw" not in got[1] and "exact_raw" not in got[2]
