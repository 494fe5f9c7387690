"""The engine's fast paths proved against independent oracles.

- ulp_error without full-array INF/NaN masks (engine/ulp.py zero_same_specials) checked
  element by element against a Python-float / Fraction reference (F32-PREC, F32-SQRT-RCP,
  F16-PREC windows measure in these ULPs; F32-NANOUT: any NaN matches a NaN result).
- ulp_at(specials=False) equals ulp_at wherever the exact value is finite.
- The deferred general path of run_chunked (non-plain elements of every chunk gathered and
  run once) gives the same record as the general handler alone.
- The f32 kernels' whole-chunk proofs (reductions instead of per-element masks) still leave
  one special operand among 2^16 ordinary ones to the reference path.
- The float64 kernels (f16 arithmetic, f32 rsq/log/exp) give the reference's record when
  they run in chunks, and keep their temporaries chunk-sized (a tracemalloc bound).
- One element that an f32 kernel leaves before any arithmetic (an operand not normal) is
  one the kernel itself leaves; grid.is_normal_one equals grid.is_normal.
"""

from __future__ import annotations

import math
import zlib
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model import evaluate, get_format
from fpinspector.model.engine import OPS, grid
from fpinspector.model.formats import FORMATS

F32 = get_format("f32")
F16 = get_format("f16")


def _ref_ulp(x: float, frac_bits: int, minexp: int, maxexp: int, lo: float) -> float:
    """ULP of the binade of the exact value x + lo, from math.frexp (independent of grid)."""
    if x == 0:
        return math.ldexp(1.0, minexp - frac_bits)
    m, e = math.frexp(abs(x))  # |x| = m * 2^e, m in [0.5, 1)
    k = e - 1
    if m == 0.5 and lo != 0 and (lo < 0) != (x < 0):  # just below a power of two
        k -= 1
    k = min(max(k, minexp), maxexp - 1)
    return math.ldexp(1.0, k - frac_bits)


def _ref_err(v: float, hi: float, lo: float, fmt) -> float:
    """Reference ulp_error of one observation v against the exact value hi + lo."""
    if math.isnan(hi):
        return 0.0 if math.isnan(v) else math.nan
    if math.isinf(hi):
        return 0.0 if v == hi else v - hi
    if math.isnan(v):
        return math.nan
    u = _ref_ulp(hi, fmt.frac_bits, fmt.minexp, fmt.maxexp, lo)
    if math.isinf(v):
        return math.copysign(math.inf, v)
    return float((Fraction(v) - Fraction(hi) - Fraction(lo)) / Fraction(u))


def _check(ev, obs: np.ndarray, fmt) -> None:
    got = ev.ulp_error(obs)
    hi, lo = ev.exact.ravel(), ev.exact_lo.ravel()
    with np.errstate(invalid="ignore"):
        vals = fmt.decode(obs.ravel())
    for i, (g, h, l_, v) in enumerate(zip(got.ravel(), hi, lo, vals)):
        want = _ref_err(float(v), float(h), float(l_), fmt)
        if math.isnan(want):
            assert math.isnan(g), (i, g, want)
        elif math.isinf(want) or want == 0:
            assert g == want, (i, hex(int(obs.ravel()[i])), g, want)
        else:
            assert g == pytest.approx(want, rel=1e-12, abs=0), (i, g, want)


_SPECIAL32 = np.array([0, 0x80000000, 1, 0x807FFFFF, 0x00800000, 0x3F800000, 0xBF800000,
                       0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001,
                       0x40000000, 0x3E800000], dtype=np.uint32)


@pytest.mark.parametrize("nan_heavy", [False, True])
@pytest.mark.parametrize("op", ["sqrt", "rcp", "log", "exp"])
def test_ulp_error_f32_unary_vs_reference_F32_SQRT_RCP_F32_NANOUT(op: str, nan_heavy: bool):
    """ulp_error (F32-SQRT-RCP / F32-NANOUT): 0 for the same INF or any NaN for a NaN
    exact value, INF / NaN otherwise, (v - exact) / ulp for finite values; both the
    few-NaN subset path and the many-NaN mask path (nan_heavy)."""
    rng = np.random.default_rng(11)
    if nan_heavy:  # negative operands: NaN results for sqrt/log, >1/8 of the elements
        x = rng.integers(0x80800000, 0xFF000000, 3000, dtype=np.uint64).astype(np.uint32)
        x[:500] = rng.integers(0, 1 << 32, 500, dtype=np.uint64).astype(np.uint32)
    else:
        x = rng.integers(0x00800000, 0x7F000000, 3000, dtype=np.uint64).astype(np.uint32)
    x[: _SPECIAL32.size] = _SPECIAL32
    ev = evaluate(op, x)
    model = ev.bits
    _check(ev, model, F32)  # the sweep's call: the model's own result
    obs = model.copy()  # other observations: NaNs of either sign, INFs, neighbours
    obs[::7] = 0x7FC00000
    obs[1::7] = 0xFFC12345
    obs[2::7] = 0x7F800000
    obs[3::7] = 0xFF800000
    obs[4::7] = obs[4::7] + 1
    _check(ev, obs, F32)


@pytest.mark.parametrize("op", ["add", "mul"])
def test_ulp_error_f16_pairs_vs_reference_F16_PREC(op: str):
    """ulp_error for f16 add/mul (F16-PREC) on special x random pairs, against the
    Fraction reference, for the model result and for perturbed observations."""
    rng = np.random.default_rng(5)
    sp = np.array([0, 0x8000, 1, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x7C00,
                   0xFC00, 0x7E00, 0xFE01, 0x4000], dtype=np.uint16)
    a, b = (g.ravel() for g in np.meshgrid(sp, sp))
    ra = rng.integers(0, 1 << 16, 2000, dtype=np.uint16)
    rb = rng.integers(0, 1 << 16, 2000, dtype=np.uint16)
    a, b = np.concatenate([a, ra]), np.concatenate([b, rb])
    ev = evaluate(op, a, b, format="f16")
    _check(ev, ev.bits, F16)
    obs = ev.bits.copy()
    obs[::5] = 0x7E00
    obs[1::5] ^= np.uint16(1)
    _check(ev, obs, F16)


def test_ulp_at_without_specials_matches_where_finite_F32_PREC():
    """ulp_at(specials=False) is ulp_at on finite exact values (F32-PREC's ULP) and a
    finite positive number on INF / NaN (so a division keeps INF / NaN)."""
    rng = np.random.default_rng(3)
    hi = rng.integers(0, 1 << 64, 20000, dtype=np.uint64).view(np.float64).copy()
    hi[:6] = [np.inf, -np.inf, np.nan, 0.0, 1.0, -2.0]
    lo = np.where(rng.random(hi.size) < 0.5, -1e-300, 1e-300)
    hi[6:2000] = np.ldexp(1.0, rng.integers(-140, 140, 1994))  # powers of two: the fix-up
    for fmt in (F32, F16):
        a = grid.ulp_at(hi, lo, fmt)
        b = grid.ulp_at(hi, lo, fmt, specials=False)
        fin = np.isfinite(hi)
        np.testing.assert_array_equal(a[fin], b[fin])
        assert np.all(np.isfinite(b)) and np.all(b > 0)


def test_keep_freed_buffers_glibc_in_subprocess():
    """model.sweep.alloc.keep_freed_buffers (perf knob, no rule ID: results do not depend on it) is
    accepted by glibc and leaves the model record unchanged; run in a subprocess (the
    setting is process-wide)."""
    import platform
    import subprocess
    import sys

    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        pytest.skip("mallopt is glibc-only")
    code = (
        "import numpy as np\n"
        "from fpinspector.model import evaluate\n"
        "from fpinspector.model.sweep.alloc import keep_freed_buffers\n"
        "x = np.random.default_rng(1).integers(0, 1 << 32, 300000, dtype=np.uint64)"
        ".astype(np.uint32)\n"
        "a = evaluate('sqrt', x)\n"
        "print(keep_freed_buffers())\n"
        "b = evaluate('sqrt', x)\n"
        "print(np.array_equal(a.bits, b.bits), np.array_equal(a.lo, b.lo),"
        " np.array_equal(a.ulp_error(a.bits), b.ulp_error(b.bits), equal_nan=True))\n"
    )
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=root, timeout=120, check=True).stdout.split()
    assert out == ["True", "True", "True", "True"]


def _mad_boundary_cases() -> list[tuple[float, float, float]]:
    """a*b + c landing within 2^-180 of the midpoint 2^-126 - 2^-150 (between the largest
    f32 denormal and 2^-126), from both sides, both signs: a*b = -(2^-150 +- d) with
    24-bit a and b found by search, c = 2^-126. float64 rounds such a sum onto the
    midpoint itself, and the float32 cast then ties to 2^-126."""
    cases = []
    for side in (1, -1):  # |a*b| just above / just below 2^-150: two pairs each
        found = 0
        for a_int in range(11863283, 11863283 + 400000):
            b_int = -(-(1 << 47) // a_int) if side > 0 else (1 << 47) // a_int
            k = a_int * b_int - (1 << 47)  # |a*b| = 2^-150 + k 2^-197
            if k * side > 0 and abs(k) <= 1 << 17 and (1 << 23) <= b_int < (1 << 24):
                a, b = math.ldexp(a_int, -98), math.ldexp(b_int, -99)
                cases += [(a, -b, 2.0**-126), (-a, -b, -(2.0**-126))]
                found += 1
                if found == 2:
                    break
    return cases


@pytest.mark.parametrize("rules", ["d3d11", "ieee754"])
def test_mad_double_rounding_at_the_smallest_normal_F32_FUSED_F32_FTZ(rules: str) -> None:
    """The fast mad kernel's float64 sum rounds a second time to float32; below 2^-126 the
    float32 grid is the denormal one, so its midpoint test must not miss ties there. The
    model (exact a*b + c rounded once to the f32 grid, then flushed under d3d11) against
    a Fraction oracle and the reference path. (Before the fix the kernel gave 2^-126 where
    the exact value lies below the midpoint: the largest denormal, flushed to 0.)"""
    cases = _mad_boundary_cases()
    assert len(cases) == 8
    a, b, c = (np.array([x[i] for x in cases], dtype=np.float32) for i in range(3))
    assert all(float(x) == y for x, y in zip(a, [x[0] for x in cases]))
    ops = [x.view(np.uint32) for x in (a, b, c)]
    fast = evaluate("mad", *ops, rules=rules).bits
    ref = evaluate("mad", *ops, rules=rules, paths="reference").bits
    np.testing.assert_array_equal(fast, ref)
    step = Fraction(2) ** -149
    for i, (x, y, z) in enumerate(cases):
        ex = Fraction(x) * Fraction(y) + Fraction(z)
        q = ex / step
        n = math.floor(q)
        if q - n > Fraction(1, 2) or (q - n == Fraction(1, 2) and n % 2):
            n += 1
        mag = abs(n)  # patterns of the f32 grid from 0 up to 2^-126 (1 << 23)
        if rules == "d3d11" and mag < (1 << 23):
            mag = 0
        want = mag | (0x80000000 if ex < 0 else 0)
        assert int(fast[i]) == want, (i, hex(int(fast[i])), hex(want))


@pytest.mark.parametrize("rules", ["d3d11", "ieee754"])
def test_mad_sums_cancelling_into_the_denormal_range_F32_FUSED_F32_FTZ(rules: str) -> None:
    """Random normal a, b and a c that cancels a*b down to a few denormal steps (either
    side of 2^-126, both signs, ties included): the fast kernel's bits equal the
    reference path's on every element."""
    rng = np.random.default_rng(126)
    n = 200_000
    a = (rng.uniform(1, 2, n) * rng.choice([-1.0, 1.0], n) * 2.0 ** rng.integers(-70, -50, n))
    b = (rng.uniform(1, 2, n) * 2.0 ** rng.integers(-70, -50, n))
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    p = a32.astype(np.float64) * b32.astype(np.float64)
    steps = rng.integers(-(1 << 24), 1 << 24, n) * 2.0**-149
    with np.errstate(all="ignore"):
        c32 = (-p + steps).astype(np.float32)
    keep = (np.abs(c32) >= np.float32(2.0**-126)) & np.isfinite(c32)
    ops = [x[keep].view(np.uint32) for x in (a32, b32, c32)]
    assert ops[0].size > n // 2
    fast = evaluate("mad", *ops, rules=rules).bits
    ref = evaluate("mad", *ops, rules=rules, paths="reference").bits
    np.testing.assert_array_equal(fast, ref)


@pytest.mark.parametrize("fname,one", [("f16", 0x3C00), ("f32", 0x3F800000)])
@pytest.mark.parametrize("op", ["div", "add", "mul"])
def test_ulp_error_of_an_infinite_exact_value_in_a_vouched_chunk_F32_NANOUT(op, fname, one):
    """A chunk whose operands are all finite can still have an infinite exact value (an
    f16 over zero; f32 sums past the range are finite in float64): an INF observation of
    an INF exact value is 0 ULP, as on the reference path, whatever the fast kernels
    vouched for."""
    fmt = get_format(fname)
    n = 64
    a = np.full(n, one, dtype=fmt.dtype)
    b = np.zeros(n, dtype=fmt.dtype) if op == "div" else np.full(n, fmt.max_finite_bits,
                                                                  dtype=fmt.dtype)
    if op != "div":
        a = b.copy()
    obs = np.full(n, fmt.pos_inf, dtype=fmt.dtype)
    fast = evaluate(op, a, b, format=fname)
    ref = evaluate(op, a, b, format=fname, paths="reference")
    np.testing.assert_array_equal(fast.ulp_error(obs), ref.ulp_error(obs))
    np.testing.assert_array_equal(fast.model_columns()["err_model"],
                                  ref.model_columns()["err_model"])


@pytest.mark.parametrize("fname", ["f16", "f32", "f64"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "mad", "rcp", "sqrt"])
def test_ulp_error_of_infinite_operands_with_no_nan_result_F32_NANOUT(op, fname):
    """INF operands whose results are all numbers or INF (INF + 1, INF * 2, 1 / INF: a
    chunk with no NaN result, so the f64 kernel vouches for all of it): every observation
    (the model's result, either INF, a NaN, a number) gets the reference path's ULP error,
    0 for the exact INF itself."""
    fmt = get_format(fname)

    def enc(v):
        return np.asarray(fmt.encode(np.asarray(v, dtype=np.float64)), dtype=fmt.dtype)

    a = enc([np.inf, -np.inf, 1.0, np.inf, -np.inf, 3.0])
    b = enc([2.0, 2.0, np.inf, 2.0, 1.5, -np.inf])
    c = enc([1.0, 2.0, 1.0, -1.0, 0.5, 2.0])
    k = {"rcp": 1, "sqrt": 1, "mad": 3}.get(op, 2)
    ops = [a, b, c][:k]
    fast = evaluate(op, *ops, format=fname)
    ref = evaluate(op, *ops, format=fname, paths="reference")
    np.testing.assert_array_equal(fast.bits, ref.bits)
    for obs in (fast.bits, np.full(a.size, fmt.pos_inf, dtype=fmt.dtype),
                np.full(a.size, fmt.pos_inf | fmt.sign_mask, dtype=fmt.dtype),
                np.full(a.size, fmt.quiet_nan, dtype=fmt.dtype), enc(np.full(a.size, 1.0))):
        np.testing.assert_array_equal(fast.ulp_error(obs), ref.ulp_error(obs))
    np.testing.assert_array_equal(fast.model_columns()["err_model"],
                                  ref.model_columns()["err_model"])


@pytest.mark.parametrize("fmt", ["f16", "f32"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_a_chunk_the_kernel_leaves_whole_equals_the_reference_path(fmt, op):
    """Every operand A an INF, a NaN or (f32, F32-FTZ) a denormal: the kernel vouches for
    no element and the general path's answer is taken whole (a row of an exhaustive f16
    sweep); bits, exact value, allowed sets, ULP errors and fired rules as the reference."""
    dt = {"f16": np.uint16, "f32": np.uint32}[fmt]
    f = get_format(fmt)
    specials = [f.pos_inf, f.pos_inf | f.sign_mask, f.quiet_nan, f.pos_inf + 1]
    if fmt == "f32":
        specials.append(1)  # a denormal: flushed, so the f32 kernel leaves it
    a = np.array(specials * 40, dtype=dt)
    b = np.random.default_rng(7).integers(0, f.mask, a.size, endpoint=True,
                                          dtype=np.uint64).astype(dt)
    fast, ref = evaluate(op, a, b, format=fmt), evaluate(op, a, b, format=fmt,
                                                         paths="reference")
    np.testing.assert_array_equal(fast.bits, ref.bits)
    assert fast._rest is not None and fast._rest.size == a.size  # (known once bits are)
    np.testing.assert_array_equal(fast.exact, ref.exact)
    np.testing.assert_array_equal(fast.exact_lo, ref.exact_lo)
    np.testing.assert_array_equal(fast.allowed(b), ref.allowed(b))
    np.testing.assert_array_equal(fast.ulp_error(b), ref.ulp_error(b))
    assert sorted(fast.fired) == sorted(ref.fired)
    for k in fast.fired:
        np.testing.assert_array_equal(fast.fired[k], ref.fired[k])


@pytest.mark.parametrize("special", [0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 1,
                                     0x80000000, 0x00000000, 0x807FFFFF])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "rcp", "min", "max", "sqrt",
                                "mad"])
def test_one_special_operand_in_a_chunk_of_ordinary_ones_F32_FTZ_F32_NANOUT(op, special):
    """The f32 kernels prove a whole chunk ordinary by reductions (a normal result and no
    zero or denormal operand rule out an INF or NaN operand): one INF, NaN, zero or
    denormal among 2^16 ordinary operands, in either position, is still left to the
    reference path, with the reference's bits, exact value, ULP errors and fired rules."""
    rng = np.random.default_rng(special ^ 0x5EED)
    n = 1 << 16
    k = OPS[op].arity
    ops = [np.ldexp(rng.uniform(1.0, 2.0, n), rng.integers(-20, 21, n))
           .astype(np.float32).view(np.uint32) for _ in range(k)]
    for j, o in enumerate(ops):
        o[123 + j * 1000] = special
    fast = evaluate(op, *ops)
    ref = evaluate(op, *ops, paths="reference")
    np.testing.assert_array_equal(fast.bits, ref.bits)
    assert fast._rest is not None and set(fast._rest.tolist()) >= {123 + j * 1000
                                                                   for j in range(k)}
    np.testing.assert_array_equal(fast.ulp_error(ref.bits), ref.ulp_error(ref.bits))
    np.testing.assert_array_equal(fast.exact, ref.exact)
    assert sorted(fast.fired) == sorted(ref.fired)
    for name in fast.fired:
        np.testing.assert_array_equal(fast.fired[name], ref.fired[name], name)


_WIDE = [("f16", "add"), ("f16", "sub"), ("f16", "mul"), ("f16", "div"), ("f16", "sqrt"),
         ("f32", "rsq"), ("f32", "log"), ("f32", "exp")]


def _wide_operands(fname: str, k: int, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Random patterns (INF, NaN, denormal operands spread over every chunk) and signed
    ordinary values (rsq / log of the negative half: the reference path's, more than one
    evaluation chunk of them)."""
    if fname == "f16":
        return [rng.integers(0, 1 << 16, n, dtype=np.uint32).astype(np.uint16)
                for _ in range(k)]
    vals = np.ldexp(rng.uniform(1, 2, n) * rng.choice([-1.0, 1.0], n), rng.integers(-30, 31, n))
    x = vals.astype(np.float32).view(np.uint32)
    x[::97] = rng.integers(0, 1 << 32, x[::97].size, dtype=np.uint64).astype(np.uint32)
    return [x]


@pytest.mark.parametrize("fname,op", _WIDE)
def test_float64_kernels_in_chunks_equal_the_reference_path_F16_PREC_F32_SQRT_RCP(fname, op):
    """The float64 kernels run chunk by chunk (and the elements they leave go to the
    reference path in chunks): over several chunks, with specials in each, the bits, exact
    value and residual, allowed sets, ULP errors and fired rules are the reference's."""
    rng = np.random.default_rng(zlib.crc32(f"{fname} {op}".encode()))
    k = OPS[op].arity
    n = 3 * (1 << 17) + 7
    ops = _wide_operands(fname, k, n, rng)
    fast = evaluate(op, *ops, format=fname)
    ref = evaluate(op, *ops, format=fname, paths="reference")
    np.testing.assert_array_equal(fast.bits, ref.bits)
    np.testing.assert_array_equal(fast.exact, ref.exact)
    np.testing.assert_array_equal(fast.exact_lo, ref.exact_lo)
    fmt = get_format(fname)
    near = (ref.bits.astype(np.int64) + 1).clip(0, fmt.mask).astype(fmt.dtype)
    for obs in (ref.bits, near):
        np.testing.assert_array_equal(fast.allowed(obs), ref.allowed(obs))
        np.testing.assert_array_equal(fast.ulp_error(obs), ref.ulp_error(obs))
    assert sorted(fast.fired) == sorted(ref.fired)
    for name in fast.fired:
        np.testing.assert_array_equal(fast.fired[name], ref.fired[name], name)


@pytest.mark.parametrize("fname,op", _WIDE)
def test_float64_kernels_allocate_chunk_sized_temporaries(fname, op):
    """``.bits`` of 2^20 elements allocates its outputs (the bits, and the exact value the
    add/sub/mul and rsq/log/exp kernels keep) plus at most 20 bytes per element: the
    float64 temporaries are per chunk (whole-array ones made 45-54 bytes per element)."""
    import tracemalloc

    rng = np.random.default_rng(11)
    k = OPS[op].arity
    n = 1 << 20
    ops = _wide_operands(fname, k, n, rng)
    keeps_exact = op in ("add", "sub", "mul", "rsq", "log", "exp")
    outputs = get_format(fname).bits // 8 + (8 if fname == "f16" else 16) * keeps_exact
    tracemalloc.start()
    try:
        evaluate(op, *ops, format=fname).bits
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak / n <= outputs + 20, f"{peak / n:.1f} bytes per element"


@pytest.mark.parametrize("odd", [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000,
                                 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
                                 0x7FC00000, 0xFFFFFFFF])
def test_whole_chunk_normal_test_agrees_with_the_per_element_one_F32_FTZ(odd: int) -> None:
    """fastbits' whole-chunk tests (reductions of the uint32 and int32 views) say "all
    normal" exactly when the per-element test finds no zero, denormal, INF or NaN, and "no
    zero or denormal" exactly when it finds none of those: ordinary patterns with one
    pattern at each edge of the normal range (2^-126, the largest finite) or just past it,
    in both signs."""
    from fpinspector.model.engine.fastbits import _all_normal32, _no_small32, _normal32

    rng = np.random.default_rng(odd ^ 0xC0FFEE)
    b = rng.integers(0x00800000, 0x7F800000, 1 << 12, dtype=np.uint32)
    b |= rng.integers(0, 2, b.size, dtype=np.uint32) << np.uint32(31)
    b[1234] = odd
    t = np.empty(b.size, np.uint32)
    per_element = bool(_normal32(b, t.copy(), np.empty(b.size, bool)).all())
    exponent = (odd >> 23) & 0xFF
    assert per_element == (0 < exponent < 255)
    assert _all_normal32(b) == per_element
    assert _no_small32(b) == (exponent != 0)


def test_result_flush_changes_exactly_the_denormals_F32_FTZ() -> None:
    """fastbits' result flush (a branch-free blend) turns every denormal into the zero of its sign and leaves every other pattern alone: the
    edges of the denormal range in both signs (zero, the smallest and largest denormal,
    2^-126, INF, NaN) among random patterns, against the exponent-field definition."""
    from fpinspector.model.engine.fastbits import _flush_denormal32

    rng = np.random.default_rng(20261127)
    edges = np.array([0, 1, 2, 0x003FFFFF, 0x007FFFFE, 0x007FFFFF, 0x00800000, 0x00800001,
                      0x7F7FFFFF, 0x7F800000, 0x7FC00000, 0x7FFFFFFF], dtype=np.uint32)
    b = rng.integers(0, 1 << 32, 1 << 12, dtype=np.uint64).astype(np.uint32)
    b[:edges.size], b[edges.size:2 * edges.size] = edges, edges | np.uint32(0x80000000)
    denormal = ((b >> np.uint32(23)) & np.uint32(0xFF)) == 0
    want = np.where(denormal, b & np.uint32(0x80000000), b)
    got = b.copy()
    _flush_denormal32(got, np.empty(b.size, np.uint32))
    np.testing.assert_array_equal(got, want)
    normal = rng.integers(0x00800000, 0x7F800000, 64, dtype=np.uint32)
    got = normal.copy()  # no denormal: nothing changes
    _flush_denormal32(got, np.empty(64, np.uint32))
    np.testing.assert_array_equal(got, normal)


#: f32 patterns that are not normal (zeros, denormals, INF, NaN, both signs) and normal ones
_NOT_NORMAL32 = [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000,
                 0x7FC00000, 0xFFA00001]
_NORMAL32 = [0x3FC00000, 0xBF800000, 0x00800000, 0x7F7FFFFF, 0x40490FDB]


def _normal_only_cases() -> list[tuple[str, str]]:
    from fpinspector.model.engine.fastbits import NORMAL_OPERANDS_ONLY

    return [(op, rules) for op, spec in OPS.items()
            if spec.fast.get("f32") in NORMAL_OPERANDS_ONLY for rules in ("d3d11", "ieee754")]


@pytest.mark.parametrize("op,rules", _normal_only_cases())
def test_one_element_left_early_is_one_the_kernel_leaves_F32_FTZ(op: str, rules: str) -> None:
    """fastbits.NORMAL_OPERANDS_ONLY's kernels leave one element with an operand that is
    not normal before any arithmetic: the kernel itself (``__wrapped__``) leaves each such
    element too (a zero, denormal, INF or NaN in each operand position, the others
    normal), so the reference path computes what it computed after the kernel. An element
    of normal operands gets the kernel's own answer."""
    spec = OPS[op]
    kernel = spec.fast["f32"]
    body = kernel.__wrapped__

    def run(k, pats):
        ops = [np.array([p], dtype=np.uint32) for p in pats]
        ctx = evaluate(op, *ops, format="f32", rules=rules)._ctx
        return k(ctx, ops)

    for pos in range(spec.arity):
        for odd in _NOT_NORMAL32:
            pats = [0x3FC00000] * spec.arity
            pats[pos] = odd
            assert run(kernel, pats)[1].tolist() == [0]
            assert run(body, pats)[1].tolist() == [0], (op, rules, [hex(p) for p in pats])
    for i in range(len(_NORMAL32)):
        pats = [_NORMAL32[(i + 2 * k) % len(_NORMAL32)] for k in range(spec.arity)]
        got, want = run(kernel, pats), run(body, pats)
        assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()


@pytest.mark.parametrize("name", list(FORMATS))
def test_is_normal_one_equals_is_normal(name: str) -> None:
    """grid.is_normal_one (one pattern as a Python int) says what grid.is_normal says: every
    pattern of a 16-bit or narrower format, the edges of each exponent field elsewhere."""
    fmt = get_format(name)
    if fmt.bits <= 16:
        pats = np.arange(1 << fmt.bits, dtype=np.uint64).astype(fmt.dtype)
    else:
        f = fmt.frac_bits
        fields = [(e << f) | m for e in (0, 1, 2, fmt.exp_max - 1, fmt.exp_max)
                  for m in (0, 1, (1 << f) - 1)]
        pats = np.array(fields + [p | fmt.sign_mask for p in fields if fmt.signed],
                        dtype=fmt.dtype)
    want = grid.is_normal(pats, fmt).tolist()
    assert [grid.is_normal_one(int(p), fmt) for p in pats] == want
    # and grid.is_den_one (the one-element input flush's test) says what grid.is_den says
    assert [grid.is_den_one(int(p), fmt) for p in pats] == grid.is_den(pats, fmt).tolist()
