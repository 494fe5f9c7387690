"""The allowed sets of issue 34's ten classes, each against an independent oracle
(tests/model/_allowed_oracle.py: Fractions and mpmath, written from docs/rules.md): log2's
absolute window across zero (ALLOWED-ZERO), the 1-ULP windows at the top of the range
(F32-WINDOW-TOP), the divide's route with huge divisors (F32-DIV), ``ftz_output=either``
(F32-FTZ, ALLOWED-ZERO), frc under d3d10 (F32-INSTR), exp of zero (F32-INSTR) and the d3d10
divide (F32-DIV-D3D10).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from _allowed_oracle import (
    FMAX,
    INFP,
    MAXP,
    SIGN,
    bits32,
    flushed,
    rn,
    to_keys,
    value_of,
    value_range_keys,
    window_1ulp,
)

from fpinspector.model import evaluate

EITHER = {"ftz_output": "either"}


def _keys(ev, i: int = 0) -> tuple[tuple[tuple[int, int], ...], bool]:
    s = ev.allowed_set(i)
    return s.keys, s.any_nan


def _mp_fraction(x) -> Fraction:
    m, e = x.man_exp  # (the mantissa is unsigned)
    v = Fraction(int(m)) * Fraction(2) ** int(e)
    return -v if x < 0 else v


# -- class 1: log2's absolute window crosses zero (ALLOWED-ZERO, F32-INSTR) -----------------

def _log_cases() -> list[int]:
    one = 0x3F800000
    return ([one + k for k in range(0, 12)] + [one - k for k in range(1, 12)]
            + [one + 40, one - 40, bits32(1.0 + 2.0**-21), bits32(1.0 - 2.0**-22)])


@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
@pytest.mark.parametrize("ftz", ["strict", "either"])
def test_log2_absolute_window_crosses_zero_ALLOWED_ZERO_F32_INSTR(rules, ftz):
    """log2 for x in [0.5, 2] is allowed an absolute 2^-21: near x = 1 the window holds
    results of both signs, and a denormal among them flushes to the zero of its sign
    (log2(1 + 2^-23) allows -0 and small negative normals)."""
    xs = _log_cases()
    ev = evaluate("log", np.array(xs, dtype=np.uint32), rules=rules,
                  options={"ftz_output": ftz})
    d = Fraction(2) ** -21
    with mpmath.workprec(300):
        for i, p in enumerate(xs):
            x = _mp_fraction(mpmath.log(mpmath.mpf(value_of(p).numerator)
                                        / value_of(p).denominator, 2))
            want = value_range_keys(x - d, x + d, ftz)
            assert _keys(ev, i) == (want, False), hex(p)


# -- class 3: 1-ULP windows at the top of the range (F32-WINDOW-TOP) -------------------------

_TOP_A = [MAXP, MAXP - 1, MAXP - 2, bits32(2.0**127), bits32(1.5 * 2.0**127), 0x7F000001]
_TOP_B = [bits32(2.0**104), bits32(2.0**103), bits32(3 * 2.0**103), bits32(1.0),
          bits32(2.0**105), bits32(1.5), bits32(2.0), bits32(0.75), bits32(1.0 - 2.0**-24)]


def _top_cases():
    for a in _TOP_A:
        for b in _TOP_B:
            for sa in (0, SIGN):
                for sb in (0, SIGN):
                    yield a | sa, b | sb


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@pytest.mark.parametrize("rules,opts", [("d3d10", None), ("d3d11", {"lenient_d3d11": True})])
def test_one_ulp_window_reaches_inf_only_beyond_flt_max_F32_WINDOW_TOP(op, rules, opts):
    """A 1-ULP window holds the exact value's two neighbours; INF only for an exact value
    beyond FLT_MAX (whose lower neighbour, FLT_MAX, is in too). An exact FLT_MAX
    (2^127 * (2 - 2^-23), FLT_MAX - ulp + ulp) never allows INF."""
    cases = [(a, b) for a, b in _top_cases()
             if not (op == "mul" and (b & 0x7FFFFFFF) == 0x3F800000)]
    A = np.array([a for a, _ in cases], dtype=np.uint32)
    B = np.array([b for _, b in cases], dtype=np.uint32)
    ev = evaluate(op, A, B, rules=rules, options=opts)
    for i, (a, b) in enumerate(cases):
        va, vb = value_of(a), value_of(b)
        x = {"add": va + vb, "sub": va - vb, "mul": va * vb}[op]
        want = to_keys(flushed(window_1ulp(x), "strict"))
        assert _keys(ev, i) == (want, False), (op, hex(a), hex(b))


def test_exact_flt_max_never_allows_inf_F32_WINDOW_TOP():
    ev = evaluate("mul", bits32(2.0**127), 0x3FFFFFFF, rules="d3d10")
    assert not ev.allowed(np.uint32(INFP))
    assert ev.allowed(np.uint32(MAXP))
    ev = evaluate("add", MAXP, MAXP, rules="d3d10")  # 2 FLT_MAX: INF and FLT_MAX
    assert ev.allowed(np.array([INFP, MAXP], dtype=np.uint32)).all()


# -- classes 5 and 6: the divide's route with huge divisors (F32-DIV, F32-FTZ) ---------------

def _div_route_oracle(x: int, y: int, ftz: str) -> tuple[tuple[tuple[int, int], ...], bool]:
    """F32-DIV (d3d11), from the rule book: the correctly rounded x/y, or x * r for every
    r a 1-ULP rcp(y) may give, r flushed if denormal, the product rounded to nearest and
    flushed (both forms kept under ftz_output=either). Normal finite x, y here."""
    vx, vy = value_of(x), value_of(y)
    out = flushed([rn(vx / vy, zero_neg=(vx < 0) != (vy < 0))], ftz)
    for r in flushed(window_1ulp(1 / vy), "strict"):
        vr = value_of(r)
        prod = vx * vr
        out |= flushed([rn(prod, zero_neg=(vx < 0) != bool(r & SIGN))], ftz)
    return to_keys(out), False


_HUGE_Y = [bits32(2.0**126), bits32(2.0**126) + 1, bits32(2.0**126) - 1, bits32(1.5 * 2.0**126),
           bits32(2.0**127), MAXP, bits32(3.0 * 2.0**125), bits32(2.0**125)]
_X = [bits32(1.0), bits32(3.0), bits32(2.0**127), bits32(1.5 * 2.0**127), MAXP,
      bits32(2.0**100), bits32(1.0 + 2.0**-23), bits32(7.0), bits32(2.0**-100)]


@pytest.mark.parametrize("ftz", ["strict", "either"])
def test_divide_route_with_huge_divisors_F32_DIV(ftz):
    """|y| >= 2^126: the route's reciprocal is a flushed denormal (a zero of the quotient's
    sign) or a normal within 1 ULP of 1/y (y = 2^126: 2^-126 and its upper neighbour); x
    is never multiplied by an unflushed denormal. Under ftz_output=either the correctly
    rounded denormal quotient is allowed unflushed too."""
    cases = [(x | sx, y | sy) for x in _X for y in _HUGE_Y for sx in (0, SIGN) for sy in (0, SIGN)]
    X = np.array([c[0] for c in cases], dtype=np.uint32)
    Y = np.array([c[1] for c in cases], dtype=np.uint32)
    ev = evaluate("div", X, Y, options={"ftz_output": ftz})
    for i, (x, y) in enumerate(cases):
        assert _keys(ev, i) == _div_route_oracle(x, y, ftz), (hex(x), hex(y))


def test_divide_by_2_126_keeps_rcp_upper_neighbour_F32_DIV():
    """y = 2^126: rcp(y) may be 2^-126 + 2^-149 (the engine's own rcp set lists it), so
    2^127 / 2^126 allows 2^127 * (2^-126 + 2^-149) rounded, never 2^-21 (x times a
    denormal)."""
    x, y = bits32(1.5 * 2.0**127), bits32(2.0**126)
    ev = evaluate("div", x, y)
    r_up = Fraction(2) ** -126 + Fraction(2) ** -149
    assert ev.allowed(np.uint32(rn(value_of(x) * r_up)))
    assert not ev.allowed(np.uint32(bits32(1.5 * 2.0**-21)))
    assert evaluate("rcp", y).allowed(np.uint32(bits32(2.0**-126) + 1))


# -- class 7: ftz_output=either adds only denormals some evaluation produces (ALLOWED-ZERO) --

_ZERO_CASES = [  # (op, operands, the exact zero's pattern)
    ("sqrt", (0,), 0), ("sqrt", (SIGN,), SIGN), ("sqrt", (1,), 0), ("sqrt", (SIGN | 5,), SIGN),
    ("rcp", (INFP,), 0), ("rcp", (INFP | SIGN,), SIGN),
    ("sub", (bits32(1.0), bits32(1.0)), 0), ("add", (bits32(1.5), bits32(-1.5)), 0),
    ("add", (SIGN, SIGN), SIGN), ("mul", (0, bits32(3.0)), 0), ("mul", (SIGN, bits32(3.0)), SIGN),
    ("div", (0, bits32(3.0)), 0), ("div", (SIGN, bits32(3.0)), SIGN),
    ("mad", (0, 0, 0), 0), ("mad", (SIGN, bits32(1.0), SIGN), SIGN),
    ("dp2", (SIGN, SIGN, bits32(1.0), bits32(1.0)), SIGN),
    ("frc", (0,), 0), ("frc", (bits32(5.0),), 0), ("frc", (bits32(-3.0),), 0),
    ("round_ne", (SIGN | 7,), SIGN), ("exp", (INFP | SIGN,), 0),
]


@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
@pytest.mark.parametrize("opts", [EITHER, None, {"fused_step_ulp": 1.0, **EITHER}])
@pytest.mark.parametrize("op,operands,zero", _ZERO_CASES)
def test_exact_zero_allows_only_itself_ALLOWED_ZERO_F32_FTZ(op, operands, zero, rules, opts):
    """An exact zero result (sqrt(0), 1 - 1, frc(0), 0 * 3, rcp(INF)) allows that zero
    alone, under every window width and ftz_output=either: no evaluation produces the
    denormal 2^-149 (before: [+0, 2^-149] under either)."""
    ev = evaluate(op, *operands, rules=rules, options=opts)
    assert _keys(ev) == (to_keys([zero]), False)


@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
def test_either_keeps_the_denormals_of_a_denormal_exact_result_F32_FTZ(rules):
    """A denormal exact result: ftz_output=either allows the patterns the window holds
    unflushed, and the zero they flush to (d3d10 1.5 * 2^-126 - 2^-126 = 2^-127)."""
    a, b = bits32(1.5 * 2.0**-126), bits32(-(2.0**-126))
    ev = evaluate("add", a, b, rules=rules, options=EITHER)
    x = value_of(a) + value_of(b)
    pats = window_1ulp(x) if rules == "d3d10" else [rn(x)]
    assert _keys(ev) == (to_keys(flushed(pats, "either")), False)


# -- class 8: frc is exact under d3d10 too (F32-INSTR) ---------------------------------------

def _frc_oracle(p: int) -> int:
    x = value_of(p)
    if is_den_pattern(p):
        x = Fraction(0)
    frac = x - math.floor(x)
    r = rn(frac)
    if r == bits32(1.0):  # the table's [+0, 1): the value below 1
        r -= 1
    return flushed([r], "strict").pop()


def is_den_pattern(p: int) -> bool:
    return 0 < (p & 0x7FFFFFFF) < 0x800000


@pytest.mark.parametrize("rules", ["d3d10", "d3d11"])
def test_frc_is_exact_under_both_rule_sets_F32_INSTR(rules):
    """frc's table row says "same" for d3d10: x - round_ni(x), rounded once, in [+0, 1)
    (before: a 1-ULP window under d3d10)."""
    rng = np.random.default_rng(8)
    pats = [0, SIGN, 1, SIGN | 1, bits32(5.0), bits32(-3.0), bits32(1.3), bits32(-1.3),
            bits32(-(2.0**-30)), bits32(2.0**-30), bits32(1e7 + 0.5), bits32(-0.75)]
    pats += [int(p) for p in rng.integers(0, 0x4B800000, 300)]
    pats += [int(p) | SIGN for p in rng.integers(0, 0x4B800000, 300)]
    ev = evaluate("frc", np.array(pats, dtype=np.uint32), rules=rules)
    for i, p in enumerate(pats):
        assert _keys(ev, i) == (to_keys([_frc_oracle(p)]), False), hex(p)


# -- class 10: exp of zero is 1 (F32-INSTR); the d3d10 divide (F32-DIV-D3D10) ---------------

@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
@pytest.mark.parametrize("opts", [None, EITHER])
def test_exp_of_zero_and_denormals_is_exactly_one_F32_INSTR(rules, opts):
    """exp(+/-0) = 1 exactly, and a denormal operand (flushed to 0) too: the instruction
    table is more specific than the 2^-21 relative tolerance."""
    xs = [0, SIGN, 1, SIGN | 1, 0x007FFFFF, SIGN | 0x007FFFFF, 0x00400000]
    ev = evaluate("exp", np.array(xs, dtype=np.uint32), rules=rules, options=opts)
    for i in range(len(xs)):
        assert _keys(ev, i) == (to_keys([bits32(1.0)]), False)
    near = evaluate("exp", bits32(2.0**-30), rules=rules)  # a normal tiny x keeps its window
    assert near.allowed_set(0).count() > 1


def _d3d10_div_oracle(x: int, y: int) -> tuple[tuple[tuple[int, int], ...], bool]:
    """F32-DIV-D3D10: within 1 ULP of the exact quotient, IEEE special values, flushed."""
    fx = value_of(x if not 0 < (x & 0x7FFFFFFF) < 0x800000 else x & SIGN)
    fy = value_of(y if not 0 < (y & 0x7FFFFFFF) < 0x800000 else y & SIGN)
    neg = bool((x ^ y) & SIGN)
    if isinstance(fx, float) or isinstance(fy, float):
        a, b = float(fx), float(fy)
        if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b)):
            return (), True
        if math.isinf(a):
            return to_keys([INFP | (SIGN if neg else 0)]), False
        return to_keys([SIGN if neg else 0]), False  # finite / INF
    if fy == 0:
        if fx == 0:
            return (), True
        return to_keys([INFP | (SIGN if neg else 0)]), False
    if (y & 0x7FFFFFFF) == 0x3F800000:  # F32-IDENT: x / (+/-1) is exact
        return to_keys(flushed([rn(fx / fy, neg)], "strict")), False
    return to_keys(flushed(window_1ulp(fx / fy, neg), "strict")), False


def test_d3d10_divide_is_one_ulp_with_ieee_specials_F32_DIV_D3D10():
    """Under d3d10 x/y is within 1 ULP of the exact quotient with IEEE special values: no
    two-step route, so INF / 2^127 is +INF, never NaN (before: NaN allowed), and 2^127 /
    (1.5 * 2^126) never +0."""
    rng = np.random.default_rng(10)
    xs = _X + [INFP, 0, 1, bits32(2.0**-126)] + [int(p) for p in rng.integers(0, 0x7F800000, 60)]
    ys = _HUGE_Y + [INFP, 0, bits32(1.0), bits32(3.0)] + [int(p) for p in
                                                          rng.integers(0, 0x7F800000, 10)]
    cases = [(x | sx, y) for x in xs for y in ys for sx in (0, SIGN)]
    X = np.array([c[0] for c in cases], dtype=np.uint32)
    Y = np.array([c[1] for c in cases], dtype=np.uint32)
    ev = evaluate("div", X, Y, rules="d3d10")
    for i, (x, y) in enumerate(cases):
        assert _keys(ev, i) == _d3d10_div_oracle(x, y), (hex(x), hex(y))
    assert "F32-DIV-D3D10" in evaluate("div", bits32(1.0), bits32(3.0), rules="d3d10").rules_at(0)


def test_d3d10_divide_route_is_an_option_F32_DIV_D3D10():
    """Option d3d10_div_route=True adds the two-step route's results under d3d10 (the
    flushed reciprocal's zero, INF * 0 = NaN)."""
    x, y = bits32(2.0**127), bits32(1.5 * 2.0**126)
    on = {"d3d10_div_route": True}
    assert not evaluate("div", x, y, rules="d3d10").allowed(np.uint32(0))
    assert evaluate("div", x, y, rules="d3d10", options=on).allowed(np.uint32(0))
    ev = evaluate("div", INFP, y, rules="d3d10", options=on)
    assert ev.allowed_set(0).any_nan and ev.allowed(np.uint32(INFP))


# -- class 9: every f64 -> f32 conversion follows CONV-DTOF ---------------------------------

def _f64_cases() -> list[int]:
    import struct

    vals = [1.0, 1.0 + 2.0**-24, 1.0 + 3 * 2.0**-24, 2.0**-127, 2.0**-149, 2.0**-150,
            3 * 2.0**-151, 2.0**-126 - 2.0**-160, 2.0**128, 2.0**128 - 2.0**103, 1e300,
            float(FMAX) + 2.0**102, 2.0**-126, 0.0, 1e-300, math.inf, 0.1, 1.0 / 3]
    pats = [struct.unpack("<Q", struct.pack("<d", v))[0] for v in vals]
    return pats + [p | (1 << 63) for p in pats] + [0x7FF8000000000001]


def _dtof_oracle(p: int, mode: str) -> tuple[tuple[tuple[int, int], ...], bool]:
    """CONV-DTOF from the rule book: nearest even; a denormal result or its zero; beyond
    the range INF (nearest even) and/or FLT_MAX (saturation) per option dtof_overflow."""
    import struct

    x = struct.unpack("<d", struct.pack("<Q", p))[0]
    if math.isnan(x):
        return (), True
    if math.isinf(x):
        return to_keys([INFP | (SIGN if x < 0 else 0)]), False
    r = rn(Fraction(x), zero_neg=math.copysign(1, x) < 0)
    if (r & 0x7FFFFFFF) == INFP:
        sign = r & SIGN
        pats = {"either": [r, MAXP | sign], "inf": [r], "max": [MAXP | sign]}[mode]
        return to_keys(pats), False
    return to_keys(flushed([r], "either")), False


@pytest.mark.parametrize("mode", ["either", "inf", "max"])
@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
def test_to_f32_of_f64_follows_conv_dtof_CONV_DTOF(mode, rules):
    """to_f32 of an f64 operand is dtof: the kept or flushed denormal, INF and/or FLT_MAX
    on overflow by option dtof_overflow (before: the flushed zero and FLT_MAX only)."""
    pats = _f64_cases()
    ops = np.array(pats, dtype=np.uint64)
    opts = {"dtof_overflow": mode}
    for op in ("to_f32", "dtof"):
        ev = evaluate(op, ops, format="f64", rules=rules, options=opts)
        for i, p in enumerate(pats):
            assert _keys(ev, i) == _dtof_oracle(p, mode), (op, hex(p))
    a = evaluate("to_f32", ops, format="f64", rules=rules, options=opts)
    b = evaluate("dtof", ops, format="f64", rules=rules, options=opts)
    np.testing.assert_array_equal(a.bits, b.bits)
    assert a.fired.keys() == b.fired.keys()
