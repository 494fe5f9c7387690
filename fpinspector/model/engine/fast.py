"""Fast path for f32 add/sub/mul/div/sqrt/min/max: numpy float32 where nothing special happens.

Why it is exact: IEEE float32 arithmetic in numpy is correctly rounded (RNE). When every
operand and the result are normal finite numbers, no F32-FTZ flush, NaN, INF or zero rule
can apply, so the float32 result *is* the model's result. Every other element (zero,
denormal, INF, NaN operand or result) goes through the general engine on that subset.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .result import parts_allowed, run_chunked

__all__ = ["FastResult", "fast_f32"]

_FAST_OPS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
             "sqrt": np.sqrt, "min": np.minimum, "max": np.maximum}
_ONE = np.uint32(0x01000000)
_TOP = np.uint32(0xFE000000)


class FastResult:
    """Model bits for every element plus the general-engine record of the special subset."""

    def __init__(self, bits: np.ndarray, idx: np.ndarray, sub: Any, single: bool) -> None:
        self.bits = bits
        self.idx = idx
        self.sub = sub
        self.single = single  # the window of a normal element is {bits}

    def allowed(self, obs: np.ndarray) -> np.ndarray:
        ok = obs == self.bits
        if self.idx.size:
            ok[self.idx] = parts_allowed(self.sub, obs[self.idx])
        return ok


def _normal(bits: np.ndarray, t: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Biased exponent in 1..254, in three uint32 passes: ((b << 1) - 2^24) < 0xFE000000."""
    np.left_shift(bits, 1, out=t)
    np.subtract(t, _ONE, out=t)
    return np.less(t, _TOP, out=out)


_CHUNK = 1 << 15  # temporaries of this many elements stay in the L2 cache


def fast_f32(spec: Any, ctx: Any, tol: Any, flat: list[np.ndarray],
             handler: Any = None) -> FastResult | None:
    """FastResult for an eligible op, else None (then everything is lazy and general).

    Works in cache-sized chunks so that the normality checks cost almost no memory
    traffic beyond the numpy op itself.
    """
    fn = _FAST_OPS.get(spec.name)
    if fn is None or ctx.fmt.name != "f32" or flat[0].size < 64:
        return None
    n = flat[0].size
    views = [b.view(np.float32) for b in flat]
    rb = np.empty(n, dtype=np.uint32)
    rf = rb.view(np.float32)
    m = min(n, _CHUNK)
    t = np.empty(m, dtype=np.uint32)
    ok = np.empty(m, dtype=bool)
    ok2 = np.empty(m, dtype=bool)
    bad: list[np.ndarray] = []
    with np.errstate(all="ignore"):
        for s in range(0, n, _CHUNK):
            e = min(n, s + _CHUNK)
            k = e - s
            o, o2, tt = ok[:k], ok2[:k], t[:k]
            fn(*(v[s:e] for v in views), out=rf[s:e])
            _normal(rb[s:e], tt, o)
            for b in flat:
                o &= _normal(b[s:e], tt, o2)
            if not o.all():
                bad.append(np.flatnonzero(~o) + s)
    idx = np.concatenate(bad) if bad else np.zeros(0, dtype=np.intp)
    sub = None
    if idx.size:
        sub = run_chunked(handler or spec.handler, ctx, tol, [b[idx] for b in flat])
        rb[idx] = sub.bits
    single = tol.kind in ("cr", "select")
    return FastResult(rb, idx, sub, single)
