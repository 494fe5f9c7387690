"""The reference computation of every op family: the exact value and the model's bits.

This is the general path: correct on every element (zeros, denormals, INF, NaN, overflow),
written for clarity over speed. Fast kernels (engine/fastbits.py) may compute the bits of
ordinary elements more cheaply; the differential test proves them equal to this module.
Nothing here decides an allowed set or a fired rule: that is engine/finish/.

The model result is the strictest conformant GPU: inputs flushed where F32-FTZ applies,
the exact result rounded to nearest even, a denormal result flushed, NaN results the
canonical quiet NaN, min/max following the recommended zero order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..formats import FloatFormat
from . import grid
from .context import Ctx
from .exact.vector import fused_exact, unary_exact
from .residual import zero_residual

__all__ = ["Core", "compute", "operand_values", "minmax_choice", "is_snan",
           "vouched_exact_is_finite"]


class Core:
    """What the computation gives for each element of a chunk (flat arrays).

    ``bits``: the model result (patterns; bool for comparisons); ``hi + lo``: the exact
    result (``hi`` the float64 nearest, NaN for NaN results, IEEE-signed zeros). The
    exact value may be given as a function, computed on first use: a verdict on a
    correctly rounded op never needs it. ``hi32``: where a kernel computed the exact value
    in float32 exactly (fastbits.f16_mul), hi's very values as float32 (lo is then 0):
    the facts read NaN, finite and inexact from it at half the bytes.
    """

    def __init__(self, bits: np.ndarray, hi: np.ndarray | None = None,
                 lo: np.ndarray | None = None,
                 exact: Callable[[], tuple[np.ndarray, np.ndarray]] | None = None,
                 hi32: np.ndarray | None = None) -> None:
        self.bits = bits
        self._hi, self._lo, self._exact = hi, lo, exact
        self.hi32 = hi32

    def _load(self) -> None:
        if self._hi is None:
            assert self._exact is not None, "Core without an exact value"
            self._hi, self._lo = self._exact()

    @property
    def hi(self) -> np.ndarray:
        self._load()
        assert self._hi is not None
        return self._hi

    @property
    def lo(self) -> np.ndarray:
        self._load()
        assert self._lo is not None
        return self._lo


def operand_values(ctx: Ctx, ops: list[np.ndarray], no_denormals: bool = False
                   ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """float64 values of the operands after the input flush (F32-FTZ), and the flush masks.

    ``no_denormals``: the caller knows no operand is one the flush would change (a fast
    kernel vouched for every element), so it is not looked for."""
    fmt = ctx.fmt
    with np.errstate(invalid="ignore"):  # signaling NaNs raise "invalid" on the cast
        decoded = [fmt.decode(b) for b in ops]
    vals, ftz = [], []
    for b, v in zip(ops, decoded):
        if ctx.flush and not no_denormals and v.size == 1:  # one element (an app's): its
            # pattern as an int
            flushed = grid.is_den_one(int(np.asarray(b).reshape(-1)[0]), fmt)
            den = np.full(v.shape, flushed)
            if flushed:
                v = np.copysign(0.0, v)
        elif ctx.flush and not no_denormals:
            den = grid.is_den(b, fmt)
            if den.any():  # (v is decode's own copy; a few elements: no whole-array where)
                i = np.flatnonzero(den)
                v[i] = np.copysign(0.0, v[i])
        else:
            den = np.zeros(v.shape, dtype=bool)
        vals.append(v)
        ftz.append(den)
    return vals, ftz


def vouched_exact_is_finite(ctx: Ctx) -> bool:
    """Is the exact value of every element a fast kernel vouched for finite? For an f32 or
    f16 add, sub, mul or mad: the vouched operands are finite (normal f32, finite f16),
    and so is their exact sum or product in float64; for an f32 div or rcp too: its
    vouched divisors are normal, not zero. Not f64: its kernel vouches for every result
    that is not a NaN, INF + 1 included; not an f16 div: a finite f16 over zero is INF.
    The op row says in which formats (``vouched_finite``)."""
    return ctx.fmt.name in ctx.spec.vouched_finite


def exact_value(ctx: Ctx, ops: list[np.ndarray], vouched: bool = False,
                vals: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The exact result ``hi + lo`` of an arithmetic / fused / unary / round / frc op.

    ``vouched``: a fast kernel vouched for every element (engine/paths.py), so no operand
    is one the input flush would change (:func:`operand_values`), and the sums and
    quotients :func:`vouched_exact_is_finite` names need no INF/NaN pass. ``vals``: the
    operands' values after the input flush (:func:`operand_values`) where the caller
    decoded them already (one element's facts: not decoded twice)."""
    if vals is None:
        (vals, _) = operand_values(ctx, ops, no_denormals=vouched)
    t, spec, fmt = ctx.traits, ctx.spec, ctx.fmt
    finite = vouched and vouched_exact_is_finite(ctx)
    if t.sums_products:
        return fused_exact(spec.name, vals, fmt, finite)
    if t.integral:
        assert spec.numpy is not None, f"{spec.name}: a round row needs its numpy function"
        with np.errstate(all="ignore"):
            hi = spec.numpy(vals[0])
        return hi, zero_residual(hi)
    if t.fractional:
        with np.errstate(all="ignore"):
            return grid.two_sum(vals[0], -np.floor(vals[0]))
    if spec.math is not None:
        return unary_exact(spec.math, vals[0], fmt)
    if spec.exact is not None:
        return spec.exact(vals[0], vals[1], fmt, finite)
    raise ValueError(f"exact_value: {spec.name} (family {spec.family!r}) has no exact "
                     "function (its row's exact or math, or its family's)")


def round_model(ctx: Ctx, hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """Model bits of an exact value: nearest even, output flush, canonical quiet NaN."""
    fmt = ctx.fmt
    bits = grid.rne(hi, lo, fmt)
    if ctx.flush:
        bits = grid.flush_pat(bits, fmt)
    nan = np.isnan(hi)
    if nan.any():
        bits = np.where(nan, fmt.dtype.type(fmt.quiet_nan), bits)
    return bits.astype(fmt.dtype, copy=False)


def frc_clamp(bits: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """frc's result lies in [+0, 1): a rounded 1.0 becomes the value below 1 (F32-INSTR)."""
    one = grid.pattern_of(1.0, fmt)
    return np.where(bits == one, fmt.dtype.type(one - 1), bits).astype(fmt.dtype)


def is_snan(bits: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Signaling NaN: a NaN whose top fraction bit is clear (IEEE 754-2008 §6.2.1)."""
    quiet_bit = 1 << (fmt.frac_bits - 1)
    return fmt.is_nan(bits) & ((np.asarray(bits).astype(np.uint64) & np.uint64(quiet_bit)) == 0)


@dataclass
class MinMaxChoice:
    """How min/max picked: which operand won, ties, NaNs (F32-MINMAX-*)."""

    bits: np.ndarray
    a_wins: np.ndarray
    b_wins: np.ndarray
    tie: np.ndarray
    zero_tie: np.ndarray
    na: np.ndarray
    nb: np.ndarray
    snan: np.ndarray
    nan_out: np.ndarray
    snan_rule: bool


def minmax_choice(ctx: Ctx, ops: list[np.ndarray]) -> MinMaxChoice:
    """min/max on flushed values: one NaN -> the other operand (F32-MINMAX-NAN), -0/+0 in
    the recommended order (F32-MINMAX-ZERO); under ieee754 (and f64 with option
    f64_minmax_snan) a signaling NaN operand gives NaN."""
    fmt = ctx.fmt
    ra, rb = (np.asarray(o).astype(fmt.dtype) for o in ops)
    (a, b), _ = operand_values(ctx, [ra, rb])
    fa = grid.flush_pat(ra, fmt) if ctx.flush else ra
    fb = grid.flush_pat(rb, fmt) if ctx.flush else rb
    na, nb = np.isnan(a), np.isnan(b)
    is_min = ctx.spec.picks_least
    with np.errstate(invalid="ignore"):
        a_wins = (a < b) if is_min else (a > b)
        b_wins = (b < a) if is_min else (b > a)
    tie = ~(a_wins | b_wins) & ~na & ~nb
    zero_tie = tie & (a == 0) & (np.signbit(a) != np.signbit(b))
    zero_pat = fmt.dtype.type(fmt.sign_mask if is_min else 0)
    bits = np.where(a_wins | (tie & ~zero_tie), fa, fb)
    bits = np.where(zero_tie, zero_pat, bits)
    bits = np.where(na & ~nb, fb, bits)
    bits = np.where(nb & ~na, fa, bits)
    snan_rule = ctx.minmax_snan
    snan = (is_snan(ra, fmt) | is_snan(rb, fmt)) if snan_rule else np.zeros(a.shape, bool)
    nan_out = (na & nb) | snan
    bits = np.where(nan_out, fmt.dtype.type(fmt.quiet_nan), bits).astype(fmt.dtype)
    return MinMaxChoice(bits, a_wins, b_wins, tie, zero_tie, na, nb, snan, nan_out, snan_rule)


def compute(ctx: Ctx, ops: list[np.ndarray]) -> Core:
    """Model bits and exact value of every element of a chunk (the general path)."""
    t, fmt = ctx.traits, ctx.fmt
    if t.picks_operand:
        ch = minmax_choice(ctx, ops)
        with np.errstate(invalid="ignore"):
            hi = np.where(ch.nan_out, np.nan, fmt.decode(ch.bits))
        return Core(ch.bits, hi, zero_residual(hi))
    if t.predicate:
        (a, b), _ = operand_values(ctx, ops)
        with np.errstate(invalid="ignore"):
            assert ctx.spec.numpy is not None, f"{ctx.op}: a compare row needs its numpy"
            res = ctx.spec.numpy(a, b)
        return Core(res, res.astype(np.float64), zero_residual(res))
    if t.moves_bits:
        b = np.asarray(ops[0]).astype(fmt.dtype)
        with np.errstate(invalid="ignore"):
            v = fmt.decode(b)
        return Core(b.copy(), v, zero_residual(v))
    hi, lo = exact_value(ctx, ops)
    bits = round_model(ctx, hi, lo)
    if t.fractional:
        bits = frc_clamp(bits, fmt)
    return Core(bits, hi, lo)
