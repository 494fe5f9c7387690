"""Lean kernels for "plain" elements, spliced with the general engine on the rest.

Why: the general handlers spend most of their time on NaN/INF/zero/flush bookkeeping that
cannot matter for an element whose operands and result are ordinary normal numbers. A
plain kernel computes the same Parts fields (same exact value, same model bits, same
window keys, same fired rules) for those elements with fewer passes; every other element
of the chunk goes through the op's general handler and is scattered back.

Equality with the general engine is proved in tests/model/test_engine_plain.py (special
values crossed, random patterns, every f16 pattern / f16 pairs, every rule set).

Plain, per family:

- f32 sqrt, rcp, rsq, log, exp (every rule set): the operand is a normal number (positive
  for sqrt, rsq, log), the float64 exact value lies in [2^-125, 2^127) in magnitude (so
  the rounded result and both window ends are normal: no F32-FTZ, overflow or zero rule),
  and for the d3d log window not x in [0.5, 2] (absolute tolerance straddles zero).
- f32 round_*, frc: see engine/plain_round.py; f32 add, sub, mul, div: plain_binary.py;
  f32 mad: plain_fused.py.
- f16 add, sub, mul (every rule set, correctly rounded): both operands finite and nonzero
  (and not +/-1 for mul: F32-IDENT). f16 does not flush, so overflowing, denormal and zero
  results only need F16-DENORM and F16-PREC fired; the sum or product is exact in float64
  (hi exact, lo = 0) and the window is the one rounded pattern.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..formats import get_format
from . import grid
from .exact import transcendental
from .result import Ctx, Parts, scatter
from .tolerances import Tolerance

__all__ = ["plain_handler"]

_UNARY = ("sqrt", "rcp", "rsq", "log", "exp")
_F16_BINARY = ("add", "sub", "mul")
_KINDS = ("cr", "ulp", "rel", "rel_or_ulp", "log")


def plain_handler(op: str, ctx: Ctx, tol: Tolerance, general: Callable) -> Callable | None:
    """A handler (ctx, tol, operands) -> Parts splicing a plain kernel with ``general``,
    or None when the op / format / tolerance has no plain kernel."""
    from .plain_binary import OPS as _BIN, f32_binary
    from .plain_round import f32_frc, f32_round

    if ctx.fmt.name == "f32" and op in _BIN and tol.kind in ("cr", "ulp", "div"):
        kernel = f32_binary
    elif ctx.fmt.name == "f32" and op == "mad" and tol.kind in ("cr", "fused"):
        from .plain_fused import f32_mad

        kernel = f32_mad
    elif ctx.fmt.name == "f32" and op.startswith("round_"):
        kernel = f32_round
    elif ctx.fmt.name == "f32" and op == "frc":
        kernel = f32_frc
    elif tol.kind not in _KINDS:
        return None
    elif ctx.fmt.name == "f32" and op in _UNARY:
        kernel = _f32_unary
    elif ctx.fmt.name == "f16" and op in _F16_BINARY and tol.kind == "cr":
        from .plain_f16 import f16_binary

        kernel = f16_binary
    else:
        return None

    return Spliced(kernel, general)


class Spliced:
    """Handler (ctx, tol, operands) -> Parts: ``kernel`` on the plain elements, ``general``
    on the rest. result.run_chunked reads ``kernel`` / ``general`` to run the general
    handler once over the leftovers of all chunks instead of once per chunk."""

    def __init__(self, kernel: Callable, general: Callable) -> None:
        self.kernel = kernel
        self.general = general

    def __call__(self, ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]) -> Parts:
        return _splice(self.kernel, self.general, ctx, tol, operands)


def _splice(kernel: Callable, general: Callable, ctx: Ctx, tol: Tolerance,
            operands: list[np.ndarray]) -> Parts:
    """Run ``kernel`` on the whole chunk, then overwrite its non-plain elements with the
    general handler's results on that subset (the kernel's values there are scratch)."""
    plain, parts = kernel(ctx, tol, operands)
    if parts is None:  # nothing plain in this chunk
        return general(ctx, tol, operands)
    if plain is None:  # everything plain
        return parts
    idx = np.flatnonzero(~plain)
    scatter(parts, general(ctx, tol, [b[idx] for b in operands]), idx)
    return parts


def _normal32(b: np.ndarray) -> np.ndarray:
    """Biased exponent in 1..254: ((b << 1) - 2^24) < 0xFE000000 in uint32."""
    t = b << np.uint32(1)
    t -= np.uint32(0x01000000)
    return t < np.uint32(0xFE000000)


def _window(hi: np.ndarray, d_lo: np.ndarray, d_hi: np.ndarray, lo: np.ndarray,
            ) -> tuple[np.ndarray, np.ndarray]:
    """Keys of the f32 patterns in [hi + lo - d_lo, hi + lo + d_hi] for normal finite ends.

    The same arithmetic as result.window_tol + grid.window_keys (TwoSum s + e, float32
    cast, one step toward the wanted side, one more when s is on the f32 grid and the
    residual points outward), without the INF/NaN/zero guards that plain elements never
    need. The TwoSum residual e can only matter where s is itself an f32 value (elsewhere
    |e| <= ulp64(s)/2 cannot cross the f32 neighbour), so it is computed on that subset.
    """
    lo = np.broadcast_to(lo, hi.shape)
    keys = []
    for d, up in ((d_lo, False), (d_hi, True)):
        d = np.broadcast_to(d, hi.shape)
        s = np.add(hi, d) if up else np.subtract(hi, d)
        r = s.astype(np.float32)
        back = r.astype(np.float64)
        k = grid.to_key(r.view(np.uint32), _F32)
        if up:  # floor: largest pattern <= s + e
            k -= back > s
        else:  # ceil: smallest pattern >= s + e
            k += back < s
        on = np.flatnonzero(back == s)
        if on.size:
            h, ss = hi[on], s[on]
            b = d[on] if up else -d[on]
            bb = ss - h
            e = (h - (ss - bb)) + (b - bb)
            e += lo[on]
            if up:
                k[on] -= e < 0
            else:
                k[on] += e > 0
        keys.append(k)
    return keys[0], keys[1]


def _f32_unary(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]):
    op = ctx.op
    b = np.asarray(operands[0], dtype=np.uint32)
    plain = _normal32(b)
    nanc = None  # negative normal operand of sqrt/rsq/log: a NaN result (F32-SQRTNEG, LOG0)
    if op in ("sqrt", "rsq", "log"):
        if not ctx.flush or ctx.strict_out:  # (no either-way window to reproduce)
            nanc = plain & (b >= np.uint32(0x80000000))
        plain &= b < np.uint32(0x80000000)
    ovf = None  # exp of x > 128: 2^x overflows to INF, the window is {INF} in every rule set
    if op == "exp":
        ovf = plain & (b >= np.uint32(0x43000000)) & (b < np.uint32(0x80000000))
    with np.errstate(invalid="ignore"):  # signaling NaNs quiet on the cast
        x = b.view(np.float32).astype(np.float64)
    if tol.kind == "log":
        plain &= (x < 0.5) | (x > 2.0)
    if nanc is not None and not nanc.any():
        nanc = None
    if nanc is None and not plain.any():  # (a chunk of negative operands is all nanc)
        return plain, None
    with np.errstate(all="ignore"):  # non-plain elements are scratch, overwritten later
        hi, lo = transcendental(op, x, ctx.fmt)
        a = np.abs(hi)
        plain &= a >= 2.0**-125
        plain &= a < 2.0**127
    ovf_idx = None
    if ovf is not None:  # the whole window (relative 2^-21) above 2^128: {INF}
        ovf &= hi >= 2.0**128 * (1 + 2.0**-20)
    if ovf is not None and ovf.any():
        ovf_idx = np.flatnonzero(ovf)
        ovf_hi, ovf_lo = hi[ovf_idx], lo[ovf_idx]
        plain |= ovf
        hi[ovf_idx] = 1.0  # scratch; the exact values are put back below
        lo[ovf_idx] = 0.0
        a[ovf_idx] = 1.0
    if nanc is None and not plain.any():
        return plain, None
    nan_m = None  # NaN results: the window there is scratch, reset below
    if nanc is not None:
        nan_m = _Mask(nanc)
        nan_unrounded = grid.rne(nan_m.take(hi), nan_m.take(lo), ctx.fmt)
        plain |= nanc
        nan_m.put(hi, _OFF_GRID)
        nan_m.put(a, _OFF_GRID)
    all_plain = bool(plain.all())
    if not all_plain:  # keep scratch elements finite and normal for the window arithmetic
        scratch = ~plain
        np.putmask(hi, scratch, 1.0)
        np.putmask(lo, scratch, 0.0)
        np.putmask(a, scratch, 1.0)
    bits = grid.rne(hi, lo, ctx.fmt)
    kb = grid.to_key(bits, _F32)
    k = tol.kind
    if k == "cr":
        klo, khi = kb, kb.copy()
    else:
        if k == "log":  # far from 1: relative, like the general log window
            d = a * tol.rel
            klo, khi = _window(hi, d, d, lo)
        else:
            if k in ("ulp", "rel_or_ulp"):
                u = grid.ulp_at(hi, lo, ctx.fmt, specials=False)  # NaN: scratch
                u *= tol.ulp
                klo, khi = _window(hi, u, u, lo)
            if k in ("rel", "rel_or_ulp"):
                d = a * tol.rel
                rlo, rhi = _window(hi, d, d, lo)
                if k == "rel":
                    klo, khi = rlo, rhi
                else:
                    np.minimum(klo, rlo, out=klo)
                    np.maximum(khi, rhi, out=khi)
        np.minimum(klo, kb, out=klo)
        np.maximum(khi, kb, out=khi)
    parts = _plain_parts(ctx, tol, bits, hi, lo, klo, khi, 1)
    parts.fire(_unary_rule(ctx), np.ones(bits.shape, bool))
    rule = {"sqrt": "F32-SQRTNEG", "rsq": "F32-SQRTNEG", "log": "F32-LOG0", "rcp": "F32-DIV0"}
    if op in rule:
        parts.fired[rule[op]] = np.zeros(bits.shape, bool)
    if nan_m is not None:  # what round_model / finish_window give a NaN exact value
        nan_m.put(bits, np.uint32(ctx.fmt.quiet_nan))
        nan_m.put(parts.unrounded, nan_unrounded)
        nan_m.put(hi, np.nan)
        nan_m.put(lo, 0.0)
        nan_m.put(klo, 1)
        nan_m.put(khi, 0)  # empty window: only NaN (nan_ok) is allowed
        parts.nan_ok |= nanc
        parts.fired["F32-NANOUT"] |= nanc
        parts.fired[rule[op]] |= nanc
        parts.fired[_unary_rule(ctx)] &= ~nanc
    if ovf_idx is not None:  # round_model / finish_window for an overflowing 2^x
        inf = np.uint32(0x7F800000)
        bits[ovf_idx] = inf
        parts.unrounded[ovf_idx] = inf
        hi[ovf_idx], lo[ovf_idx] = ovf_hi, ovf_lo
        for k in [klo, khi] + [w for e in parts.extras for w in e[1:]]:
            k[ovf_idx] = int(inf)
        parts.fired[_unary_rule(ctx)][ovf_idx] = np.isfinite(ovf_hi)
    return (None if all_plain else plain), parts


#: Scratch exact value for NaN-result elements: off the f32 grid and its midpoints, and
#: so are its 1-ULP / relative window ends, so no rounding or window fix-up subset picks
#: them (1.0 itself put every element of an all-NaN chunk on the on-grid subset).
_OFF_GRID = 1.0 + 2.0**-30


class _Mask:
    """Reads and writes of the True elements of a mask: whole-array slices when every
    element is (a chunk of negative sqrt operands in an exhaustive sweep), fancy indexing
    otherwise (masked writes on a mixed mask cost ~8x more: branch mispredictions)."""

    def __init__(self, m: np.ndarray) -> None:
        self.key: slice | np.ndarray = slice(None) if m.all() else np.flatnonzero(m)

    def take(self, arr: np.ndarray) -> np.ndarray:
        return arr[self.key]

    def put(self, arr: np.ndarray, value) -> None:
        arr[self.key] = value


def _unary_rule(ctx: Ctx) -> str:
    from .ops_unary import _acc_rule

    return _acc_rule(ctx)


def _plain_parts(ctx: Ctx, tol: Tolerance, bits: np.ndarray, hi: np.ndarray, lo: np.ndarray,
                 klo: np.ndarray, khi: np.ndarray, arity: int) -> Parts:
    """Parts for plain elements: nothing flushed, no NaN, the window as computed."""
    n = bits.shape
    parts = Parts(ctx.fmt, ctx.fmt.name, bits, hi, lo)
    parts.unrounded = bits.copy()  # own arrays: the splice writes into each of them
    parts.ftz_in = [np.zeros(n, bool) for _ in range(arity)]
    parts.ftz_out = np.zeros(n, bool)
    parts.fired = {k: np.zeros(n, bool) for k in ("F32-FTZ", "F32-NANOUT", "F32-NANPROP")}
    if ctx.flush and not ctx.strict_out:
        parts.extras.append(("window", klo.copy(), khi.copy()))
    parts.klo, parts.khi = klo, khi
    parts.nan_ok = np.zeros(n, bool)
    parts.deny_denorm = ctx.strict_out
    parts.tol_text = tol.describe()
    return parts


_F32 = get_format("f32")
