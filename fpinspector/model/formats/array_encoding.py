"""float64 arrays -> patterns of a narrower float format (f32, f16, f11, f10), every rounding
and overflow policy, in a few cache-sized passes: the fast path of ``encode_float64``.

Why not the integer encoder (:func:`.encoding.encode_float64_integer`): it makes about 25
whole-array passes over int64 temporaries; numpy's own double -> half cast is quick on
normal values but costs ~70 ns for every element that overflows or underflows.

How: the FPU rounds. For a value y of binade 2^e the target's quantum is
q = 2^(max(e, minexp) - F); a per-binade constant C (4096 rows indexed by y's sign and
exponent) is chosen with C/q = 2^52 + 2^51 + P, where P is the target pattern of the
binade's first quantum (exponent field and sign, as patterns count). Then y + C lies in
C's binade, whose float64 ulp is q, so the FPU rounds y to the target grid (to nearest,
ties to even) and the sum's low 51 bits are P plus the number of quanta: the pattern, a
carry into the next binade or into INF included. Directed roundings compare the rounded
value (y + C) - C, exact, with y and move one pattern. Overflow is a clip beforehand (to
the largest finite value where the policy saturates, to 2^maxexp where it gives INF);
INF and NaN inputs are patched after. Tested bit for bit against the integer encoder on
every f16/f11/f10 pattern's neighbourhood and against numpy and Fraction oracles
(tests/model/test_array_encoding.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

__all__ = ["encode_array", "CHUNK"]

#: Elements per pass: the few float64 temporaries of a chunk stay in the CPU's cache.
CHUNK = 1 << 16
_LOW51 = np.uint64((1 << 51) - 1)
_EXP_SHIFT = np.uint64(52)


def _maxexp(fmt: Any) -> int:
    """Smallest e with 2^e above every finite value of ``fmt``."""
    return (fmt.pos_inf >> fmt.frac_bits) - fmt.bias


def _normal_value(fmt: Any, magnitude: int) -> float:
    """The value of a magnitude pattern read as a normal number: for ``pos_inf`` the
    overflow point (2^maxexp where the all-ones exponent is INF; 480 for E4M3, whose
    all-ones pattern is its NaN), for ``pos_inf - 1`` the largest finite value."""
    e, f = magnitude >> fmt.frac_bits, magnitude & ((1 << fmt.frac_bits) - 1)
    return (1.0 + f / 2.0 ** fmt.frac_bits) * 2.0 ** (e - fmt.bias)


@lru_cache(maxsize=32)
def _constants(frac_bits: int, bias: int, minexp: int, maxexp: int, signed: bool,
               sign_mask: int) -> np.ndarray:
    """C per float64 sign|exponent (4096 rows): see the module docstring."""
    c = np.zeros(4096)
    for idx in range(4096):
        neg, e_field = bool(idx >> 11) and signed, idx & 0x7FF
        e = e_field - 1023 if e_field else minexp  # float64 zeros/denormals: smallest quantum
        kk = max(min(e, maxexp), minexp)
        first = ((kk + bias - 1) << frac_bits) | (sign_mask if neg else 0)
        value = float((1 << 52) + (1 << 51) + first) * 2.0 ** (kk - frac_bits)
        c[idx] = -value if neg else value
    return c


def _to_inf(rnd: str, ovf: str, negative: bool) -> bool:
    """Does an overflowing finite value of this sign become INF (else the largest finite)?"""
    if ovf == "inf":
        return True
    if ovf == "saturate":
        return False
    return {"rne": True, "rtz": False, "rtp": not negative, "rtn": negative}[rnd]


def encode_array(fmt: Any, x: np.ndarray, rnd: str = "rne", ovf: str = "ieee") -> np.ndarray:
    """Flat float64 values -> ``fmt`` patterns (``fmt.dtype``), rounded once by ``rnd``.

    Same results as :func:`.encoding.encode_float64_integer` (IEEE 754 roundings, overflow
    by ``ovf``: "ieee", "inf" or "saturate"; NaN -> the canonical quiet NaN, sign kept where
    the format has one; negative values -> 0 in unsigned formats). ``fmt`` narrower than
    float64 (at most 50 fraction bits).
    """
    F = fmt.frac_bits
    maxexp = _maxexp(fmt)
    table = _constants(F, fmt.bias, fmt.minexp, maxexp, bool(fmt.signed), fmt.sign_mask)
    big = _normal_value(fmt, fmt.pos_inf)
    max_finite = _normal_value(fmt, fmt.pos_inf - 1)
    hi = big if _to_inf(rnd, ovf, False) else max_finite
    lo = -(big if _to_inf(rnd, ovf, True) else max_finite) if fmt.signed else 0.0
    x = np.ascontiguousarray(x, dtype=np.float64).reshape(-1)
    out = np.empty(x.shape[0], fmt.dtype)
    size = min(CHUNK, x.shape[0])
    y = np.empty(size)
    idx = np.empty(size, np.intp)
    s = np.empty(size)
    finite = np.empty(size, bool)
    with np.errstate(invalid="ignore"):
        for start in range(0, x.shape[0], CHUNK):
            xc = x[start:start + CHUNK]
            m = xc.shape[0]
            yc, ic, sc = y[:m], idx[:m], s[:m]
            np.clip(xc, lo, hi, out=yc)
            np.right_shift(yc.view(np.uint64), _EXP_SHIFT, out=ic.view(np.uint64))
            table.take(ic, out=sc)
            if rnd == "rne":
                sc += yc
                np.bitwise_and(sc.view(np.uint64), _LOW51, out=out[start:start + m],
                               casting="unsafe")
            else:
                out[start:start + m] = _directed(table, ic, yc, sc, rnd)
            fc = finite[:m]
            np.isfinite(xc, out=fc)
            if not fc.all():
                _specials(fmt, xc, fc, out[start:start + m])
    return out


def _directed(table: np.ndarray, idx: np.ndarray, y: np.ndarray, s: np.ndarray,
              rnd: str) -> np.ndarray:
    """Patterns rounded toward zero / +INF / -INF: nearest-even, then one step where the
    rounded value lies on the wrong side of y (a step of the magnitude: the pattern +- 1)."""
    s += y
    pat = np.bitwise_and(s.view(np.uint64), _LOW51)
    s -= table.take(idx)  # the rounded value, exactly
    if rnd == "rtz":
        pat -= np.abs(s) > np.abs(y)
        return pat
    neg = np.signbit(y)
    wrong = s < y if rnd == "rtp" else s > y
    away = wrong & (neg if rnd == "rtn" else ~neg)  # the magnitude grows
    pat += away
    pat -= wrong & ~away
    return pat


def _specials(fmt: Any, x: np.ndarray, finite: np.ndarray, out: np.ndarray) -> None:
    """INF and NaN inputs: INF keeps its sign (0 for -INF in unsigned formats), NaN becomes
    the canonical quiet NaN with its sign where the format has one."""
    where = np.flatnonzero(~finite)
    v = x[where]
    neg = np.signbit(v)
    dt = fmt.dtype.type
    sign = np.where(neg, dt(fmt.sign_mask), dt(0)) if fmt.signed else dt(0)
    pat = np.where(np.isnan(v), dt(fmt.quiet_nan) | sign, dt(fmt.pos_inf) | sign)
    if not fmt.signed:
        pat = np.where(neg & ~np.isnan(v), dt(0), pat)
    out[where] = pat
