"""The allowed sets at the top and bottom of the f32 range, for every arithmetic, fused,
unary, frc and round op under d3d11, d3d10 and ieee754 (and lenient_d3d11), against an
exact rational oracle written here from docs/rules.md (Fractions; mpmath at 300 bits for
the irrational sqrt, rsq, exp and log values): operands FLT_MAX and a few ULPs below it,
2^127, INF, 2^-126 and a few ULPs either side (the largest denormals), the smallest
denormal, both zeros and a few ordinary values, both signs, every pair of them for the
binary ops. Rules: F32-PREC, F32-WINDOW-TOP, F32-DIV, F32-DIV-D3D10, F32-SQRT-RCP,
F32-INSTR, F32-FUSED, F32-FTZ, F32-IDENT, ALLOWED-ZERO, IEEE-RNE.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from _allowed_oracle import (
    INFP,
    MAXP,
    SIGN,
    _ceil_mag,
    _floor_mag,
    _flush_span,
    bits32,
    flush,
    flushed,
    fused_oracle,
    merge,
    rn,
    to_keys,
    value_of,
    value_range_keys,
    window_1ulp,
)

from fpinspector.model import evaluate

_MAGS = [MAXP, MAXP - 1, MAXP - 3, 0x7F000000, 0x7F000001, INFP, 0x00800000 - 1,
         0x00800000 - 3, 0x00800000, 0x00800001, 0x00800003, 0x01000000, 1, 0,
         bits32(1.0), bits32(1.5), bits32(2.0) - 1, bits32(0.5)]
EDGES = sorted({m | s for m in _MAGS for s in (0, SIGN)})
NAN = ((), True)
RULESETS = [("d3d11", None), ("d3d10", None), ("ieee754", None),
            ("d3d11", {"lenient_d3d11": True})]
TWO_M21 = Fraction(1, 1 << 21)


def _ftz(rules: str) -> str:
    return "none" if rules == "ieee754" else "strict"


def _in(p: int, rules: str) -> int:
    return p if rules == "ieee754" else flush(p)


def _special(x) -> bool:
    return isinstance(x, float)


def _keys_of_special(x: float) -> tuple:
    if math.isnan(x):
        return NAN
    return to_keys([INFP | (SIGN if x < 0 else 0)]), False


def _cr(x, zneg: bool, rules: str) -> tuple:
    """Correctly rounded (F32-PREC d3d11, IEEE-RNE): one pattern, flushed under d3d."""
    if _special(x):
        return _keys_of_special(x)
    return to_keys(flushed([rn(x, zneg)], _ftz(rules))), False


def _ulp1(x, zneg: bool, rules: str) -> tuple:
    if _special(x):
        return _keys_of_special(x)
    return to_keys(flushed(window_1ulp(x, zneg), _ftz(rules))), False


def _exact_binary(op: str, a: int, b: int):
    """Exact a op b of patterns (Fraction), IEEE specials as floats, and the zero's sign."""
    va, vb = value_of(a), value_of(b)
    sa, sb = bool(a & SIGN), bool(b & SIGN)
    if op == "sub":
        vb, sb = (-vb if not (isinstance(vb, Fraction) and vb == 0) else vb), not sb
        op = "add"
    if _special(va) or _special(vb):
        fa, fb = float(va) if not _special(va) else va, float(vb) if not _special(vb) else vb
        if _special(va) and math.isnan(va) or _special(vb) and math.isnan(vb):
            return math.nan, False
        if op == "add":
            if math.isinf(fa) and math.isinf(fb) and fa != fb:
                return math.nan, False
            return (fa if math.isinf(fa) else fb), False
        if op == "mul":
            if fa == 0 or fb == 0:
                return math.nan, False
            return math.copysign(math.inf, 1.0 if sa == sb else -1.0), False
        # div
        if math.isinf(fa) and math.isinf(fb):
            return math.nan, False
        if math.isinf(fa):
            return math.copysign(math.inf, 1.0 if sa == sb else -1.0), False
        return Fraction(0), sa != sb  # finite / INF
    if op == "add":
        s = va + vb
        return s, (s == 0 and sa and sb)
    if op == "mul":
        return va * vb, sa != sb
    if vb == 0:
        if va == 0:
            return math.nan, False
        return math.copysign(math.inf, 1.0 if sa == sb else -1.0), False
    return va / vb, sa != sb


def _identity(op: str, a: int, b: int) -> bool:
    za, zb = (a & 0x7FFFFFFF) == 0, (b & 0x7FFFFFFF) == 0
    one = bits32(1.0)
    nan = (a & 0x7FFFFFFF) > INFP or (b & 0x7FFFFFFF) > INFP
    if nan:
        return False
    if op in ("add", "sub"):
        return za or zb
    if op == "mul":
        return (a & 0x7FFFFFFF) == one or (b & 0x7FFFFFFF) == one
    return (b & 0x7FFFFFFF) == one


def binary_oracle(op: str, a0: int, b0: int, rules: str, opts: dict | None) -> tuple:
    a, b = _in(a0, rules), _in(b0, rules)
    x, zneg = _exact_binary(op, a, b)
    if rules == "ieee754" or (rules == "d3d11" and op != "div" and not opts):
        return _cr(x, zneg, rules)
    if _identity(op, a, b):
        return _cr(x, zneg, rules)
    if op == "div" and rules == "d3d11":
        return _div_route(a, b, x, zneg)
    return _ulp1(x, zneg, rules)  # d3d10 (F32-DIV-D3D10 too), lenient_d3d11


def _div_route(a: int, b: int, x, zneg: bool) -> tuple:
    """F32-DIV: CR x/y or x * r, r any flushed 1-ULP rcp(y); INF * 0 = NaN (the §22 note)."""
    if _special(x) and math.isnan(x):
        return NAN
    out = set()
    if _special(x):
        out.add(INFP | (SIGN if x < 0 else 0))
    else:
        out |= flushed([rn(x, zneg)], "strict")
    vb = value_of(b)
    if _special(vb):
        rs = [SIGN if vb < 0 else 0]
    elif vb == 0:
        rs = [INFP | (b & SIGN)]
    else:
        rs = sorted(flushed(window_1ulp(1 / vb), "strict"))
    nan = False
    for r in rs:
        p, pz = _exact_binary("mul", a, r)
        if _special(p):
            if math.isnan(p):
                nan = True
            else:
                out.add(INFP | (SIGN if p < 0 else 0))
        else:
            out |= flushed([rn(p, pz)], "strict")
    return to_keys(out), nan


# -- unary ops ----------------------------------------------------------------------------

def _mp_frac(v) -> Fraction:
    m, e = v.man_exp
    f = Fraction(int(m)) * Fraction(2) ** int(e)
    return -f if v < 0 else f


def _side_window(q: Fraction, d: Fraction, ftz: str) -> list[tuple[int, int]]:
    """Keys of the patterns on q's side of zero with values in [q - d, q + d] (INF as the
    grid point 2^128), flushed per ``ftz``."""
    neg = q < 0
    a = abs(q)
    lo, hi = a - d, a + d
    m0 = 0 if lo <= 0 else _ceil_mag(lo)
    m1 = _floor_mag(hi)
    spans = []
    if m0 <= min(m1, MAXP):
        spans += _flush_span(m0, min(m1, MAXP), neg, ftz)
    if hi >= Fraction(2) ** 128 and m0 <= INFP:
        k = -(INFP) - 1 if neg else INFP
        spans.append((k, k))
    return spans


def unary_oracle(op: str, p0: int, rules: str, opts: dict | None) -> tuple:
    p = _in(p0, rules)
    v = value_of(p)
    neg = bool(p & SIGN)
    ftz = _ftz(rules)
    if _special(v) and math.isnan(v):
        return NAN
    if op in ("round_ne", "round_ni", "round_pi", "round_z"):
        if _special(v):
            return _keys_of_special(v)
        f = {"round_ne": round, "round_ni": math.floor, "round_pi": math.ceil,
             "round_z": math.trunc}[op]
        r = Fraction(f(v))
        return to_keys([rn(r, neg)]), False
    if op == "frc":
        if _special(v):
            return NAN
        r = rn(v - math.floor(v))
        if r == bits32(1.0):
            r -= 1
        return to_keys(flushed([r], ftz)), False
    # values with IEEE specials
    with mpmath.workprec(300):
        if op == "sqrt":
            if neg and v != 0:
                return NAN
            if _special(v):
                return _keys_of_special(v)
            if v == 0:
                return to_keys([p & SIGN]), False
            x = _mp_frac(mpmath.sqrt(mpmath.mpf(v.numerator) / v.denominator))
        elif op == "rcp":
            if _special(v):
                return to_keys([SIGN if neg else 0]), False
            if v == 0:
                return to_keys([INFP | (p & SIGN)]), False
            x = 1 / v
        elif op == "rsq":
            if neg and v != 0:
                return NAN
            if _special(v):
                return to_keys([0]), False
            if v == 0:
                return to_keys([INFP | (p & SIGN)]), False
            x = _mp_frac(1 / mpmath.sqrt(mpmath.mpf(v.numerator) / v.denominator))
        elif op == "exp":
            if _special(v):
                return to_keys([INFP if v > 0 else 0]), False
            if v == 0 and rules != "ieee754":
                return to_keys([bits32(1.0)]), False
            if v > 128:
                return to_keys([INFP]), False
            if v <= -150:  # below half the smallest denormal: +0 (nearest even, or flushed)
                return to_keys([0]), False
            x = _mp_frac(mpmath.power(2, mpmath.mpf(v.numerator) / v.denominator))
        elif op == "log":
            if v == 0:
                return to_keys([INFP | SIGN]), False
            if neg:
                return NAN
            if _special(v):
                return to_keys([INFP]), False
            n, d = v.numerator, v.denominator
            if n & (n - 1) == 0 and d & (d - 1) == 0:
                x = Fraction(n.bit_length() - d.bit_length())
            else:
                x = _mp_frac(mpmath.log(mpmath.mpf(n) / d, 2))
        else:
            raise ValueError(op)
    if rules == "ieee754":
        return to_keys([rn(x)]), False
    if op == "sqrt" or (op == "rcp" and rules == "d3d10"):
        return _ulp1(x, False, rules)
    absolute = op == "log" and Fraction(1, 2) <= v <= 2
    if x == 0 and not absolute:
        return to_keys([0]), False
    spans = []
    if op == "rcp":  # d3d11: the looser of 1 ULP and 2^-21 relative
        spans += list(_ulp1(x, False, rules)[0])
        spans += _side_window(x, abs(x) * TWO_M21, ftz)
    elif absolute:  # absolute 2^-21 (ALLOWED-ZERO: both signs where it crosses zero)
        spans += list(value_range_keys(x - TWO_M21, x + TWO_M21, ftz))
    else:
        spans += _side_window(x, abs(x) * TWO_M21, ftz)
    spans += list(to_keys(flushed([rn(x)], ftz)))
    return merge(spans), False


def _check(ev, want_fn, cases) -> None:
    for i, c in enumerate(cases):
        got = ev.allowed_set(i)
        assert (got.keys, got.any_nan) == want_fn(*c), [hex(x) for x in c]


@pytest.mark.parametrize("rules,opts", RULESETS)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_binary_ops_at_the_range_edges(op, rules, opts):
    cases = [(a, b) for a in EDGES for b in EDGES]
    A = np.array([c[0] for c in cases], dtype=np.uint32)
    B = np.array([c[1] for c in cases], dtype=np.uint32)
    ev = evaluate(op, A, B, rules=rules, options=opts)
    _check(ev, lambda a, b: binary_oracle(op, a, b, rules, opts), cases)


@pytest.mark.parametrize("rules,opts", RULESETS[:3])
@pytest.mark.parametrize("op", ["sqrt", "rcp", "rsq", "exp", "log", "frc", "round_ne",
                                "round_ni", "round_pi", "round_z"])
def test_unary_ops_at_the_range_edges(op, rules, opts):
    extra = [bits32(1.0) + k for k in (-2, -1, 1, 2)] + [bits32(128.0) - 1, bits32(127.5),
                                                        bits32(-126.0), bits32(-149.5)]
    pats = sorted(set(EDGES + extra + [e | SIGN for e in extra]))
    ev = evaluate(op, np.array(pats, dtype=np.uint32), rules=rules, options=opts)
    _check(ev, lambda p: unary_oracle(op, p, rules, opts), [(p,) for p in pats])


@pytest.mark.parametrize("rules,opts,t", [("d3d11", None, 0.5), ("d3d10", None, 1.0),
                                          ("d3d11", {"fused_step_ulp": 1.0}, 1.0)])
def test_mad_at_the_range_edges_F32_FUSED(rules, opts, t):
    rng = np.random.default_rng(126)
    cases = [(a, b, int(c)) for a in EDGES for b in EDGES
             for c in rng.choice(EDGES, 1)]
    cols = [np.array([c[k] for c in cases], dtype=np.uint32) for k in range(3)]
    ev = evaluate("mad", *cols, rules=rules, options=opts)
    _check(ev, lambda a, b, c: fused_oracle("mad", [a, b, c], t, "strict"), cases)
