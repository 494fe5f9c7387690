"""2^x, log2(x) and x^p in float64 that give the same bits on every CPU.

Why not ``np.exp2`` / ``np.log2`` / ``np.power``: numpy hands them to the platform's math
library or, on CPUs with AVX-512, to its own SIMD kernels, and those differ in the last bit
(seen: an AVX2 machine and an AVX-512 machine disagree on the float64 value of 2^x for some
float32 x). The engine's reference values, the ULP errors computed from them and the stored
digests would then depend on the user's CPU. These functions use only IEEE +, -, *, / (which
numpy computes exactly as IEEE 754 says on every platform), tables built once from the
standard library's ``decimal`` (correctly rounded ``exp`` and ``ln``), and double-double
arithmetic, so they are deterministic; they are also more accurate than the libraries they
replace (relative error below about 2^-66, against about 2^-53), so the float64 result is the
correctly rounded one except for values within 2^-66 of a rounding midpoint.

Method (Tang's table-driven scheme):

- 2^x: x = n + j/64 + r with |r| <= 1/128; 2^(j/64) from a double-double table; e^(r ln 2)
  by a degree-8 Taylor polynomial whose two leading terms are double-double; ldexp by n.
- log2(x): x = 2^e m with m in [1/sqrt 2, sqrt 2); m = c (1 + t) with c = 1 + j/128 and
  |t| <= 2^-7.5, t in double-double; log2 c from a table, ln(1 + t) by its series (leading
  terms double-double) times 1/ln 2 in double-double.
- x^p = 2^(p log2 x) with the product in double-double (x > 0).
"""

from __future__ import annotations

import decimal
import functools
from collections.abc import Callable

import numpy as np

from .eft import two_prod, two_sum  # (finite=True below: every operand is masked finite)

__all__ = ["exp2", "exp2_dd", "log2", "log2_dd", "power"]

_PREC = 60  # decimal digits for the tables: far below float64's double-double resolution


def _dd(value: decimal.Decimal) -> tuple[float, float]:
    hi = float(value)
    return hi, float(value - decimal.Decimal(hi))


@functools.cache
def _constants() -> dict[str, np.ndarray]:
    """ln 2, 1/ln 2 and the two tables as double-double, from ``decimal`` (built on first use:
    about a millisecond, kept out of the model's import)."""
    ctx = decimal.Context(prec=_PREC)
    ln2 = ctx.ln(decimal.Decimal(2))
    exp_t = [_dd(ctx.exp(ctx.multiply(ln2, ctx.divide(decimal.Decimal(j), 64))))
             for j in range(-32, 33)]
    log_t = [_dd(ctx.divide(ctx.ln(ctx.add(1, ctx.divide(decimal.Decimal(j), 128))), ln2))
             for j in range(-38, 55)]
    return {
        "ln2": np.array(_dd(ln2)),
        "inv_ln2": np.array(_dd(ctx.divide(1, ln2))),
        "exp_hi": np.array([h for h, _ in exp_t]), "exp_lo": np.array([lo for _, lo in exp_t]),
        "log_hi": np.array([h for h, _ in log_t]), "log_lo": np.array([lo for _, lo in log_t]),
    }


#: Elements evaluated at once: the two dozen float64 temporaries of a block stay in cache
#: and a chunk's memory does not grow with them.
BLOCK = 1 << 14


def _blocked(kernel: Callable[..., tuple[np.ndarray, np.ndarray]], *args: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """``kernel(*args)`` -> (hi, lo), block by block for a large array."""
    args = tuple(np.asarray(a, dtype=np.float64) for a in args)
    x = args[0]
    if x.size <= BLOCK:
        return kernel(*args)
    flat = [np.broadcast_to(a, x.shape).reshape(-1) for a in args]
    hi, lo = np.empty(x.size), np.empty(x.size)
    for k in range(0, x.size, BLOCK):
        hi[k:k + BLOCK], lo[k:k + BLOCK] = kernel(*(a[k:k + BLOCK] for a in flat))
    return hi.reshape(x.shape), lo.reshape(x.shape)


def exp2_dd(xh: np.ndarray, xl: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """2^(xh + xl) as a float64 pair (hi, lo); ``xl`` is a small correction (|xl| <= ulp(xh)).

    Special values as IEEE exp2: NaN -> NaN, +INF or x >= 1024 -> +INF, -INF or x < -1075
    -> +0. Results in float64's denormal range are rounded once more by the final ldexp.
    """
    xh = np.asarray(xh, dtype=np.float64)
    return _blocked(_exp2_dd, xh, np.zeros_like(xh) if xl is None else xl)


def _exp2_dd(xh: np.ndarray, xl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = _constants()
    with np.errstate(all="ignore"):
        finite = np.isfinite(xh) & (xh < 1024.0) & (xh >= -1076.0)
        x = np.where(finite, xh, 0.0)
        xl = np.where(finite, xl, 0.0)
        n = np.rint(x)
        f = x - n  # exact: |f| <= 1/2
        j = np.rint(f * 64.0)
        r = f - j / 64.0  # exact: |r| <= 1/128
        ln2h, ln2l = c["ln2"]
        yh, yl = two_prod(r, np.full_like(r, ln2h), finite=True)
        yl = yl + (r * ln2l + xl * ln2h)
        yh, yl = two_sum(yh, yl, finite=True)
        qh, ql = two_prod(yh, yh, finite=True)  # y^2
        ql = ql + 2.0 * yh * yl
        tail = yh * qh * (1 / 6 + yh * (1 / 24 + yh * (1 / 120 + yh * (
            1 / 720 + yh * (1 / 5040 + yh * (1 / 40320))))))
        eh, el = two_sum(yh, 0.5 * qh, finite=True)  # e^y - 1 = y + y^2/2 + tail
        el = el + (yl + 0.5 * ql + tail)
        eh, el = two_sum(eh, el, finite=True)
        k = j.astype(np.intp) + 32
        th, tl = c["exp_hi"][k], c["exp_lo"][k]
        ph, pl = two_prod(th, eh, finite=True)  # 2^f = T (1 + em1) = T + T em1
        pl = pl + (th * el + tl * eh)
        sh, sl = two_sum(th, ph, finite=True)
        hi, lo = two_sum(sh, sl + (tl + pl), finite=True)
        ni = n.astype(np.int64)
        hi_s = np.ldexp(hi, ni)
        lo_s = np.where(np.isfinite(hi_s), np.ldexp(lo, ni), 0.0)
    special = np.where(np.isnan(xh), np.nan, np.where(xh > 0, np.inf, 0.0))
    return np.where(finite, hi_s, special), np.where(finite, lo_s, 0.0)


def exp2(x: np.ndarray) -> np.ndarray:
    """2^x in float64, the same bits on every CPU (see the module docstring)."""
    return exp2_dd(x)[0]


def log2_dd(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log2(x) as a float64 pair (hi, lo). Special values as IEEE log2: x < 0 or NaN -> NaN,
    +-0 -> -INF, +INF -> +INF; a power of two gives its exponent exactly (lo = 0)."""
    return _blocked(_log2_dd, x)


def _log2_dd(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = _constants()
    with np.errstate(all="ignore"):
        ok = np.isfinite(x) & (x > 0)
        m, e = np.frexp(np.where(ok, x, 1.0))
        low = m < 0.7071067811865476
        m = np.where(low, 2.0 * m, m)
        e = np.where(low, e - 1, e).astype(np.float64)
        j = np.rint((m - 1.0) * 128.0)
        cj = 1.0 + j / 128.0
        d = m - cj  # exact: |d| <= 1/256
        th = d / cj  # t = d / c in double-double
        ph, pe = two_prod(th, cj, finite=True)
        tl = ((d - ph) - pe) / cj
        qh, ql = two_prod(th, th, finite=True)  # t^2
        ql = ql + 2.0 * th * tl
        tail = th * qh * (1 / 3 - th * (1 / 4 - th * (1 / 5 - th * (1 / 6 - th * (
            1 / 7 - th * (1 / 8 - th * (1 / 9 - th * (1 / 10 - th / 11))))))))
        lh, ll = two_sum(th, -0.5 * qh, finite=True)  # ln(1 + t) = t - t^2/2 + tail
        ll = ll + (tl - 0.5 * ql + tail)
        lh, ll = two_sum(lh, ll, finite=True)
        ih, il = c["inv_ln2"]
        gh, gl = two_prod(lh, np.full_like(lh, ih), finite=True)  # log2(1 + t)
        gl = gl + (lh * il + ll * ih)
        k = j.astype(np.intp) + 38
        s1, e1 = two_sum(e, c["log_hi"][k], finite=True)
        s2, e2 = two_sum(s1, gh, finite=True)
        hi, lo = two_sum(s2, (e1 + e2) + (c["log_lo"][k] + gl), finite=True)
    special = np.where(x == np.inf, np.inf, np.where(x == 0, -np.inf, np.nan))
    return np.where(ok, hi, special), np.where(ok, lo, 0.0)


def log2(x: np.ndarray) -> np.ndarray:
    """log2(x) in float64, the same bits on every CPU (see the module docstring)."""
    return log2_dd(x)[0]


def power(x: np.ndarray, p: float) -> np.ndarray:
    """x^p for x >= 0 and a float64 exponent p (0^p = 0 for p > 0), the same bits on every
    CPU: 2^(p log2 x) with the product kept in double-double."""
    lh, ll = log2_dd(x)
    with np.errstate(all="ignore"):
        fin = np.isfinite(lh)
        lh0 = np.where(fin, lh, 0.0)
        yh, yl = two_prod(lh0, np.full_like(lh0, p), finite=True)
        yl = yl + np.where(fin, ll, 0.0) * p
        yh, yl = two_sum(yh, yl, finite=True)
        out = exp2_dd(np.where(fin, yh, lh * p), np.where(fin, yl, 0.0))[0]
    return out
