"""The bounded vector entry of the exact values (engine/exact/bounded.py over the pair forms
of engine/exact/vector.py) against mpmath at 2200 bits: for every element it does not
hand to the scalar entry (``bad``), the true value of the op at every operand its
operands' bounds allow is within the step's bound of hi + lo (EXPR-EXACT).

Operands are double-double values (hi + lo, |lo| <= ulp(hi) / 2) with and without an
error bound, over the whole float64 range: denormals, the smallest normals, 2^-960 and
below, huge values, f32/f16 values (the expression's inputs), exact cancellations, exact
quotients and roots, integers and halves (the rounding ties). The truth is computed here
from hi, lo and err alone, never by the engine. A result of INF must be a value whose
float64 rounding overflows.
"""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import pytest

from fpinspector.model.engine.exact.bounded import Approx, saturate, step_of

MP = mpmath.MPContext()
MP.prec = 2200  # hi + lo and every corner of the bounds exactly (exponents -1074..1024)
N = 700


def _f64(rng: np.random.Generator, n: int, lo_exp: int, hi_exp: int) -> np.ndarray:
    """Random-significand float64 values with exponents in [lo_exp, hi_exp), random signs."""
    m = rng.uniform(1.0, 2.0, n)
    e = rng.integers(lo_exp, hi_exp, n)
    return np.ldexp(m, e) * rng.choice([-1.0, 1.0], n)


def _his(rng: np.random.Generator, n: int) -> np.ndarray:
    k = n // 6
    parts = [
        rng.uniform(-4, 4, k).astype(np.float32).astype(np.float64),  # f32 inputs
        rng.integers(0, 2**16, k).astype(np.uint16).view(np.float16).astype(np.float64),
        _f64(rng, k, -30, 30),
        _f64(rng, k, -1074, 1024),  # the whole range, denormals included
        _f64(rng, k, -1000, -900),  # around TINY
        np.rint(rng.uniform(-20, 20, k)) + rng.choice([0.0, 0.5], k),  # integers, halves
    ]
    edges = np.array([0.0, -0.0, 5e-324, -5e-324, 2.0**-1022, 2.0**-960, 1.0, -1.0, 0.5,
                      2.5, -2.5, 3.0, 0.1, 1e300, -1e300, 2.0**1000, 1.7976931348623157e308,
                      1.0 + 2.0**-52, 1.0 - 2.0**-53])
    out = np.concatenate(parts + [edges])
    out = out[np.isfinite(out)]
    return np.resize(out, n)


def operand(rng: np.random.Generator, n: int, hi: np.ndarray | None = None) -> Approx:
    """(hi, lo, err): a third one-float64 values, the rest with a residual; half of the
    elements with a bound of 2^-60..2^-110 relative."""
    hi = _his(rng, n) if hi is None else hi
    with np.errstate(over="ignore"):
        half_ulp = np.spacing(np.abs(hi)) / 2
    lo = np.where(rng.random(n) < 0.35, 0.0, rng.uniform(-1, 1, n) * half_ulp)
    lo = np.where(np.abs(hi) < 2.0**-1000, 0.0, lo)  # a residual of a denormal underflows
    err = np.where(rng.random(n) < 0.5, 0.0,
                   np.abs(hi) * np.ldexp(1.0, rng.integers(-110, -60, n)))
    return Approx(hi, lo, err, np.zeros(n, bool))


def plain(hi: np.ndarray) -> Approx:
    z = np.zeros(hi.shape)
    return Approx(hi, z, z, np.zeros(hi.shape, bool))


def _corners(args: list[Approx], i: int, rng: np.random.Generator) -> list[list]:
    """The operand values to check for element i: the centre, and every corner of the
    bounds (at most 16 of them; beyond, 16 drawn at random)."""
    centres = [MP.mpf(float(a.hi[i])) + MP.mpf(float(a.lo[i])) for a in args]
    errs = [MP.mpf(float(a.err[i])) for a in args]
    pts = [centres]
    live = [k for k, e in enumerate(errs) if e]
    signs = list(itertools.product((-1, 1), repeat=len(live)))
    if len(signs) > 16:
        signs = [tuple(int(s) for s in rng.choice([-1, 1], len(live))) for _ in range(16)]
    for sg in signs:
        p = list(centres)
        for k, s in zip(live, sg):
            p[k] = centres[k] + s * errs[k]
        pts.append(p)
    return pts


def check(op: str, fn, args: list[Approx], min_vouched: float, seed: int = 0,
          step=None) -> int:
    """Every vouched element: |f(x) - (hi + lo)| <= err at every allowed x; returns how
    many were vouched for (the caller checks the entry does not vouch for too few)."""
    rng = np.random.default_rng(seed)
    step = step or step_of(op)
    with np.errstate(all="ignore"):
        r = step(*args)
    n = r.hi.shape[0]
    hi, lo = np.broadcast_to(r.hi, (n,)), np.broadcast_to(r.lo, (n,))
    err, bad = np.broadcast_to(r.err, (n,)), np.broadcast_to(r.bad, (n,))
    vouched = 0
    for i in range(n):
        if bad[i]:
            continue
        vouched += 1
        got = MP.mpf(float(hi[i])) + MP.mpf(float(lo[i])) if np.isfinite(hi[i]) else None
        for pt in _corners(args, i, rng):
            true = fn(*pt)
            if true is None:  # outside the function's domain at this corner
                continue
            where = (f"{op} element {i}: operands "
                     f"{[(float(a.hi[i]), float(a.lo[i]), float(a.err[i])) for a in args]}")
            if got is None:
                assert np.isinf(hi[i]) and abs(true) >= MP.mpf(2) ** 1024 * (1 - MP.mpf(2) ** -54) \
                    and (true > 0) == (hi[i] > 0), f"{where}: {hi[i]} for {true}"
                continue
            assert abs(true - got) <= MP.mpf(float(err[i])), (
                f"{where}: computed {float(hi[i])} + {float(lo[i])} within {float(err[i])}, "
                f"true {MP.nstr(true, 30)} (off by {MP.nstr(abs(true - got), 5)})")
    assert vouched >= min_vouched * n, f"{op}: only {vouched} of {n} vouched for"
    return vouched


def _div(a, b):
    return None if b == 0 else a / b


def _sqrt(a):
    return None if a < 0 else MP.sqrt(a)


def _rsq(a):
    return None if a <= 0 else 1 / MP.sqrt(a)


def _log2(a):
    return None if a <= 0 else MP.log(a, 2)


def _exp2(a):
    return None if abs(a) > 5000 else MP.power(2, a)


BINARY = [("add", lambda a, b: a + b, 0.9), ("mul", lambda a, b: a * b, 0.8),
          ("div", _div, 0.7)]
UNARY = [("rcp", lambda a: _div(1, a), 0.7), ("sqrt", _sqrt, 0.35), ("rsq", _rsq, 0.35),
         ("exp", _exp2, 0.5), ("log", _log2, 0.35)]


@pytest.mark.parametrize("op, fn, share", BINARY, ids=[b[0] for b in BINARY])
def test_binary_bounds_hold_against_mpmath(op, fn, share):
    rng = np.random.default_rng(37)
    a = operand(rng, N)
    b = operand(rng, N)
    # exact cancellation (a + -a), exact quotients (a / a), f32 products
    b.hi[:40], b.lo[:40] = -a.hi[:40], -a.lo[:40]
    b.hi[40:80], b.lo[40:80], b.err[40:80] = a.hi[40:80], a.lo[40:80], 0.0
    a.err[40:80] = 0.0
    check(op, fn, [a, b], share)


@pytest.mark.parametrize("op, fn, share", UNARY, ids=[u[0] for u in UNARY])
def test_unary_bounds_hold_against_mpmath(op, fn, share):
    rng = np.random.default_rng(38)
    a = operand(rng, N)
    if op in ("exp",):
        a = operand(rng, N, np.resize(np.concatenate(
            [rng.uniform(-150, 130, N // 2), np.rint(rng.uniform(-60, 60, 40)),
             rng.uniform(-1, 1, N // 4) * 2.0 ** -30, _his(rng, N // 4)]), N))
    if op in ("sqrt", "rsq", "log"):  # positive operands mostly, squares exactly
        neg = a.hi < 0
        a.hi[:], a.lo[:] = np.abs(a.hi), np.where(neg, -a.lo, a.lo)
        a.hi[:30] = np.array([4.0, 9.0, 2.25, 0.25, 1.0, 2.0**-100, 2.0**200] * 5)[:30]
        a.lo[:30] = a.err[:30] = 0.0
    check(op, fn, [a], share)


def test_plain_operands_bounds_hold_against_mpmath():
    """The one-float64 case (the engine's computation on f32 and f16 inputs) vouched for
    nearly everywhere, and true: every op on f32 values."""
    rng = np.random.default_rng(39)
    x = rng.uniform(-8, 8, N).astype(np.float32).astype(np.float64)
    y = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32).view(np.float32)
    y = np.where(np.isfinite(y), y, 1.5).astype(np.float64)
    for op, fn, _ in BINARY:
        check(op, fn, [plain(x), plain(y)], 0.98)
    ax = np.abs(x)
    for op, fn, _ in UNARY:
        check(op, fn, [plain(ax if op != "exp" else x)], 0.95)


def test_fused_bounds_hold_against_mpmath():
    rng = np.random.default_rng(40)
    ops = [operand(rng, N // 2) for _ in range(6)]
    check("mad", lambda a, b, c: a * b + c, ops[:3], 0.6)
    check("dp3", lambda a0, a1, a2, b0, b1, b2: a0 * b0 + a1 * b1 + a2 * b2, ops, 0.5)


def test_rounding_steps_vouch_only_for_the_true_result():
    """floor / round-to-even / frac / saturate: exact (bound 0 for floor and round) where
    vouched for, at every operand the bounds allow; ties at halves and integers."""
    rng = np.random.default_rng(41)
    a = operand(rng, N, np.resize(np.concatenate(
        [np.rint(rng.uniform(-50, 50, N // 2)) + rng.choice([0.0, 0.5], N // 2),
         rng.uniform(-50, 50, N // 2)]), N))
    a.lo[: N // 4] = 0.0

    def rne(x):
        f = MP.floor(x)
        d = x - f
        return f + 1 if d > 0.5 or (d == 0.5 and int(f) % 2) else f

    check("round_ni", MP.floor, [a], 0.4)
    check("round_ne", rne, [a], 0.4)
    check("frc", lambda x: x - MP.floor(x), [a], 0.4)
    check("sat", lambda x: min(max(x, 0), 1), [a], 0.9, step=saturate)


def test_row_op_gets_a_bounded_step_from_its_row_EXPR_EXACT():
    """log10, added as one row (tests/_log10_row.py) with a stated bound on numpy's log10:
    its bounded step comes from the row, true against mpmath on positive operands across
    the float64 range (denormals, powers of ten, next to 1), exact at the row's special
    values; operands with a residual or a bound go to the scalar entry."""
    from _log10_row import log10_row

    from fpinspector.model.engine.optable import OPS

    rng = np.random.default_rng(42)
    hi = np.abs(_his(rng, N))
    hi[:12] = [1.0, 10.0, 100.0, 1e-300, 5e-324, 1.0 + 2.0**-52, 1.0 - 2.0**-53, 0.1,
               1e300, 1.7976931348623157e308, 2.0, 1000.0]
    with log10_row():
        step = step_of("log10", OPS["log10"])
        exact = plain(hi)
        n = check("log10", lambda x: None if x <= 0 else MP.log10(x), [exact], 0.95,
                  step=step)
        assert n >= 0.95 * N
        r = step(exact)
        assert r.hi[0] == 0.0 and r.hi[1] == 1.0 and r.err[0] == r.err[1] == 0.0
        rough = operand(rng, N, hi)
        r = step(rough)
        assert np.all(r.bad[(rough.lo != 0) | (rough.err != 0)])
        assert np.all(step(plain(np.array([0.0, -1.0, np.inf, np.nan]))).bad)


def test_row_op_runs_on_the_vector_path_of_a_map_EXPR_EXACT():
    """The whole expression `log10(a) * 2 + b` over f32 inputs, for a map (2^-20 ULP):
    no element recomputed one by one (before the row's bound: every one), and each
    result within the map's bound of mpmath's value."""
    from _log10_row import log10_row

    from fpinspector.model import get_format
    from fpinspector.model.expr.bindings import bind
    from fpinspector.model.expr.exact import expression_exact
    from fpinspector.model.expr.lower import lower
    from fpinspector.model.expr.run import run_program

    rng = np.random.default_rng(43)
    a = np.abs(rng.uniform(-1e4, 1e4, 400)).astype(np.float32)
    a[:3] = [1.0, 10.0, 1e-40]
    b = rng.uniform(-2, 2, 400).astype(np.float32)
    with log10_row():
        types, values = bind({"a": a.view(np.uint32), "b": b.view(np.uint32)}, "f32")
        program = lower("log10(a) * 2 + b", types, "f32")
        slots = [values[i.name][i.comp] for i in program.inputs]
        model = [s.bits for s in run_program(program, slots, "d3d11", None)]
        his, los, count = expression_exact(program, slots, model, (400,), "map")
    assert count == 0
    f32 = get_format("f32")
    for k in range(400):
        want = 2 * MP.log10(MP.mpf(float(a[k]))) + MP.mpf(float(b[k]))
        got = MP.mpf(float(his[0][k])) + MP.mpf(float(los[0][k]))
        ulp = MP.mpf(2) ** (max(int(MP.floor(MP.log(abs(want), 2))), -126) - f32.frac_bits)
        assert abs(got - want) <= ulp * MP.mpf(2) ** -20, (a[k], b[k], got, want)


@pytest.mark.parametrize("fmt", ["f32", "f16"])
def test_expression_exact_of_a_division_by_zero_is_ieee_EXPR_EXACT(fmt):
    """The exact value of x / 0, x / INF, -0 / x is IEEE's quotient (what float64 division
    gives on the same values, as the scalar entry says), not NaN: 1 / (a - a) is +INF,
    -0 / 3680 is -0 (the bounded entry gave NaN and +0 before it read the engine's
    division)."""
    from fpinspector.model import evaluate_expr

    dt, bits = (np.float32, np.uint32) if fmt == "f32" else (np.float16, np.uint16)
    a = np.array([1.0, -1.0, 0.5, -0.0, 3.0, -2.0], dt)
    b = np.array([0.0, 0.0, -0.0, 3680.0, np.inf, -np.inf], dt)
    r = evaluate_expr("a / b", {"a": a.view(bits), "b": b.view(bits)}, format=fmt)
    r1 = evaluate_expr("1 / (a - a)", {"a": np.array([2.0, -0.0], dt).view(bits)}, format=fmt)
    a, b = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(divide="ignore"):
        want = a / b
    got = np.asarray(r.exact[0])
    assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
    assert np.asarray(r1.exact[0]).tolist() == [np.inf, np.inf]


def test_expression_exact_beyond_float64_is_infinite_EXPR_EXACT():
    """2^20000 (an f16 exp2 the scalar entry keeps as a Fraction) is +INF as a float64 pair
    and -2^20000 is -INF, not a traceback."""
    from fpinspector.model import evaluate_expr

    r = evaluate_expr("exp2(a)", {"a": np.array([20000.0, 3.0], np.float16).view(np.uint16)},
                      format="f16")
    n = evaluate_expr("-exp2(a)", {"a": 20000.0}, format="f16")
    assert np.asarray(r.exact[0]).tolist() == [np.inf, 8.0]
    assert np.asarray(n.exact[0]).tolist() == -np.inf


def test_one_float64_pair_forms_equal_the_double_double_results():
    """The swap the one vector form made, checked on 20 000 operand pairs across float64's
    range: on one-float64 operands the bounded entry's division and root (now the engine's
    exact_div / exact_sqrt at f64) give the same (hi, lo) as the double-double division
    and root they replaced, wherever the quotient or root is finite and the residual
    exact (|values| in [2^-960, 2^995])."""
    from fpinspector.model.engine.exact.vector import div_pair, sqrt_pair
    from fpinspector.model.numerics.eft import dd_div, dd_sqrt

    rng = np.random.default_rng(44)
    n = 20000
    a, b = _f64(rng, n, -400, 400), _f64(rng, n, -400, 400)
    a[:4000] = rng.uniform(-4, 4, 4000).astype(np.float32)  # f32 values
    b[:4000] = rng.uniform(-4, 4, 4000).astype(np.float32)
    z = np.zeros(n)
    with np.errstate(all="ignore"):
        got, want = div_pair(a, z, b, z), dd_div(a, z, b, z)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        assert np.array_equal(got[2], want[2])
        x = np.abs(a)
        got, want = sqrt_pair(x, z), dd_sqrt(x, z)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        assert np.array_equal(got[2], want[2])
