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
