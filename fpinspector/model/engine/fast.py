"""Fast path for f32 add/sub/mul/div/sqrt/min/max: numpy float32 where nothing special happens.

Why it is exact: IEEE float32 arithmetic in numpy is correctly rounded (RNE). When every
operand and the result are normal finite numbers, no F32-FTZ flush, NaN, INF or zero rule
can apply, so the float32 result *is* the model's result. Every other element (zero,
denormal, INF, NaN operand or result) goes through the general engine on that subset.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
        from .evaluate import parts_allowed

        ok = obs == self.bits
        if self.idx.size:
            ok[self.idx] = parts_allowed(self.sub, obs[self.idx])
        return ok


def _normal(bits: np.ndarray) -> np.ndarray:
    """Biased exponent in 1..254, with three uint32 passes: ((b << 1) - 2^24) < 0xFE000000."""
    t = np.left_shift(bits, 1)
    np.subtract(t, _ONE, out=t)
    return np.less(t, _TOP)


def fast_f32(spec: Any, ctx: Any, tol: Any, flat: list[np.ndarray]) -> FastResult | None:
    """FastResult for an eligible op, else None (then everything is lazy and general)."""
    fn = _FAST_OPS.get(spec.name)
    if fn is None or ctx.fmt.name != "f32" or flat[0].size < 64:
        return None
    ok = _normal(flat[0])
    for b in flat[1:]:
        ok &= _normal(b)
    with np.errstate(all="ignore"):
        r = fn(*(b.view(np.float32) for b in flat))
    rb = r.view(np.uint32)
    ok &= _normal(rb)
    idx = np.flatnonzero(~ok)
    sub = None
    if idx.size:
        sub = spec.handler(ctx, tol, [b[idx] for b in flat])
        rb[idx] = sub.bits
    single = tol.kind in ("cr", "select")
    return FastResult(rb, idx, sub, single)
