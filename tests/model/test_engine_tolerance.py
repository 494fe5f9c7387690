"""Allowed windows per (op, rule set) against Fraction / mpmath oracles: F32-PREC (0.5 and
1 ULP, lenient option), F32-SQRT-RCP, F32-INSTR (relative / absolute 2^-21), F32-DIV,
F32-FUSED, F16-PREC fused 0.6 ULP, F64-IEEE drcp; and the ULP definition of ulp_error."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from _engine_oracle import bits32, f32

from fpinspector.model import evaluate

mpmath.mp.prec = 100
RNG = np.random.default_rng(7)


def _rand_f32(n: int, lo: int = -20, hi: int = 20) -> np.ndarray:
    m = RNG.uniform(1, 2, n) * RNG.choice([-1.0, 1.0], n)
    return np.ldexp(m, RNG.integers(lo, hi, n)).astype(np.float32).view(np.uint32)


def _fr(m: mpmath.mpf) -> Fraction:
    """Exact Fraction of an mpmath binary float."""
    sign, man, exp, _ = mpmath.mpf(m)._mpf_
    v = Fraction(int(man)) * Fraction(2) ** exp
    return -v if sign else v


def _ulp(q) -> Fraction:
    """ULP of f32 at an exact value: 2^(k-23) for |q| in [2^k, 2^(k+1)), k >= -126."""
    a = abs(Fraction(q))
    if a == 0:
        return Fraction(2) ** -149
    k = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** k > a:
        k -= 1
    k = max(k, -126)
    return Fraction(2) ** (k - 23)


def _neighbours(b: int, r: int = 3) -> list[int]:
    return [x for x in range(b - r, b + r + 1) if 0 <= x < 0xFFFFFFFF]


def _check_window(ev, i: int, exact, ok_fn) -> None:
    """allowed(c) must equal ok_fn(|value(c) - exact|) for patterns around the model result."""
    b = int(ev.bits[i])
    for c in _neighbours(b, 4):
        v = f32(c)
        if v != v or abs(v) == float("inf"):
            continue
        want = ok_fn(abs(Fraction(v) - exact))
        got = bool(ev.allowed(np.uint32(c))[i])
        assert got == want, (ev.op, hex(b), hex(c), float(exact))


@pytest.mark.parametrize("op", ["add", "mul"])
def test_f32_prec_d3d10_one_ulp_window_F32_PREC(op):
    """F32-PREC d3d10: every pattern within 1 ULP (of the exact value's binade) is allowed."""
    a, b = _rand_f32(200), _rand_f32(200)
    ev = evaluate(op, a, b, rules="d3d10")
    for i in range(200):
        x, y = Fraction(f32(int(a[i]))), Fraction(f32(int(b[i])))
        q = x + y if op == "add" else x * y
        _check_window(ev, i, q, lambda d, q=q: d <= _ulp(q))


def test_f32_prec_d3d11_strict_and_lenient_option_F32_PREC():
    """F32-PREC d3d11: only the correctly rounded pattern; option lenient_d3d11 -> 1 ULP,
    and the verdict says which reading it used (AMBIGUOUS made visible)."""
    a, b = _rand_f32(300), _rand_f32(300)
    strict = evaluate("mul", a, b)
    lenient = evaluate("mul", a, b, options={"lenient_d3d11": True})
    for i in range(300):
        q = Fraction(f32(int(a[i]))) * Fraction(f32(int(b[i])))
        rn = bits32(float(q)) if abs(q) > 2**-126 else None  # float(q) is RN64; q exact in f64
        if rn is not None:
            assert int(strict.bits[i]) == rn
        _check_window(strict, i, q, lambda d, q=q: d <= _ulp(q) / 2 and d != _ulp(q) / 2)
        _check_window(lenient, i, q, lambda d, q=q: d <= _ulp(q))
    assert any("strict d3d11" in r for r in strict.readings)
    assert any("lenient" in r for r in lenient.readings)


def test_f32_sqrt_one_ulp_F32_SQRT_RCP():
    """F32-SQRT-RCP: sqrt within 1 ULP of the mpmath root."""
    x = np.abs(_rand_f32(200).view(np.float32)).view(np.uint32)
    ev = evaluate("sqrt", x)
    for i in range(200):
        q = _fr(mpmath.sqrt(mpmath.mpf(f32(int(x[i])))))
        _check_window(ev, i, q, lambda d, q=q: d <= _ulp(q))


def test_f32_rcp_looser_of_ulp_and_relative_F32_SQRT_RCP():
    """rcp d3d11: the looser of 1 ULP and 2^-21 relative; option rcp_tolerance=ulp narrows."""
    x = _rand_f32(150)
    ev = evaluate("rcp", x)
    only_ulp = evaluate("rcp", x, options={"rcp_tolerance": "ulp"})
    for i in range(150):
        q = 1 / Fraction(f32(int(x[i])))
        bound = max(_ulp(q), abs(q) * Fraction(1, 2**21))
        _check_window(ev, i, q, lambda d, b=bound: d <= b)
        _check_window(only_ulp, i, q, lambda d, q=q: d <= _ulp(q))


@pytest.mark.parametrize("op", ["rsq", "exp", "log"])
def test_f32_relative_and_absolute_windows_F32_INSTR(op):
    """rsq, exp: relative 2^-21; log: absolute 2^-21 on [0.5, 2], relative elsewhere. The
    window ends are exact: lo/hi satisfy the bound, their outer neighbours do not."""
    if op == "exp":
        x = _rand_f32(120, -6, 6)
    elif op == "log":
        x = np.concatenate([_rand_f32(60, -30, 30), (RNG.uniform(0.5, 2, 60)).astype(np.float32).view(np.uint32)])
        x = np.abs(x.view(np.float32)).view(np.uint32)
    else:
        x = np.abs(_rand_f32(120).view(np.float32)).view(np.uint32)
    ev = evaluate(op, x)
    for i in range(x.size):
        v = mpmath.mpf(f32(int(x[i])))
        ex = {"rsq": lambda: 1 / mpmath.sqrt(v), "exp": lambda: mpmath.power(2, v),
              "log": lambda: mpmath.log(v, 2)}[op]()
        q = _fr(ex)
        if op == "log" and Fraction(1, 2) <= _fr(v) <= 2:
            bound = Fraction(1, 2**21)
        else:
            bound = abs(q) * Fraction(1, 2**21)
        lo, hi = int(ev.lo[i]), int(ev.hi[i])
        for p, inside in ((lo, True), (hi, True)):
            assert (abs(Fraction(f32(p)) - q) <= bound) == inside
        below = lo - 1 if f32(lo) > 0 else lo + 1  # one pattern further out, by sign
        above = hi + 1 if f32(hi) > 0 else hi - 1
        if f32(lo) != 0 and f32(hi) != 0:
            assert abs(Fraction(f32(below)) - q) > bound
            assert abs(Fraction(f32(above)) - q) > bound
        assert ev.allowed(np.uint32(lo))[i] and ev.allowed(np.uint32(hi))[i]


class _Mpf13Context:
    """An mpmath context whose ``mpf`` refuses a Fraction, as mpmath 1.3 does (1.4 takes
    it; pyproject allows both): the engine must hand mpmath only what 1.3 accepts."""

    def __init__(self, ctx):
        self._ctx = ctx
        self.uses = 0

    def mpf(self, x=0):
        if isinstance(x, Fraction):
            raise TypeError("cannot create mpf from " + repr(x))
        self.uses += 1
        return self._ctx.mpf(x)

    def __getattr__(self, name):
        return getattr(self._ctx, name)


@pytest.mark.parametrize("op", ["rsq", "log"])
def test_relative_window_edges_take_mpmath_13_F32_INSTR(op, monkeypatch):
    """The relative (rsq) and absolute-or-relative (log) bounds of ends that sit near a
    pattern are refined in mpmath: the same allowed sets with mpmath 1.3's mpf (a GPU
    report crashed there with 'cannot create mpf from Fraction(1, 2097152)')."""
    from fpinspector.model.engine.finish import edges

    x = np.random.default_rng(1).integers(0, 2**32, 2**16, dtype=np.uint64).astype(np.uint32)
    obs = evaluate(op, x).bits.astype(np.uint32) + np.uint32(1)  # one ULP off: windows
    want = evaluate(op, x).allowed(obs)
    strict: list[_Mpf13Context] = []
    real = edges.mp_context

    def mp13(prec):
        strict.append(_Mpf13Context(real(prec)))
        return strict[-1]

    monkeypatch.setattr(edges, "mp_context", mp13)
    got = evaluate(op, x).allowed(obs)
    assert strict and sum(c.uses for c in strict) > 0  # the edges were refined this way
    np.testing.assert_array_equal(got, want)


def _rn32(q: Fraction) -> int:
    """f32 pattern nearest to q (ties to even), flushed (F32-FTZ), by exact comparison."""
    from _engine_oracle import flush, round_f32

    return bits32(flush(round_f32(q)))


def test_f32_div_is_the_quotient_or_a_two_step_route_result_F32_DIV():
    """d3d11 div allows exactly the correctly rounded quotient and every x * r (rounded,
    flushed) with r within 1 ULP of 1/y (flushed): a set of points, not a hull. d3d10:
    1 ULP."""
    x, y = _rand_f32(100), _rand_f32(100)
    ev = evaluate("div", x, y)
    ev10 = evaluate("div", x, y, rules="d3d10")
    for i in range(100):
        a, b = Fraction(f32(int(x[i]))), Fraction(f32(int(y[i])))
        q = a / b
        rq = 1 / b
        allowed = {_rn32(q)}
        for rb in _neighbours(bits32(float(rq)), 3):
            r = Fraction(f32(rb))
            if abs(r - rq) <= _ulp(rq):
                allowed.add(_rn32(a * r))
        for c in _neighbours(_rn32(q), 5):
            assert bool(ev.allowed(np.uint32(c))[i]) == (c in allowed), (hex(c), float(q))
        _check_window(ev10, i, q, lambda d, q=q: d <= _ulp(q))


def test_f32_div_by_huge_allows_the_zero_not_the_values_between_F32_DIV():
    """|y| > 2^126: 1/y is a denormal that F32-FTZ flushes, so the route gives a zero of
    the quotient's sign; that zero is allowed, twice the quotient is not."""
    x, y = bits32(3.0), bits32(2.0**127)
    ev = evaluate("div", x, y)
    q = Fraction(3) / Fraction(2) ** 127
    assert int(ev.bits) == _rn32(q)
    assert ev.allowed(0) and not ev.allowed(0x80000000)
    assert not ev.allowed(_rn32(2 * q)) and not ev.allowed(0x00800000)  # 2^-126: between
    assert ev.allowed_set(0).ranges == ((0, 0), (_rn32(q), _rn32(q)))


def test_mad_union_of_serial_order_and_fused_results_F32_FUSED():
    """mad(1+2^-23, 1+2^-23, -(1+2^-22)): fused 2^-46, the serial order (0.5 ULP steps)
    gives 0: exactly those two are allowed (the union, not the hull or a symmetric
    window); fused_step_ulp=1: the product may be 1 + 2^-22 or 1 + 2^-22 + 2^-23, so the
    sum is 0 or exactly 2^-23 (then any pattern within 1 ULP of it): a set, not the hull
    [0, 2^-23 + 2^-46] (2^-44 is produced by no order)."""
    a = bits32(1 + 2**-23)
    c = bits32(-(1 + 2**-22))
    ev = evaluate("mad", a, a, c)
    assert f32(int(ev.bits)) == 2**-46  # the model is the correctly rounded fused result
    for v, ok in ((0.0, True), (2**-46, True), (2**-45, False), (2**-47, False),
                  (-(2**-46), False), (-0.0, False)):
        assert bool(ev.allowed(bits32(v))) == ok, v
    wide = evaluate("mad", a, a, c, options={"fused_step_ulp": 1.0})
    for v, ok in ((2**-44, False), (2**-23 + 2**-46, True), (2**-23 + 2**-45, False),
                  (2**-23, True), (2**-23 - 2**-47, True), (2**-23 - 2**-46, True),
                  (2**-23 - 2**-45, False), (0.0, True), (2**-46, True),
                  (-(2**-46), False)):
        assert bool(wide.allowed(bits32(v))) == ok, v
    assert "F32-FUSED" in ev.rules_at(0)


def test_dp_serial_orders_include_every_order_F32_FUSED():
    """dp3 of (2^30, 1, -2^30) . (1, 1, 1): exact 1; the orders give 0 ((2^30 + 1) - 2^30
    and (1 - 2^30) + 2^30 round away the 1) or 1: exactly {0, 1} is allowed."""
    one = bits32(1.0)
    a = [bits32(2.0**30), one, bits32(-(2.0**30))]
    ev = evaluate("dp3", *a, one, one, one)
    assert f32(int(ev.bits)) == 1.0
    assert ev.allowed(bits32(0.0)) and ev.allowed(bits32(1.0))
    assert not ev.allowed(bits32(2.0)) and not ev.allowed(bits32(0.5))
    assert not ev.allowed(bits32(-0.0))


def test_f16_fused_point_six_ulp_F16_PREC():
    """F16-PREC: f16 mad within 0.6 ULP of the exact a*b + c (Fraction oracle)."""
    vals = (RNG.uniform(-4, 4, 300)).astype(np.float16).view(np.uint16)
    a, b, c = vals[:100], vals[100:200], vals[200:]
    ev = evaluate("mad", a, b, c, format="f16")
    h = lambda p: Fraction(float(np.array(p, np.uint16).view(np.float16)))  # noqa: E731
    for i in range(100):
        q = h(a[i]) * h(b[i]) + h(c[i])
        for p in range(int(ev.bits[i]) - 3, int(ev.bits[i]) + 4):
            if not 0 <= p < 0x7C00 and not 0x8000 <= p < 0xFC00:
                continue
            ulp = Fraction(2) ** -24 if abs(q) < Fraction(2) ** -14 else \
                Fraction(2) ** (int(np.floor(np.log2(float(abs(q))))) - 10)
            want = abs(h(p) - q) <= Fraction(6, 10) * ulp
            assert bool(ev.allowed(np.uint16(p))[i]) == want


def test_f64_correctly_rounded_and_drcp_F64_IEEE():
    """F64-IEEE: f64 add/mul/div/sqrt equal Python's IEEE doubles; mad is the correctly
    rounded Fraction; drcp allows 1 ULP."""
    x = RNG.normal(size=200) * 10.0 ** RNG.integers(-30, 30, 200)
    y = RNG.normal(size=200) * 10.0 ** RNG.integers(-30, 30, 200)
    xb, yb = x.view(np.uint64), y.view(np.uint64)
    for op, fn in (("add", lambda p, q: p + q), ("mul", lambda p, q: p * q),
                   ("div", lambda p, q: p / q)):
        ev = evaluate(op, xb, yb, format="f64")
        want = np.array([fn(float(p), float(q)) for p, q in zip(x, y)]).view(np.uint64)
        assert (ev.bits == want).all(), op
    ev = evaluate("mad", xb, yb, xb, format="f64")
    for i in range(200):
        q = Fraction(x[i]) * Fraction(y[i]) + Fraction(x[i])
        assert float(ev.bits[i:i + 1].view(np.float64)[0]) == float(q)  # float(Fraction) is RN
    r = evaluate("rcp", xb, format="f64")
    for i in range(200):  # 1 ULP: the neighbour on the exact value's side is allowed,
        q = 1 / Fraction(x[i])  # the one on the other side only if the result is exact
        rv = float(r.bits[i:i + 1].view(np.float64)[0])
        toward = np.nextafter(rv, np.inf if q > Fraction(rv) else -np.inf)
        away = np.nextafter(rv, -np.inf if q > Fraction(rv) else np.inf)
        assert r.allowed(np.float64(toward).view(np.uint64))[i]
        assert r.allowed(np.float64(away).view(np.uint64))[i] == (q == Fraction(rv))


def test_ulp_error_definition_at_binade_edges_zero_inf_nan():
    """ulp_error: ULP of the exact value's binade (smaller just below a power of two),
    denormal spacing at zero, 0 for a matching INF / NaN, INF / NaN otherwise."""
    one = bits32(1.0)
    ev = evaluate("add", one, bits32(2**-24), rules="ieee754")  # exact 1 + 2^-24
    assert float(ev.ulp_error(one)) == -0.5
    ev = evaluate("sub", one, bits32(2**-25), rules="ieee754")  # exact 1 - 2^-25, binade below
    assert float(ev.ulp_error(one)) == 0.5
    z = evaluate("sub", one, one, rules="ieee754")
    assert float(z.ulp_error(1)) == 1.0  # denormal spacing at zero
    inf = evaluate("add", 0x7F800000, one)
    assert float(inf.ulp_error(0x7F800000)) == 0 and inf.ulp_error(0x7F7FFFFF) == -np.inf
    nan = evaluate("add", 0x7FC00000, one)
    assert float(nan.ulp_error(0xFFC00001)) == 0 and np.isnan(nan.ulp_error(one))
    assert np.isnan(evaluate("add", one, one).ulp_error(0x7FC00000))


def test_directed_f32_rounding_matches_the_integer_encoder():
    """The engine's fast float64 -> f32 floor/ceil agrees with formats.encode_float64 (an
    integer implementation), INF counting as the grid point 2^128, denormals kept."""
    from fpinspector.model import F32
    from fpinspector.model.engine import grid
    from fpinspector.model.formats import encode_float64

    x = RNG.standard_normal(50000) * np.ldexp(1.0, RNG.integers(-160, 140, 50000))
    x = np.concatenate([x, [0.0, -0.0, 1e-50, -1e-50, 2.0**128, -(2.0**128), 2.0**-150,
                            float.fromhex("0x1.fffffe8p127"), -float.fromhex("0x1.fffffe8p127")]])
    for fn, rnd in ((grid.floor_pat, "rtn"), (grid.ceil_pat, "rtp")):
        got = fn(x, np.zeros_like(x), F32)
        with np.errstate(all="ignore"):
            want = encode_float64(F32, x, rnd, "inf")
        assert (got == want).all(), rnd


@pytest.mark.parametrize("op", ["rsq", "exp", "log", "rcp", "sqrt"])
def test_f32_model_bits_correctly_rounded_F32_INSTR(op):
    """The model (strictest GPU) returns the correctly rounded f32 result (mpmath oracle)."""
    from _engine_oracle import flush, round_f32

    x = _rand_f32(300, -8, 8) if op == "exp" else np.abs(_rand_f32(300).view(np.float32)).view(np.uint32)
    ev = evaluate(op, x)
    fn = {"rsq": lambda v: 1 / mpmath.sqrt(v), "exp": lambda v: mpmath.power(2, v),
          "log": lambda v: mpmath.log(v, 2), "rcp": lambda v: 1 / v, "sqrt": mpmath.sqrt}[op]
    for i in range(x.size):
        want = bits32(flush(round_f32(_fr(fn(mpmath.mpf(f32(int(x[i]))))))))  # F32-FTZ out
        assert int(ev.bits[i]) == want, (op, hex(int(x[i])))
