"""An op is one row of data: log10 registered as one OpSpec row (tests/_log10_row.py: its
exact function, tolerance, special-value table and GLSL/WGSL spellings) is evaluated by
the engine, listed and evaluated by `fpinspector eval`, and gets GLSL and WGSL kernels,
with no other change to the package; removed, it is gone from each again.

Oracle: mpmath's log10 at 200 bits rounded once to 24 bits (round to nearest even), and
the special-value table's exact results (log10(1) = 0, log10(10) = 1)."""

from __future__ import annotations

import json

import mpmath
import numpy as np
import pytest
from _cli_run import run_cli
from _log10_row import LOG10_2, log10_row

from fpinspector.gpu import shaders, wgsl_shaders
from fpinspector.gpu.compute_path import compute_source
from fpinspector.gpu.fragment_path import fragment_source
from fpinspector.model import OPS, evaluate

F32_ONE, F32_TEN = 0x3F800000, 0x41200000


def _f32_rne_log10(bits: int) -> int:
    """The oracle: log10 of the f32 value, rounded once to the nearest f32 (even on ties)."""
    x = float(np.uint32(bits).view(np.float32))
    with mpmath.workprec(200):
        v = mpmath.log10(mpmath.mpf(x))
    with mpmath.workprec(24):
        r = +v  # one rounding to 24 significant bits, nearest even
    return int(np.float32(float(r)).view(np.uint32))


def _positive_normals(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    e = rng.integers(1, 254, n, dtype=np.uint32)
    return (e << np.uint32(23)) | rng.integers(0, 1 << 23, n, dtype=np.uint32)


@pytest.mark.parametrize("rules", ["d3d11", "ieee754"])
def test_engine_evaluates_a_registered_op_F32_INSTR_IEEE_RNE(rules):
    """The model result is the correctly rounded log10 on random positive normals (the
    row's exact function, refined near rounding boundaries by its mpmath form), on the
    fast and the reference path alike."""
    ops = _positive_normals(400, 37)
    with log10_row():
        ev = evaluate("log10", ops, format="f32", rules=rules)
        ref = evaluate("log10", ops, format="f32", rules=rules, paths="reference")
        bits = np.asarray(ev.bits)
        assert [int(b) for b in bits] == [_f32_rne_log10(int(o)) for o in ops]
        assert np.array_equal(bits, np.asarray(ref.bits))
        assert np.asarray(ev.allowed(bits)).all()
    assert "log10" not in OPS


def test_tolerance_row_and_special_value_table_are_read_F32_INSTR():
    """d3d11 reads the row's relative 2^-21 tolerance (a result 1 ULP off is allowed;
    ieee754 keeps the shared correctly rounded row and refuses it); the special-value
    table pins log10(10) = 1 and log10(1) = +0: only that pattern, under every rule set."""
    x = 0x40490FDB  # pi: log10(pi) = 0.497...
    with log10_row():
        model = int(evaluate("log10", x).bits)
        assert model == _f32_rne_log10(x)
        off = model + 1
        assert bool(evaluate("log10", x, rules="d3d11").allowed(off))
        assert evaluate("log10", x, rules="d3d11").tolerance.rule == "F32-INSTR"
        assert not bool(evaluate("log10", x, rules="ieee754").allowed(off))
        for rules in ("d3d11", "d3d10", "ieee754"):
            ev = evaluate("log10", [F32_TEN, F32_ONE], rules=rules)
            assert [int(b) for b in ev.bits] == [F32_ONE, 0]
            assert not bool(ev.allowed([F32_ONE + 1, 0])[0])
            assert not bool(ev.allowed([F32_ONE, 1])[1])
            assert not bool(ev.allowed([F32_ONE, 0x80000000])[1])


def test_special_operands_follow_ieee_F32_NANOUT():
    """log10(-1) is NaN, log10(+0) is -INF, log10(+INF) is +INF (numpy's IEEE log10, the
    row's exact function)."""
    with log10_row():
        ev = evaluate("log10", [0xBF800000, 0, 0x7F800000], rules="ieee754")
        b = [int(v) for v in ev.bits]
    assert b[0] & 0x7FC00000 == 0x7FC00000 and b[1:] == [0xFF800000, 0x7F800000]


def test_cli_eval_lists_and_evaluates_a_registered_op(capsys):
    """`fpinspector eval --help` names the op; `eval log10 0x41200000` gives 1.0."""
    with log10_row():
        with pytest.raises(SystemExit):
            run_cli(["eval", "--help"], capsys)
        assert "log10" in capsys.readouterr().out
        rc, out, _ = run_cli(["eval", "log10", "0x41200000", "--json"], capsys)
        d = json.loads(out)
        assert rc == 0 and d["op"] == "log10" and d["result"]["bits"] == "0x3F800000"
    rc, _, err = run_cli(["eval", "log10", "0x41200000"], capsys)
    assert rc != 0 and "unknown op 'log10'" in err


def test_glsl_and_wgsl_sources_are_generated_for_a_registered_op():
    """The row's spellings become kernels: GLSL compute and fragment shaders and the WGSL
    compute shader hold log2(x) * log10(2); after removal there is no kernel."""
    with log10_row():
        k = shaders.find_kernel("log10", "f32")
        assert (k.in_kinds, k.out_kind) == (("f32",), "f32")
        glsl = shaders.kernel_function(k)
        assert f"log2(v0) * {LOG10_2}" in glsl.replace("{0}", "v0") or LOG10_2 in glsl
        for src in (compute_source(k, set()), fragment_source(k, set())):
            assert "kernel(" in src and LOG10_2 in src
        wgsl = wgsl_shaders.compute_source(k)
        assert "log2(" in wgsl and LOG10_2 in wgsl
        assert ("log10", "f16") not in shaders.KERNELS  # the row spells f32 only
    assert ("log10", "f32") not in shaders.KERNELS
    assert ("log10", "f32") not in wgsl_shaders.WGSL_EXPR


def test_expressions_call_a_registered_op_by_its_hlsl_name_F32_INSTR():
    """The row's HLSL spelling log10({0}) makes log10 an intrinsic of the expression
    language: `log10(a) * 2` lowers to the row's op, and its step is the engine's log10
    (log10(10) = 1 exactly, log10(1000) = 3); without the row, log10 is unknown."""
    from fpinspector.model import evaluate_expr
    from fpinspector.model.expr import ExprError

    a = np.float32([10.0, 1000.0, 2.0]).view(np.uint32)
    with log10_row():
        r = evaluate_expr("log10(a) * 2", {"a": a})
        assert [s.op for s in r.program.steps] == ["log10", "mul"]
        direct = np.asarray(evaluate("log10", a).bits)
        assert np.array_equal(r.steps[0].bits, direct)
        assert np.asarray(r.bits).view(np.float32)[:2].tolist() == [2.0, 6.0]
    with pytest.raises(ExprError, match="log10"):
        evaluate_expr("log10(a)", {"a": a})


def test_expression_exact_value_of_a_registered_op_comes_from_its_row_EXPR_EXACT():
    """The whole expression's exact value over a registered op reads the row's exact function
    (engine/exact/: the scalar entry takes the row's rational and mpmath forms; the row's
    bounded form, numpy's log10 within 2^-50, is too wide for a value's 2^-70, so every
    element goes the exact way): `log10(a) * 2` against mpmath's
    log10 at 200 bits times 2 (hi + lo within 2^-70), log10(1000) * 2 = 6 exactly, and
    IEEE's -INF at +0 and NaN at -1 (numpy's log10, the row's float64 function)."""
    from fpinspector.model import evaluate_expr

    xs = [1000.0, 2.0, 0.1, 3.0e-30, 0.0, -1.0]
    a = np.float32(xs).view(np.uint32)
    with log10_row():
        r = evaluate_expr("log10(a) * 2", {"a": a})
        hi, lo = np.asarray(r.exact[0]), np.asarray(r.exact_lo[0])
    with mpmath.workprec(200):
        for k, x in enumerate(np.float32(xs)[:4]):
            want = 2 * mpmath.log10(mpmath.mpf(float(x)))
            got = mpmath.mpf(float(hi[k])) + mpmath.mpf(float(lo[k]))
            assert abs(got - want) <= abs(want) * mpmath.mpf(2) ** -70, (x, got, want)
    assert hi[0] == 6.0 and lo[0] == 0.0
    assert hi[4] == -np.inf and np.isnan(hi[5])
