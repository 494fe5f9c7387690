"""f16: every operand pattern for unary ops against an mpmath oracle, and structured f16 x f16
subsets for add/mul/min/max against numpy float16 (F16-PREC, F16-DENORM, F32-* adapted)."""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
import pytest

from fpinspector.model import evaluate

ALL = np.arange(1 << 16, dtype=np.uint16)
VALS = ALL.view(np.float16).astype(np.float64)  # numpy's own decoder: independent oracle
mpmath.mp.prec = 80


def _round_f16(v: mpmath.mpf) -> int:
    """Correctly rounded f16 pattern of an mpmath value (nearest, ties to even)."""
    if mpmath.isnan(v):
        return 0x7E00
    if mpmath.isinf(v):
        return 0x7C00 if v > 0 else 0xFC00
    if abs(v) >= 65520:
        return 0x7C00 if v > 0 else 0xFC00
    c = np.float16(float(v))
    cands = {c, np.nextafter(c, np.float16(np.inf)), np.nextafter(c, np.float16(-np.inf))}
    best = None
    for x in cands:
        if not np.isfinite(x):
            continue
        d = abs(mpmath.mpf(float(x)) - v)
        pat = int(np.array(x, np.float16).view(np.uint16))
        key = (d, pat & 1)
        if best is None or key < best[0]:
            best = (key, pat)
    pat = best[1]
    if v == 0:
        return 0x8000 if mpmath.sign(v) < 0 else 0
    return pat


def _oracle(op: str, x: float) -> float:
    """Exact result (mpmath, 80 bits) for one value, IEEE specials by docs/rules.md."""
    if math.isnan(x):
        return math.nan
    if op == "sqrt":
        if x < 0:
            return math.nan
        return x if x == 0 or math.isinf(x) else mpmath.sqrt(x)
    if op == "rcp":
        if x == 0:
            return math.copysign(math.inf, x)
        return math.copysign(0.0, x) if math.isinf(x) else 1 / mpmath.mpf(x)
    if op == "rsq":
        if x == 0:
            return math.copysign(math.inf, x)  # F32-SQRTNEG: rsq(-0) = -INF
        if x < 0:
            return math.nan
        return 0.0 if math.isinf(x) else 1 / mpmath.sqrt(x)
    if op == "log":
        if x == 0:
            return -math.inf  # F32-LOG0
        if x < 0:
            return math.nan
        return math.inf if math.isinf(x) else mpmath.log(x, 2)
    if op == "exp":
        if math.isinf(x):
            return math.inf if x > 0 else 0.0
        return mpmath.power(2, mpmath.mpf(x))
    raise ValueError(op)


def _pattern_of(r) -> int:
    if isinstance(r, float) and (math.isnan(r) or math.isinf(r) or r == 0):
        return int(np.array(r, np.float16).view(np.uint16)) if not math.isnan(r) else 0x7E00
    return _round_f16(mpmath.mpf(r))


@functools.cache
def _want_unary(op: str) -> np.ndarray:
    return np.array([_pattern_of(_oracle(op, float(x))) for x in VALS], dtype=np.uint16)


@pytest.mark.slow
@pytest.mark.parametrize("op", ["sqrt", "rcp", "rsq", "log", "exp"])
@pytest.mark.parametrize("rules", ["d3d11", "ieee754"])
def test_f16_unary_exhaustive_correctly_rounded_F16_PREC_F16_DENORM(op, rules):
    """Every f16 pattern: model bits are the correctly rounded result (F16-PREC: f16 unfused
    ops 0.5 ULP; denormals kept, F16-DENORM), and the window holds that pattern only."""
    ev = evaluate(op, ALL, format="f16", rules=rules)
    want = _want_unary(op)
    got = ev.bits
    nan_w = (want & 0x7FFF) > 0x7C00
    nan_g = (got & 0x7FFF) > 0x7C00
    assert (nan_w == nan_g).all()
    bad = np.flatnonzero(~nan_w & (got != want))
    assert bad.size == 0, [(hex(ALL[i]), hex(got[i]), hex(want[i])) for i in bad[:5]]
    assert ev.allowed(want).all()
    up = np.where(nan_w | ((want & 0x7FFF) >= 0x7BFF), want, want + 1).astype(np.uint16)
    assert not ev.allowed(up)[up != want].any()


@pytest.mark.parametrize("op", ["round_ne", "round_ni", "round_pi", "round_z", "frc"])
def test_f16_round_frc_exhaustive_F32_INSTR(op):
    """round_* are exact, frc = x - round_ni(x) in [+0, 1) (F32-INSTR, adapted to f16)."""
    ev = evaluate(op, ALL, format="f16")
    with np.errstate(invalid="ignore"):
        fn = {"round_ne": np.rint, "round_ni": np.floor, "round_pi": np.ceil,
              "round_z": np.trunc}.get(op)
        if fn is not None:
            want = fn(VALS)
        else:
            fl = np.floor(VALS)
            want = VALS - fl  # exact in float64 for f16 inputs
            want = np.where(np.isinf(VALS), np.nan, want)
    got = ev.bits.view(np.float16).astype(np.float64)
    both_nan = np.isnan(want) & np.isnan(got)
    if op == "frc":  # x - floor(x) may round up to 1.0 in f16: clamped below 1
        rounded = want.astype(np.float16).astype(np.float64)
        want = np.where(rounded == 1.0, float(np.nextafter(np.float16(1), np.float16(0))), rounded)
        assert ((got >= 0) | both_nan).all() and ((got < 1) | both_nan).all()
    assert (both_nan | (got == want)).all()
    same_sign = np.signbit(got) == np.signbit(want)
    assert (both_nan | same_sign).all()


def _structured_b() -> np.ndarray:
    """Zeros, denormals at both ends, min/max normal, 1, INF, NaNs, and a spread of values."""
    special = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF,
               0x3C00, 0xBC00, 0x3C01, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C01, 0x7D00]
    spread = np.arange(0, 1 << 16, 4099, dtype=np.uint16)
    return np.unique(np.concatenate([np.array(special, np.uint16), spread]))


@pytest.mark.parametrize("op", ["add", "mul"])
def test_f16_pairs_add_mul_vs_numpy_F16_PREC(op):
    """Every f16 A x structured B: numpy float16(exact float64 result) is one correct rounding
    (f16 sums and products are exact in float64), which the model must equal (F16-PREC)."""
    b = _structured_b()
    A = np.repeat(ALL, b.size)
    B = np.tile(b, ALL.size)
    ev = evaluate(op, A, B, format="f16")
    fa = A.view(np.float16).astype(np.float64)
    fb = B.view(np.float16).astype(np.float64)
    with np.errstate(all="ignore"):
        want = (fa + fb if op == "add" else fa * fb).astype(np.float16)
    wb = want.view(np.uint16)
    nan = np.isnan(want)
    assert (np.isnan(ev.bits.view(np.float16)) == nan).all()
    assert (ev.bits[~nan] == wb[~nan]).all()
    assert ev.allowed(np.where(nan, np.uint16(0xFE00), wb)).all()


@pytest.mark.parametrize("op", ["min", "max"])
def test_f16_pairs_minmax_vs_numpy_F32_MINMAX_NAN_F16_DENORM(op):
    """min/max on f16: numpy fmin/fmax implement "one NaN -> the other"; ties of -0/+0 aside,
    the model equals numpy and keeps denormals (no flush in f16)."""
    b = _structured_b()
    A = np.repeat(ALL, b.size)
    B = np.tile(b, ALL.size)
    ev = evaluate(op, A, B, format="f16")
    fa, fb = A.view(np.float16), B.view(np.float16)
    want = (np.fmin if op == "min" else np.fmax)(fa, fb)
    nan = np.isnan(want)
    zero_tie = (fa == 0) & (fb == 0) & (np.signbit(fa) != np.signbit(fb))
    wb = want.view(np.uint16)
    check = ~nan & ~zero_tie
    assert (ev.bits[check] == wb[check]).all()
    assert np.isnan(ev.bits.view(np.float16)[nan]).all()
    zero_pat = 0x8000 if op == "min" else 0x0000
    assert (ev.bits[zero_tie] == zero_pat).all()  # F32-MINMAX-ZERO recommended order
    assert ev.allowed(np.uint16(zero_pat ^ 0x8000))[zero_tie].all()  # either zero allowed


def _inf_nan_pairs() -> tuple[np.ndarray, np.ndarray]:
    """Every INF and NaN f16 pattern (both signs, every payload) against a spread of B
    (INF and NaN ones, zeros, denormals, normals, +/-1, the largest), in both orders."""
    special = ALL[(ALL & 0x7C00) == 0x7C00]
    b = np.unique(np.concatenate([special[::5], _structured_b()[::3],
                                  np.array([0, 0x8000, 1, 0x8001, 0x3C00, 0xBC00, 0x7BFF],
                                           np.uint16)]))
    a = np.repeat(special, b.size)
    bb = np.tile(b, special.size)
    return np.concatenate([a, bb]), np.concatenate([bb, a])


def test_f16_mul_inf_nan_operands_kernel_equals_reference_F32_NANPROP_F32_INFINF():
    """The f16 mul kernel completes its INF and NaN operands itself (fastbits.COMPLETES_REST):
    its bits, exact value (float64 bit for bit, NaN payloads and signs included), ULP errors,
    verdicts and fired rules equal the reference path's on every INF/NaN operand pattern;
    and the bits are IEEE's (numpy float16): INF with the sign of the product, the positive
    canonical quiet NaN where IEEE gives a NaN (F32-NANPROP, F32-INFINF: INF * 0)."""
    A, B = _inf_nan_pairs()
    fast = evaluate("mul", A, B, format="f16")
    ref = evaluate("mul", A, B, format="f16", paths="reference")
    assert np.array_equal(fast.bits, ref.bits)
    assert np.array_equal(fast.exact.view(np.uint64), ref.exact.view(np.uint64))
    assert np.array_equal(fast.exact_lo.view(np.uint64), ref.exact_lo.view(np.uint64))
    fc, rc = fast.model_columns(), ref.model_columns()
    assert np.array_equal(fc["err_model"], rc["err_model"], equal_nan=True)
    assert fc["fired"].keys() == rc["fired"].keys()
    assert all(np.array_equal(fc["fired"][k], rc["fired"][k]) for k in fc["fired"])
    for obs in (fast.bits, np.full(A.shape, 0x7C00, np.uint16), np.uint16(0xFE01)):
        assert np.array_equal(fast.allowed(obs), ref.allowed(obs))
        assert np.array_equal(fast.ulp_error(obs), ref.ulp_error(obs), equal_nan=True)
    with np.errstate(all="ignore"):
        want = A.view(np.float16) * B.view(np.float16)  # numpy's IEEE float16 product
    nan = np.isnan(want)
    assert nan.any() and (~nan).any()
    assert (fast.bits[nan] == 0x7E00).all()
    assert np.array_equal(fast.bits[~nan], want.view(np.uint16)[~nan])


def test_f16_mul_ulp_errors_in_float32_equal_float64_and_fractions_F16_PREC(monkeypatch):
    """The model's ULP errors of f16 mul are computed in float32 from the kernel's float32
    product (ulp._errors32): on 64 A patterns spread over every class (zeros, denormals,
    normals, overflowing products, INF, NaN) x every B they equal the float64 passes bit for
    bit (NaN errors included), also as the engine's model columns of sweep-sized chunks
    (which take that path), and on 400 random pairs an exact Fraction oracle:
    (value(model) - a*b) / 2^(clip(floor(log2|a*b|), -14, 15) - 10), INF where the model
    overflowed."""
    from fractions import Fraction

    from fpinspector.model.engine import grid, ulp
    from fpinspector.model.engine.residual import zero_residual
    from fpinspector.model.engine.ulp import ulp_errors_into
    from fpinspector.model.formats import FORMATS

    fmt = FORMATS["f16"]
    table = grid.values32(fmt)
    a_pats = np.unique(np.concatenate([np.linspace(0, 0xFFFF, 58).astype(np.uint16),
                                       np.array([0, 1, 0x3C00, 0x7BFF, 0x7C00, 0xFE00],
                                                np.uint16)]))
    A = np.repeat(a_pats, ALL.size)
    B = np.tile(ALL, a_pats.size)
    with np.errstate(all="ignore"):
        p = table.take(A) * table.take(B)
        bits = grid.round_f16_f32(p)
        hi = p.astype(np.float64)
        v = table.take(bits)
        want, got = np.empty(A.size), np.empty(A.size)
        ulp_errors_into(fmt, bits, hi, zero_residual(hi), want, values=v)
        ulp_errors_into(fmt, bits, hi, zero_residual(hi), got, values=v, hi32=p)
    assert np.array_equal(want.view(np.uint64), got.view(np.uint64))
    calls = []
    errors32 = ulp._errors32
    monkeypatch.setattr(ulp, "_errors32", lambda *a: calls.append(1) or errors32(*a))
    step = 1 << 17  # a sweep's chunk: the kernel's float32 product reaches the columns
    for s in range(0, A.size, step):
        cols = evaluate("mul", A[s:s + step], B[s:s + step], format="f16").model_columns()
        assert np.array_equal(cols["err_model"].view(np.uint64),
                              want[s:s + step].view(np.uint64))
    assert len(calls) == A.size // step
    ev = evaluate("mul", A, B, format="f16")
    rng = np.random.default_rng(41)
    finite = np.flatnonzero(((A & 0x7C00) != 0x7C00) & ((B & 0x7C00) != 0x7C00))
    for i in rng.choice(finite, 400, replace=False):
        x = Fraction(float(A[i:i + 1].view(np.float16)[0])) * Fraction(
            float(B[i:i + 1].view(np.float16)[0]))
        r = float(ev.bits[i:i + 1].view(np.float16)[0])
        if math.isinf(r):
            assert got[i] == r
            continue
        k = min(max(abs(x).numerator.bit_length() - abs(x).denominator.bit_length()
                    - (abs(x) < Fraction(2) ** (abs(x).numerator.bit_length()
                                               - abs(x).denominator.bit_length()))
                    if x else -14, -14), 15)
        assert got[i] == float((Fraction(r) - x) / Fraction(2) ** (k - 10))
