"""Every lowering, two ways: the expression's step bits equal chaining ``evaluate`` by hand
(the lowering is the instruction sequence documented in docs/expressions.md), and the
model's bits equal an independent oracle written from the step semantics (Fractions,
mpmath, struct bit operations, numpy float16) with F32-FTZ on inputs and outputs."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from _engine_oracle import bits32, d3d_binary_bits, f32, flush, is_nan32, round_f32

from fpinspector.model import evaluate, evaluate_expr

S = 0x80000000
U32 = np.uint32


def sample(n: int, seed: int, lo: float = -8.0, hi: float = 8.0) -> np.ndarray:
    """Normal f32 patterns spread over a value range, plus zeros, denormals, INF, NaN."""
    rng = np.random.default_rng(seed)
    vals = rng.uniform(lo, hi, n).astype(np.float32)
    vals[::7] *= np.float32(1e-3)
    specials = [0, S, 1, S | 5, 0x7F800000, 0xFF800000, 0x7FC00000, bits32(1.0), bits32(0.5)]
    return np.concatenate([vals.view(U32), np.array(specials, U32)])


A, B, C = sample(60, 1), sample(69, 2), sample(69, 3)[::-1].copy()
GRID = np.meshgrid(A, B, indexing="ij")
AA, BB = (g.ravel() for g in GRID)
CC = np.resize(C, AA.shape)


def model(text: str, **binds) -> np.ndarray:
    return np.asarray(evaluate_expr(text, binds).bits)


def same_or_both_nan(got: np.ndarray, want: list) -> None:
    for g, w in zip(got.tolist(), want):
        if w is None:
            assert is_nan32(g), hex(g)
        else:
            assert g == w, (hex(g), hex(w))


# -- the step bits equal chaining evaluate by hand -------------------------------------
def ev(op, *xs):
    return np.asarray(evaluate(op, *xs).bits)


@pytest.mark.parametrize("text, chain", [
    ("a - b", lambda a, b, c: ev("add", a, b ^ U32(S))),
    ("a > b", lambda a, b, c: ev("lt", b, a)),
    ("a <= b", lambda a, b, c: ev("ge", b, a)),
    ("-a * abs(b)", lambda a, b, c: ev("mul", a ^ U32(S), b & U32(~S & 0xFFFFFFFF))),
    ("-abs(a) / b", lambda a, b, c: ev("div", a | U32(S), b)),
    ("mad(a, b, -c)", lambda a, b, c: ev("mad", a, b, c ^ U32(S))),
    ("lerp(a, b, c)", lambda a, b, c: ev("mad", c, ev("add", b, a ^ U32(S)), a)),
    ("min(a, b) + max(b, c)", lambda a, b, c: ev("add", ev("min", a, b), ev("max", b, c))),
    ("sqrt(a) * rsqrt(b)", lambda a, b, c: ev("mul", ev("sqrt", a), ev("rsq", b))),
    ("rcp(a) + exp2(b) + log2(c)", lambda a, b, c: ev("add", ev("add", ev("rcp", a),
                                                                   ev("exp", b)), ev("log", c))),
    ("frac(a) * floor(b) - ceil(c)", lambda a, b, c: ev("add", ev("mul", ev("frc", a),
                                                                   ev("round_ni", b)),
                                                             ev("round_pi", c) ^ U32(S))),
    ("round(a) + trunc(b)", lambda a, b, c: ev("add", ev("round_ne", a), ev("round_z", b))),
    ("a < b ? c : -a", lambda a, b, c: np.where(ev("lt", a, b), c, a ^ U32(S))),
    ("f16tof32(f32tof16(a * 0.5))", lambda a, b, c: ev(
        "f16tof32", ev("f32tof16", ev("mul", a, U32(0x3F000000))))),
    ("asfloat(asuint(a)) * b", lambda a, b, c: ev("mul", a, b)),
])
def test_steps_equal_evaluate_chained_by_hand(text, chain):
    got = model(text, a=AA, b=BB, c=CC)
    assert np.array_equal(got, chain(AA, BB, CC))


def test_vector_expression_equals_chain():
    x, y, z = AA, BB, CC
    got = np.asarray(evaluate_expr("n * rsqrt(dot(n, n))", {"n": [x, y, z]}).bits)
    r = ev("rsq", ev("dp3", x, y, z, x, y, z))
    want = np.stack([ev("mul", x, r), ev("mul", y, r), ev("mul", z, r)], axis=-1)
    assert np.array_equal(got, want)


# -- independent oracles (no fpinspector in the reference) ------------------------------
def test_sub_is_add_of_negated_operand_oracle():  # F32-PREC, F32-FTZ, EXPR-SRCMOD
    got = model("a - b", a=AA, b=BB)
    same_or_both_nan(got, [d3d_binary_bits("add", int(a), int(b) ^ S) for a, b in zip(AA, BB)])


@pytest.mark.parametrize("text, op, fa, fb", [
    ("a * b", "mul", lambda a: a, lambda b: b),
    ("a / b", "div", lambda a: a, lambda b: b),
    ("-a * abs(b)", "mul", lambda a: a ^ S, lambda b: b & ~S & 0xFFFFFFFF),
    ("abs(a) + -abs(b)", "add", lambda a: a & 0x7FFFFFFF, lambda b: b | S),
])
def test_binary_ops_and_source_modifiers_oracle(text, op, fa, fb):  # EXPR-SRCMOD
    got = model(text, a=AA, b=BB)
    same_or_both_nan(got, [d3d_binary_bits(op, fa(int(a)), fb(int(b))) for a, b in zip(AA, BB)])


def _fin(b: int) -> Fraction:
    return Fraction(flush(f32(b)))


def _rne(q: Fraction) -> int:
    return bits32(flush(round_f32(q)))


def _normal(*cols) -> np.ndarray:
    m = np.ones(cols[0].shape, bool)
    for c in cols:
        e = (c >> 23) & 0xFF
        m &= (e > 0) & (e < 0xFF)
    return m


def test_mad_dot_lerp_fraction_oracle():  # F32-FUSED: the model rounds the fused result once
    m = _normal(AA, BB, CC)
    a, b, c = AA[m], BB[m], CC[m]
    got = model("mad(a, b, c)", a=a, b=b, c=c)
    assert got.tolist() == [_rne(_fin(x) * _fin(y) + _fin(z)) for x, y, z in zip(a, b, c)]
    got = model("dot(float3(a, b, c), float3(c, a, b))", a=a, b=b, c=c)
    assert got.tolist() == [_rne(_fin(x) * _fin(z) + _fin(y) * _fin(x) + _fin(z) * _fin(y))
                            for x, y, z in zip(a, b, c)]
    got = model("lerp(a, b, c)", a=a, b=b, c=c)  # add d, b, -a ; mad c, d, a
    want = []
    for x, y, t in zip(a, b, c):
        d = _rne(_fin(y) - _fin(x))
        want.append(_rne(_fin(t) * _fin(d) + _fin(x)))
    assert got.tolist() == want


def _mp_rne(fn, x: int) -> int:
    with mpmath.workprec(200):
        sign, man, exp, _ = fn(mpmath.mpf(f32(x)))._mpf_
    return _rne((-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(exp))


@pytest.mark.parametrize("text, fn", [
    ("sqrt(a)", mpmath.sqrt), ("rsqrt(a)", lambda v: 1 / mpmath.sqrt(v)),
    ("rcp(a)", lambda v: 1 / v), ("log2(a)", lambda v: mpmath.log(v, 2)),
])
def test_unary_transcendentals_mpmath_oracle(text, fn):  # model: nearest even of the exact
    pos = np.abs(A.view(np.float32)).view(U32)
    x = pos[_normal(pos)]
    assert model(text, a=x).tolist() == [_mp_rne(fn, int(v)) for v in x]


def test_exp2_mpmath_oracle():
    x = sample(80, 9, -20.0, 20.0)
    x = x[_normal(x)]
    assert model("exp2(a)", a=x).tolist() == [_mp_rne(lambda v: mpmath.power(2, v), int(v))
                                             for v in x]


@pytest.mark.parametrize("text, fn", [
    ("floor(a)", math.floor), ("ceil(a)", math.ceil), ("trunc(a)", math.trunc),
    ("round(a)", round), ("frac(a)", lambda q: q - math.floor(q)),
])
def test_rounding_intrinsics_fraction_oracle(text, fn):
    x = A[_normal(A)]
    want = []
    for v in x:
        q = Fraction(f32(int(v)))
        r = Fraction(fn(q))
        want.append(bits32(math.copysign(0.0, f32(int(v)))) if r == 0 and text != "frac(a)"
                    else _rne(r))
    assert model(text, a=x).tolist() == want


@pytest.mark.parametrize("text, cmp", [
    ("a < b", lambda x, y: x < y), ("a <= b", lambda x, y: x <= y),
    ("a > b", lambda x, y: x > y), ("a >= b", lambda x, y: x >= y),
    ("a == b", lambda x, y: x == y), ("a != b", lambda x, y: x != y),
])
def test_comparisons_python_float_oracle(text, cmp):  # F32-CMPNAN, F32-CMPZERO, F32-FTZ
    got = model(text, a=AA, b=BB)
    assert got.tolist() == [cmp(flush(f32(int(a))), flush(f32(int(b)))) for a, b in zip(AA, BB)]


def test_select_is_a_raw_move_oracle():  # EXPR-MOVC: denormals and NaN payloads kept
    got = model("a < b ? a : b", a=AA, b=BB)
    want = [int(a) if flush(f32(int(a))) < flush(f32(int(b))) else int(b) for a, b in zip(AA, BB)]
    assert got.tolist() == want
    # a float condition is tested with ne c, 0: -0 is false, a denormal flushes to false
    got = model("c ? a : b", a=np.uint32(7), b=np.uint32(9),
                c=np.array([0, S, 1, bits32(2.0), 0x7FC00000], U32))
    assert got.tolist() == [9, 9, 9, 7, 7]


def test_casts_move_bits_unchanged_oracle():  # EXPR-CAST
    assert model("asuint(a)", a=AA).tolist() == AA.tolist()
    assert model("asfloat(asuint(a))", a=AA).tolist() == AA.tolist()
    got = model("asuint(-a)", a=AA)
    same_or_both_nan(got, [None if is_nan32(int(a)) else int(a) ^ S for a in AA])
    assert int(model("asfloat(0x00000001)")) == 1  # a denormal constant, not flushed
    assert int(model("asfloat(u) * 1.0", u=("uint", [np.uint32(1)]))) == 0  # F32-FTZ


def test_f32tof16_rounds_toward_zero_oracle():  # CONV-F2F-RTZ, CONV-F2F-SAT
    table = np.arange(0x7C00, dtype=np.uint16).view(np.float16).astype(np.float64)
    x = sample(200, 5, -70000.0, 70000.0)
    x = x[_normal(x)]
    got = model("f32tof16(a)", a=x)
    for g, v in zip(got.tolist(), x):
        f = f32(int(v))
        k = int(np.searchsorted(table, abs(f), side="right")) - 1
        want = (0x8000 if f < 0 else 0) | k
        assert g == want, (f, hex(g), hex(want))


def test_f16tof32_widens_exactly_numpy_oracle():  # CONV-WIDEN
    h = np.arange(0, 0x10000, 97, dtype=np.uint32)
    got = model("f16tof32(u)", u=("uint", [h]))
    want = h.astype(np.uint16).view(np.float16).astype(np.float32).view(U32)
    nan = np.isnan(h.astype(np.uint16).view(np.float16))
    assert np.array_equal(got[~nan], want[~nan])
    assert np.all(np.isnan(got[nan].view(np.float32)))
    # only the low 16 bits are read
    assert int(model("f16tof32(u)", u=("uint", [np.uint32(0xABCD3C00)]))) == bits32(1.0)


def test_literals_round_once_fraction_oracle():
    for text in ("0.1", "1e-45", "3.4028235e38", "16777217", "0.30000001192092896f", "-2.5"):
        want = bits32(round_f32(Fraction(text.rstrip("f"))))
        assert int(model(f"asuint(float({text}))")) == want, text
    assert int(model("asuint(16777217)")) == 16777217  # an integer read as uint: its bits
