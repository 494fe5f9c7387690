"""The whole expression's exact value: against mpmath evaluations of the same formula
(independent oracle), the fast double-double path against the exact per-element path
(differential), and the ULP error of the result."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from _engine_oracle import bits32, f32

from fpinspector.model import evaluate_expr, get_format
from fpinspector.model.engine.exact.scalar import to_pair
from fpinspector.model.expr.exact import exact_element, fast_exact

U32 = np.uint32


def vals(seed: int, n: int, lo=-4.0, hi=4.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(lo, hi, n).astype(np.float32).view(U32)


def mp(x: int):
    return mpmath.mpf(f32(int(x)))


FORMULAS = [
    ("a * b + c", lambda a, b, c: a * b + c),
    ("mad(a, b, -c)", lambda a, b, c: a * b - c),
    ("(a + b) - a", lambda a, b, c: b),
    ("a * b - c * a", lambda a, b, c: a * b - c * a),
    ("sqrt(abs(a)) * rsqrt(abs(b) + 1)", lambda a, b, c: mpmath.sqrt(abs(a)) / mpmath.sqrt(abs(b) + 1)),
    ("lerp(a, b, saturate(c))", lambda a, b, c: a + min(max(c, 0), 1) * (b - a)),
    ("a / (b * b + 1)", lambda a, b, c: a / (b * b + 1)),
    ("exp2(a) + log2(abs(b) + 2)", lambda a, b, c: mpmath.power(2, a) + mpmath.log(abs(b) + 2, 2)),
    ("frac(a * 3) + floor(b) + round(c)", lambda a, b, c: (a * 3 - mpmath.floor(a * 3))
     + mpmath.floor(b) + _round_even(c)),
    ("a * b < c ? a : -b", lambda a, b, c: a if a * b < c else -b),
    ("dot(float3(a, b, c), float3(c, b, a))", lambda a, b, c: 2 * a * c + b * b),
    ("min(a, b) * max(b, c)", lambda a, b, c: min(a, b) * max(b, c)),
    ("f16tof32(f32tof16(a * 0.5))", lambda a, b, c: a * mpmath.mpf(0.5)),
]


def _round_even(x):
    f = mpmath.floor(x)
    d = x - f
    if d > 0.5 or (d == 0.5 and int(f) % 2):
        return f + 1
    return f


@pytest.mark.parametrize("text, fn", FORMULAS)
def test_exact_value_matches_mpmath(text, fn):
    a, b, c = vals(1, 64), vals(2, 64), vals(3, 64)
    a[:3] = [bits32(1.5), bits32(1.0000001), bits32(2.5)]  # exact cancellations and ties
    b[:3] = [bits32(-1.5), bits32(1.0000001), bits32(-0.5)]
    c[:3] = [bits32(2.25), bits32(1.0000002384185791), bits32(-2.5)]
    r = evaluate_expr(text, {"a": a, "b": b, "c": c})
    hi, lo = r.exact[0], r.exact_lo[0]
    with mpmath.workprec(300):
        for i in range(len(a)):
            want = fn(mp(a[i]), mp(b[i]), mp(c[i]))
            got = mpmath.mpf(float(hi[i])) + mpmath.mpf(float(lo[i]))
            tol = abs(want) * mpmath.mpf(2) ** -69
            assert abs(got - want) <= tol, (text, i, float(want), float(got))


def test_fast_path_equals_exact_path_where_it_is_trusted():
    """Differential (STYLE 15): elements the double-double path keeps agree with the
    Fraction/mpmath path to within the bound it claims."""
    rng = np.random.default_rng(7)
    n = 300
    a = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(U32)
    b, c = vals(8, n, -1e3, 1e3), vals(9, n, -1e-3, 1e-3)
    fmt = get_format("f32")
    for text, _ in FORMULAS:
        r = evaluate_expr(text, {"a": a, "b": b, "c": c})
        model = [s.bits for s in r.steps]
        approx = fast_exact(r.program, r.slots, model, fmt, r.shape)
        idx, kind = r.program.outputs[0]
        ap = approx[idx]
        for i in range(0, n, 3):
            if ap.bad[i] or kind == "bool":
                continue
            vals_i = exact_element(r.program, [int(np.broadcast_to(s, r.shape)[i]) for s in r.slots],
                                   [int(np.broadcast_to(m, r.shape)[i]) for m in model])
            want = vals_i[idx]
            if isinstance(want, float) and not math.isfinite(want):
                assert ap.hi[i] == want or (math.isnan(want) and math.isnan(ap.hi[i])), text
                continue
            got = Fraction(float(ap.hi[i])) + Fraction(float(ap.lo[i]))
            w = Fraction(want) if isinstance(want, float) else want
            if not isinstance(w, Fraction):
                w = Fraction(*to_pair(w)[0].as_integer_ratio()) + Fraction(to_pair(w)[1])
                assert abs(got - w) <= Fraction(float(ap.err[i])) + abs(w) * Fraction(1, 2 ** 250)
            else:
                assert abs(got - w) <= Fraction(float(ap.err[i])), (text, i)


def test_every_element_exact_when_refined_one_by_one():
    a = np.array([bits32(3.0), bits32(1e-20), 0x7F800000, 0x7FC00000, 0x80000000], U32)
    r = evaluate_expr("a * a - 9", {"a": a})
    assert r.exact[0][0] == 0.0 and r.exact[0][1] == -9.0 and r.exact[0][2] == math.inf
    assert math.isnan(r.exact[0][3]) and r.exact[0][4] == -9.0


def test_decisions_near_thresholds_are_taken_exactly():
    # (a + b) - a == b exactly, although every intermediate rounds
    a = np.array([bits32(1e8), bits32(3.0), bits32(0.1)], U32)
    b = np.array([bits32(1e-8), bits32(1e-30), bits32(0.2)], U32)
    r = evaluate_expr("(a + b) - a < b ? 1 : 2", {"a": a, "b": b})
    assert r.exact[0].tolist() == [2.0, 2.0, 2.0]  # equal, so "<" is false
    r = evaluate_expr("floor((a + b) - a - b)", {"a": a, "b": b})
    assert r.exact[0].tolist() == [0.0, 0.0, 0.0]


def test_a_uint_result_taken_on_the_exact_path_is_its_bits():
    """EXPR-MOVC picks by the exact comparison: rcp(a) * a is exactly 1 (Fraction
    arithmetic: 1/a * a), but the fast path's bound leaves the comparison open, so the
    element goes the exact way; a uint result's exact value is then its bits."""
    a = np.array([bits32(x) for x in (3.0, 7.0, 0.1)], U32)
    assert all(Fraction(1) / Fraction(f32(int(x))) * Fraction(f32(int(x))) == 1 for x in a)
    r = evaluate_expr("rcp(a) * a == 1.0 ? uint(1) : uint(2)", {"a": a})
    assert r.result_kinds == ["uint"] and r.refined > 0
    assert r.exact[0].tolist() == [1.0, 1.0, 1.0]


def test_ulp_error_of_the_result():
    r = evaluate_expr("n * rsqrt(dot(n, n))", {"n": "float3(1e-20, 0, 0)"})
    # dp3 of a tiny vector flushes to 0 (F32-FTZ): rsq gives INF, x * INF is INF
    assert [float(e) for e in r.exact] == [1.0, 0.0, 0.0]
    err = r.ulp_error()
    assert math.isinf(err[0]) and math.isnan(err[1])
    r = evaluate_expr("f32tof16(x * 0.5)", {"x": "1.0000001"})
    assert r.result_format() == "f16" and int(r.bits) == 0x3800
    # exact 0.50000006 in f16 ULPs at 0.5 (2^-11): toward-zero conversion lost 2^-24
    assert float(r.ulp_error()[0]) == pytest.approx(-(2.0 ** -24) / 2.0 ** -11)
    r = evaluate_expr("a * b + c", {"a": 1.0000001, "b": 1.0000001, "c": -1.0000002})
    assert float(r.exact[0]) == pytest.approx(1.4210854715202004e-14, rel=1e-15)
    assert int(r.bits) == 0 and float(r.ulp_error()[0]) == -(2 ** 23)


def test_map_purpose_is_within_its_ulp_bound():
    x = vals(5, 2000, -30, 30)
    r = evaluate_expr("exp2(a) * log2(abs(a) + 1)", {"a": x}, exact="map")
    e = r.ulp_error()[0]
    with mpmath.workprec(200):
        for i in range(0, 2000, 97):
            v = mp(x[i])
            want = mpmath.power(2, v) * mpmath.log(abs(v) + 1, 2)
            model = f32(int(r.bits[i]))
            ulp = 2.0 ** (math.frexp(float(want))[1] - 24)
            assert abs(float((model - want) / ulp) - e[i]) < 2 ** -19


def test_the_exact_path_does_not_depend_on_mpmaths_global_precision():
    """Irrational steps compute in a private PREC-bit context per thread, so another thread
    changing mpmath's global precision (as mpmath.workprec does, from an expression map's
    other stage thread) cannot make a step compute at its precision. Oracle: sqrt(2), 2^(1/3)
    and log2(3) at 400 bits, to the 300 bits the exact path promises."""
    import sys
    import threading

    from fpinspector.model.engine.exact.scalar import exact_op
    from fpinspector.model.engine.optable import OPS

    with mpmath.workprec(400):
        want = [mpmath.sqrt(2), mpmath.power(2, mpmath.mpf(1) / 3), mpmath.log(3, 2)]
    stop = threading.Event()

    def toggle():
        while not stop.is_set():
            mpmath.mp.prec = 20
            mpmath.mp.prec = 53

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    t = threading.Thread(target=toggle)
    t.start()
    try:
        bad = 0
        for _ in range(300):
            got = [exact_op(op, [x], OPS[op]) for op, x in
                   (("sqrt", Fraction(2)), ("exp", Fraction(1, 3)), ("log", Fraction(3)))]
            with mpmath.workprec(400):
                bad += sum(abs(g - w) > abs(w) * mpmath.mpf(2) ** -300 for g, w in zip(got, want))
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
        mpmath.mp.prec = 53
    assert bad == 0
