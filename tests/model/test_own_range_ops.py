"""Ops on bf16, E5M2 and E4M3 under ieee754 (FMT-BF16, FMT-E5M2, FMT-E4M3 with IEEE-RNE):
IEEE 754 arithmetic in the format's own range, correctly rounded, E4M3 overflowing to its
NaN. Oracles: ml_dtypes (it computes in float32 and rounds once more; for + - * / and sqrt
of p-bit inputs that second rounding is innocuous when float32's 24 bits >= 2p + 2, which
holds for 8-bit and 3- or 4-bit significands), and for the fused mad a nearest-even
rounding written here over the format's values, enumerated from its widths."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model import evaluate, get_format

ml_dtypes = pytest.importorskip("ml_dtypes")

ML = {"bf16": ml_dtypes.bfloat16, "e5m2": ml_dtypes.float8_e5m2,
      "e4m3": ml_dtypes.float8_e4m3fn}
BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}
COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
           "gt": np.greater, "ge": np.greater_equal}


def _raw(name: str) -> type:
    return np.uint8 if get_format(name).bits == 8 else np.uint16


def _pairs(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of FP8 patterns; for bf16 every pattern against 64 others and 2^20
    random pairs."""
    fmt = get_format(name)
    if fmt.bits == 8:
        a, b = np.meshgrid(np.arange(256), np.arange(256), indexing="ij")
        return a.reshape(-1).astype(fmt.dtype), b.reshape(-1).astype(fmt.dtype)
    rng = np.random.default_rng(37)
    every = np.arange(1 << 16)
    a = np.concatenate([np.repeat(every, 64), rng.integers(0, 1 << 16, 1 << 20)])
    b = np.concatenate([rng.integers(0, 1 << 16, 64 << 16), rng.integers(0, 1 << 16, 1 << 20)])
    return a.astype(fmt.dtype), b.astype(fmt.dtype)


def _ml(name: str, bits: np.ndarray) -> np.ndarray:
    return bits.astype(_raw(name)).view(ML[name]).astype(np.float32)


def _assert_same(name: str, got: np.ndarray, want_f32: np.ndarray, what: str) -> None:
    """Bits equal, or both NaN (IEEE: a NaN result's payload is not specified)."""
    fmt = get_format(name)
    want = want_f32.astype(ML[name]).view(_raw(name)).astype(fmt.dtype)
    got = np.asarray(got).astype(fmt.dtype)
    both_nan = fmt.is_nan(got) & fmt.is_nan(want)
    bad = np.flatnonzero((got != want) & ~both_nan)
    assert bad.size == 0, f"{what}: {bad.size} differ, e.g. {[(int(i), hex(int(got[i])), hex(int(want[i]))) for i in bad[:4]]}"


def _binary(name: str, op: str, table: dict) -> tuple:
    """The engine's answer for ``op`` over :func:`_pairs` and ml_dtypes' (float32)."""
    a, b = _pairs(name)
    ev = evaluate(op, a, b, format=name, rules="ieee754")
    with np.errstate(all="ignore"):
        return ev, table[op](_ml(name, a), _ml(name, b))


@pytest.mark.parametrize("name", sorted(ML))
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_ops_are_ieee_in_the_formats_own_range_IEEE_RNE(name: str, op: str) -> None:
    ev, want = _binary(name, op, BINARY)
    _assert_same(name, ev.bits, want, f"{op} {name}")
    assert ev.allowed(ev.bits).all()


@pytest.mark.parametrize("name", sorted(ML))
@pytest.mark.parametrize("op", ["sqrt", "rcp"])
def test_sqrt_and_rcp_of_every_pattern_IEEE_RNE(name: str, op: str) -> None:
    fmt = get_format(name)
    a = np.arange(1 << fmt.bits).astype(fmt.dtype)
    ev = evaluate(op, a, format=name, rules="ieee754")
    with np.errstate(all="ignore"):
        x = _ml(name, a)
        want = np.sqrt(x) if op == "sqrt" else np.float32(1) / x
    _assert_same(name, ev.bits, want, f"{op} {name}")


@pytest.mark.parametrize("name", ["e5m2", "e4m3"])
@pytest.mark.parametrize("op", sorted(COMPARE))
def test_comparisons_of_every_pair(name: str, op: str) -> None:
    """IEEE comparisons: NaN unordered, -0 == +0 (E4M3's NaN is S.1111.111 only)."""
    ev, want = _binary(name, op, COMPARE)
    assert np.array_equal(np.asarray(ev.bits).astype(bool), want)


def _rne_table(name: str) -> tuple[np.ndarray, float]:
    """The format's non-negative finite values in order, from its widths (E4M3's top
    exponent holds normals but for S.1111.111), and half a step past the largest one: a
    magnitude beyond it overflows under nearest-even, and so does the tie itself where the
    largest value's last bit is odd (E5M2's 57344; E4M3's 448 is even)."""
    fmt = get_format(name)
    e, f = fmt.exp_bits, fmt.frac_bits
    bias = (1 << (e - 1)) - 1
    top_exp = (1 << e) - 1
    vals = []
    for ef in range(top_exp + 1):
        for fr in range(1 << f):
            if ef == top_exp and (fmt.has_inf or fr == (1 << f) - 1):
                continue
            vals.append(fr * 2.0 ** (1 - bias - f) if ef == 0
                        else (1 + fr / (1 << f)) * 2.0 ** (ef - bias))
    v = np.array(vals)
    return v, v[-1] + (v[-1] - v[-2]) / 2


@pytest.mark.parametrize("name", ["e5m2", "e4m3"])
def test_mad_is_fused_one_rounding_IEEE_RNE(name: str) -> None:
    """mad(a, b, c) under ieee754 is fma: a * b + c rounded once. For FP8 the exact value
    is a float64 (at most 48 bits between its top and bottom bit), so the oracle rounds
    that float64 to the nearest value of the format, ties to the even pattern."""
    fmt = get_format(name)
    rng = np.random.default_rng(41)
    a, b, c = (rng.integers(0, 256, 1 << 19).astype(fmt.dtype) for _ in range(3))
    ev = evaluate("mad", a, b, c, format=name, rules="ieee754")
    x = [_ml(name, o).astype(np.float64) for o in (a, b, c)]
    with np.errstate(all="ignore"):
        exact = x[0] * x[1] + x[2]
    vals, overflow = _rne_table(name)
    mag = np.abs(exact)
    fin = np.isfinite(mag)
    i = np.clip(np.searchsorted(vals, np.where(fin, mag, 0)), 1, vals.size - 1)
    lo, hi = vals[i - 1], vals[i]
    pick_hi = (mag - lo > hi - mag) | ((mag - lo == hi - mag) & (i % 2 == 0))
    m = np.where(mag <= lo, i - 1, np.where(pick_hi, i, i - 1))
    m = np.where(mag >= vals[-1], vals.size - 1, m)
    sign = np.signbit(exact).astype(np.int64) << (fmt.bits - 1)
    want = m.astype(np.int64) | sign
    got = np.asarray(ev.bits).astype(np.int64)
    got_nan = fmt.is_nan(got.astype(fmt.dtype))
    over = fin & ((mag > overflow) | ((mag == overflow) & ((vals.size - 1) % 2 == 1)))
    inside = fin & ~over
    mag_bits = ~fmt.sign_mask & fmt.mask
    ok = inside & ((got == want) | (((want & mag_bits) == 0) & ((got & mag_bits) == 0)))
    ok |= np.isnan(exact) & got_nan  # a NaN operand, INF - INF, 0 * INF
    if fmt.has_inf:  # E5M2: overflow and an infinite exact value give INF of its sign
        ok |= (over | np.isinf(exact)) & (got == (fmt.pos_inf | sign))
    else:  # E4M3 has no INF: both give its NaN
        ok |= (over | np.isinf(exact)) & got_nan
    bad = np.flatnonzero(~ok)
    assert bad.size == 0, [(hex(int(a[j])), hex(int(b[j])), hex(int(c[j])), hex(int(got[j])),
                            hex(int(want[j]))) for j in bad[:4]]
