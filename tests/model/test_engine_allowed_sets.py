"""Allowed results are exact sets (docs/rules.md "How to read a verdict"): zeros distinct
(ALLOWED-ZERO), fused ops as the union of serial orders (F32-FUSED), identities exact
(F32-IDENT), inclusive tolerance edges (F32-SQRT-RCP, F32-INSTR), drcp exact when
representable (F64-RCP), dtof (CONV-DTOF), and verdict sentences that agree with the set.

Oracles: Fraction arithmetic and struct packing (tests/model/_engine_oracle.py), written
from the rule book, never from the engine.
"""

from __future__ import annotations

import struct
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from _engine_oracle import F32_MAX, bits32, f32

from fpinspector.model import evaluate

NEG0, POS0 = 0x80000000, 0x00000000
ONE = bits32(1.0)
INF, NINF = 0x7F800000, 0xFF800000


def _allowed(ev, *obs: int) -> list[bool]:
    return [bool(ev.allowed(np.uint32(o))) for o in obs]


@pytest.mark.parametrize("rules", ["d3d11", "d3d10", "ieee754"])
def test_exact_zero_sum_keeps_ieee_sign_ALLOWED_ZERO_F32_FUSED(rules):
    """mad(-0, 1, -0) and dp2(-0, -0; 1, 1) are -0 (every term is -0); +0 is not allowed.
    mad(-0, 1, +0) is +0 (IEEE: x + (-x) rounds to +0)."""
    ev = evaluate("mad", NEG0, ONE, NEG0, rules=rules)
    assert int(ev.bits) == NEG0 and _allowed(ev, NEG0, POS0) == [True, False]
    ev = evaluate("dp2", NEG0, NEG0, ONE, ONE, rules=rules)
    assert int(ev.bits) == NEG0 and _allowed(ev, NEG0, POS0) == [True, False]
    ev = evaluate("mad", NEG0, ONE, POS0, rules=rules)
    assert int(ev.bits) == POS0 and _allowed(ev, NEG0, POS0) == [False, True]


@pytest.mark.parametrize("step", [0.5, 1.0])
def test_fused_overflow_in_every_order_allows_only_that_infinity_F32_FUSED(step):
    """mad(-2^100, 2^100, 1): every serial order overflows to -INF (and so does the fused
    result): +INF and +1.0 are not allowed. mad(2^100, 2^100, -INF): the serial order gives
    INF - INF = NaN, the fused result -INF: both allowed."""
    big = bits32(2.0**100)
    opts = {"fused_step_ulp": step}
    ev = evaluate("mad", big | 0x80000000, big, ONE, options=opts)
    assert _allowed(ev, NINF, INF, ONE) == [True, False, False]
    assert not ev.allowed_set(0).any_nan
    ev = evaluate("mad", big, big, NINF, options=opts)
    assert _allowed(ev, NINF, INF, 0x7FC00000, 0xFFC00001) == [True, False, True, True]


@pytest.mark.parametrize("op,operands,zero", [
    ("sqrt", (NEG0,), NEG0), ("sqrt", (0x80000001,), NEG0),  # flushed -0: sqrt(-0) = -0
    ("div", (POS0, bits32(2.0)), POS0), ("div", (NEG0, bits32(2.0)), NEG0),
    ("rcp", (NINF,), NEG0), ("rcp", (INF,), POS0),
    ("exp", (NINF,), POS0), ("rsq", (INF,), POS0),
])
@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
def test_window_reaching_zero_holds_only_the_produced_zero_ALLOWED_ZERO(op, operands, zero, rules):
    """A tolerance window that touches zero contains only the zero the operation produces."""
    ev = evaluate(op, *operands, rules=rules)
    other = zero ^ 0x80000000
    assert int(ev.bits) == zero
    assert _allowed(ev, zero, other) == [True, False]
    assert ev.allowed_set(0).ranges == ((zero, zero),)


def test_d3d10_one_ulp_windows_do_not_cross_zero_ALLOWED_ZERO_F32_PREC():
    """d3d10 (1 ULP): mul(1.5, +0) is +0 only; x + (-x) is +0 only (IEEE sign of an exact
    zero sum), never -0."""
    ev = evaluate("mul", bits32(1.5), POS0, rules="d3d10")
    assert _allowed(ev, POS0, NEG0) == [True, False]
    x = bits32(1.2345)
    ev = evaluate("add", x, x | 0x80000000, rules="d3d10")
    assert _allowed(ev, POS0, NEG0) == [True, False]
    ev = evaluate("sub", x, x, rules="d3d10")
    assert _allowed(ev, POS0, NEG0) == [True, False]


def test_tiny_result_rounds_to_the_zero_of_its_sign_ALLOWED_ZERO_F32_FTZ():
    """A positive result below the smallest normal is flushed to +0, never -0 (and a
    negative one to -0); under ieee754 the denormal itself."""
    a, b = bits32(2.0**-70), bits32(2.0**-70)
    ev = evaluate("mul", a, b)  # 2^-140: a denormal, flushed
    assert int(ev.bits) == POS0 and _allowed(ev, POS0, NEG0, 0x40) == [True, False, False]
    ev = evaluate("mul", a, b | 0x80000000)
    assert int(ev.bits) == NEG0 and _allowed(ev, NEG0, POS0) == [True, False]
    ev = evaluate("mul", a, b, rules="ieee754")
    assert int(ev.bits) == bits32(2.0**-140) and _allowed(ev, POS0) == [False]


@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
def test_multiply_and_divide_by_minus_one_are_exact_F32_IDENT(rules):
    """x * (-1) = -x and x / (-1) = -x exactly: d3d10 FLT_MAX * -1 rejects -INF; 1.5 / -1
    rejects 0xBFC00002."""
    m1 = bits32(-1.0)
    mx = bits32(F32_MAX)
    ev = evaluate("mul", mx, m1, rules=rules)
    assert int(ev.bits) == mx | 0x80000000
    assert _allowed(ev, mx | 0x80000000, NINF, 0xFF7FFFFE) == [True, False, False]
    assert "F32-IDENT" in ev.rules_at(0)
    ev = evaluate("div", bits32(1.5), m1, rules=rules)
    assert _allowed(ev, 0xBFC00000, 0xBFC00001, 0xBFC00002) == [True, False, False]


def _rel_ok(v: int, exact: Fraction) -> bool:
    return abs(Fraction(f32(v)) - exact) <= Fraction(1, 2**21) * abs(exact)


def test_relative_edges_are_inclusive_F32_SQRT_RCP_F32_INSTR():
    """rcp(1.5) observed 0x3F2AAAB0 is exactly 2^-21 (relative) from 2/3: allowed;
    0x3F2AAAB1 is not. rsq(9) = 1/3: its edge patterns likewise (Fraction oracle)."""
    ev = evaluate("rcp", bits32(1.5))
    for v in range(0x3F2AAAA0, 0x3F2AAAB4):
        assert bool(ev.allowed(np.uint32(v))) == (_rel_ok(v, Fraction(2, 3))
                                                  or abs(Fraction(f32(v)) - Fraction(2, 3))
                                                  <= Fraction(1, 2**24)), hex(v)
    assert ev.allowed(0x3F2AAAB0) and not ev.allowed(0x3F2AAAB1)
    ev = evaluate("rsq", bits32(9.0))
    third = Fraction(1, 3)
    lo_edge = [v for v in range(0x3EAAAA00, 0x3EAAAC00) if _rel_ok(v, third)]
    assert _rel_ok(lo_edge[0], third) and not _rel_ok(lo_edge[0] - 1, third)
    for v in (lo_edge[0] - 1, lo_edge[0], lo_edge[-1], lo_edge[-1] + 1):
        assert bool(ev.allowed(np.uint32(v))) == _rel_ok(v, third), hex(v)


def test_relative_edges_random_rcp_against_fractions_F32_SQRT_RCP():
    """Random rcp operands (option rcp_tolerance=rel): every pattern near both window ends
    is judged exactly as the Fraction inequality |v - 1/x| <= 2^-21 |1/x| says."""
    rng = np.random.default_rng(11)
    x = (rng.uniform(1, 2, 300) * 2.0 ** rng.integers(-30, 30, 300)).astype(np.float32)
    ev = evaluate("rcp", x.view(np.uint32), options={"rcp_tolerance": "rel"})
    for i in range(x.size):
        q = 1 / Fraction(float(x[i]))
        s = ev.allowed_set(i)
        (a, b), = s.ranges
        for v in (a - 1, a, b, b + 1):
            assert bool(ev.allowed(np.full(x.size, v, np.uint32))[i]) == _rel_ok(v, q)


def test_mpmath_precision_of_the_caller_is_untouched():
    """The engine's exact references use a private mpmath context."""
    mpmath.mp.prec = 77
    try:
        x = np.arange(0x3F800001, 0x3F800001 + 20000, dtype=np.uint32)
        for op in ("rsq", "log", "exp"):
            evaluate(op, x).allowed(np.zeros(x.size, np.uint32))
        assert mpmath.mp.prec == 77
    finally:
        mpmath.mp.prec = 53


def _f64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def test_drcp_is_exact_when_the_reciprocal_is_representable_F64_RCP():
    """rcp(2.0) must be 0.5 exactly; rcp(3.0) may be either neighbour of 1/3 (1 ULP)."""
    ev = evaluate("rcp", _f64(2.0), format="f64")
    half = _f64(0.5)
    assert [bool(ev.allowed(np.uint64(v))) for v in (half - 1, half, half + 1)] == [
        False, True, False]
    assert "F64-RCP" in ev.rules_at(0)
    ev = evaluate("rcp", _f64(3.0), format="f64")
    third = Fraction(1, 3)
    u = Fraction(2) ** -54  # the ULP of the binade [2^-2, 2^-1)
    for v in range(_f64(1 / 3) - 3, _f64(1 / 3) + 4):
        d = abs(Fraction(struct.unpack("<d", struct.pack("<Q", v))[0]) - third)
        assert bool(ev.allowed(np.uint64(v))) == (d <= u), hex(v)


def test_dtof_nearest_even_with_kept_or_flushed_denormals_and_either_overflow_CONV_DTOF():
    """dtof: nearest even; a denormal f32 result may be kept or flushed; beyond the range
    +/-INF and +/-FLT_MAX are both allowed by default, option dtof_overflow picks one."""
    x = 1 + 2**-24 + 2**-40  # above the midpoint: rounds up
    ev = evaluate("dtof", _f64(x), format="f64")
    assert int(ev.bits) == 0x3F800001 and not ev.allowed(0x3F800000)
    d = 3 * 2.0**-140
    ev = evaluate("dtof", _f64(d), format="f64")
    assert _allowed(ev, bits32(d), POS0, NEG0) == [True, True, False]
    ev = evaluate("dtof", _f64(-1e300), format="f64")
    assert _allowed(ev, NINF, 0xFF7FFFFF, INF) == [True, True, False]
    only_inf = evaluate("dtof", _f64(1e300), format="f64", options={"dtof_overflow": "inf"})
    assert _allowed(only_inf, INF, 0x7F7FFFFF) == [True, False]
    only_max = evaluate("dtof", _f64(1e300), format="f64", options={"dtof_overflow": "max"})
    assert _allowed(only_max, INF, 0x7F7FFFFF) == [False, True]


def test_frc_of_tiny_negative_allows_one_only_with_the_option_F32_INSTR():
    """frc(-2^-30): the table's [+0, 1) gives 0x3F7FFFFF; option frc_allow_one adds 1.0."""
    x = bits32(-(2.0**-30))
    ev = evaluate("frc", x)
    assert int(ev.bits) == 0x3F7FFFFF and _allowed(ev, 0x3F7FFFFF, ONE) == [True, False]
    ev = evaluate("frc", x, options={"frc_allow_one": True})
    assert _allowed(ev, 0x3F7FFFFF, ONE) == [True, True]


def test_allowed_set_text_is_exact():
    """The printed set names every part exactly: zeros by sign, shortest decimals, NaN."""
    assert str(evaluate("sqrt", NEG0).allowed_set(0)) == "{0x80000000 (-0)}"
    s = evaluate("div", bits32(3.0), bits32(2.0**127)).allowed_set(0)
    assert str(s) == "{0x00000000 (+0)} ∪ {0x00C00000 (1.7632415e-38)}"
    assert str(evaluate("mul", INF, POS0).allowed_set(0)) == "any NaN"
    s = evaluate("sqrt", bits32(2.0), rules="d3d10").allowed_set(0)
    assert s.ranges == ((0x3FB504F3, 0x3FB504F4),)
    assert str(s) == "[0x3FB504F3 (1.4142135), 0x3FB504F4 (1.4142137)]"


def test_verdict_agrees_with_set_and_ulp_error_F32_FTZ():
    """mad(2^-126, 0.5, 0) observed 0x00400000 (the exact value, a denormal): not
    conformant, because a denormal result must be flushed (F32-FTZ); ULP error 0."""
    ev = evaluate("mad", 0x00800000, bits32(0.5), POS0)
    v = ev.verdict(0, 0x00400000)
    assert not v.conformant and v.ulp_error == 0.0
    assert "denormal result must be flushed" in v.reason and "F32-FTZ" in v.reason
    assert v.reason.startswith("exact value")
    ok = ev.verdict(0, int(ev.bits))
    assert ok.conformant and ok.ulp_error is not None


def test_verdict_says_when_ulp_error_means_nothing_CONV_F2F_SAT():
    """to_f11(FLT_MAX) saturates to 65024: conformant, and no ULP error is quoted."""
    ev = evaluate("to_f11", 0x7F7FFFFF)
    v = ev.verdict(0, int(ev.bits))
    assert v.conformant and v.ulp_error is None and "saturates" in v.ulp_note
    v = evaluate("mul", INF, POS0).verdict(0, 0x7FC00000)
    assert v.conformant and v.ulp_error is None


@pytest.mark.parametrize("call,needle", [
    (lambda: evaluate("nosuchop", 1), "unknown op"),
    (lambda: evaluate("add", 1), "takes 2 operand"),
    (lambda: evaluate("add", np.array([1.0, 2.0]), 1), "floating-point"),
    (lambda: evaluate("add", np.zeros(3, np.uint32), np.zeros(4, np.uint32)), "broadcast"),
    (lambda: evaluate("add", 1, 2, rules="d3d12"), "unknown rule set"),
    (lambda: evaluate("add", 1, 2, paths="turbo"), "paths"),
    (lambda: evaluate("add", -1, 2), "non-negative"),
    (lambda: evaluate("add", 1 << 40, 2), "wider"),
    (lambda: evaluate("add", "x", 2), "operand A"),
])
def test_bad_input_raises_value_error_naming_the_problem(call, needle):
    with pytest.raises(ValueError, match=needle):
        call()
