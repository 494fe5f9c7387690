"""Per-chunk facts that the finisher's rules and windows read, each computed once.

The finisher is the one place that decides allowed sets and fired rules; both read the
same predicates from here (e.g. :attr:`Facts.identity` feeds F32-IDENT's firing and its
exact-result pin), so a rule cannot mean one thing in the verdict and another in the
explanation.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .. import grid
from ..compute import Core, MinMaxChoice, minmax_choice, operand_values
from ..context import Ctx
from ..residual import is_zero_residual, zero_residual

__all__ = ["Facts"]


class Facts:
    """What is known about each element of one chunk (flat arrays, computed lazily)."""

    def __init__(self, ctx: Ctx, ops: list[np.ndarray], core: Core,
                 loaded: tuple[list[np.ndarray], list[np.ndarray]] | None = None) -> None:
        self.ctx = ctx
        self.ops = ops
        self.core = core
        self.n = core.bits.size
        if loaded is not None:  # (compute.operand_values of ops, decoded by the caller)
            self.__dict__["_loaded"] = loaded

    def subset(self, idx: np.ndarray | slice) -> Facts:
        """The facts of the elements ``idx`` (the exact value is sliced if known; a slice
        gives views)."""
        ops = [o[idx] for o in self.ops]
        core = self.core
        if core._hi is not None:
            hi = core.hi[idx]
            lo = zero_residual(hi) if is_zero_residual(core.lo) else core.lo[idx]
            hi32 = None if core.hi32 is None else core.hi32[idx]
            sub = Core(core.bits[idx], hi, lo, hi32=hi32)
        else:
            from ..compute import exact_value

            sub = Core(core.bits[idx], exact=lambda: exact_value(self.ctx, ops))
        out = Facts(self.ctx, ops, sub)
        # per-element facts already known here are sliced, not computed again (every fact
        # is elementwise: the differential test compares these paths with the reference,
        # which never takes a subset)
        for name, value in self.__dict__.items():
            if name in _NOT_SLICED:
                continue
            if isinstance(value, np.ndarray) and value.shape == (self.n,):
                out.__dict__[name] = value[idx]
        return out

    # -- operands -----------------------------------------------------------------------
    @cached_property
    def _loaded(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        return operand_values(self.ctx, self.ops)

    @property
    def vals(self) -> list[np.ndarray]:
        """Operand values after the input flush (F32-FTZ)."""
        return self._loaded[0]

    @property
    def ftz_in(self) -> list[np.ndarray]:
        """Per operand: a denormal flushed on input (F32-FTZ)."""
        return self._loaded[1]

    @cached_property
    def any_ftz_in(self) -> np.ndarray:
        """Some operand was flushed on input (a fresh array: the per-operand masks are
        the loaded operands' own)."""
        ftz = self.ftz_in
        if len(ftz) < 2:
            return ftz[0].copy() if ftz else np.zeros(self.n, dtype=bool)
        return _any_of([ftz[0] | ftz[1], *ftz[2:]], self.n)

    @cached_property
    def _mags(self) -> list[np.ndarray] | None:
        """Each operand's pattern without its sign, where the patterns are IEEE storage
        (f16, f32, f64): operand classes are then read in the patterns' own width instead
        of decoding the values (the rows of a sweep chunk that need only classes: NaN,
        INF, zero, one). None for other operand types (the values are read instead)."""
        fmt = self.ctx.fmt
        if not (fmt.signed and fmt.bits in (16, 32, 64)
                and all(o.dtype == fmt.dtype for o in self.ops)):
            return None
        mag = fmt.dtype.type(fmt.mask & ~fmt.sign_mask)
        return [o & mag for o in self.ops]

    def operand_is_inf(self, i: int) -> np.ndarray:
        """Operand ``i`` is +/-INF."""
        mags = self._mags
        if mags is None:
            return np.isinf(self.vals[i])
        return mags[i] == self.ctx.fmt.dtype.type(self.ctx.fmt.pos_inf)

    def operand_is_zero(self, i: int) -> np.ndarray:
        """Operand ``i`` is +/-0 after the input flush (a flushed denormal is one)."""
        mags = self._mags
        if mags is None:
            return self.vals[i] == 0
        fmt = self.ctx.fmt
        if self.ctx.flush:
            return mags[i] < fmt.dtype.type(1 << fmt.frac_bits)
        return mags[i] == 0

    def operand_is_one(self, i: int) -> np.ndarray:
        """Operand ``i`` is +/-1 (a normal: the flush never changes it)."""
        mags = self._mags
        if mags is None:
            return np.abs(self.vals[i]) == 1
        fmt = self.ctx.fmt
        return mags[i] == fmt.dtype.type(grid.pattern_of(1.0, fmt))

    def operand_is_den(self, i: int) -> np.ndarray:
        """Operand ``i``'s pattern is a denormal (before the input flush). Why from the
        magnitudes: they are read for the NaN operands already, and a denormal is then one
        subtraction and one compare (0 wraps to the top)."""
        mags = self._mags
        if mags is None:
            return grid.is_den(self.ops[i], self.ctx.fmt)
        dt = self.ctx.fmt.dtype.type
        t = mags[i] - dt(1)
        return t < dt(self.ctx.fmt.frac_mask)

    def signs_differ(self) -> np.ndarray:
        """Operands 0 and 1 have different signs (sign bits; for INF operands)."""
        if self._mags is None:
            a, b = self.vals[:2]
            return np.sign(a) != np.sign(b)
        sign = self.ctx.fmt.dtype.type(self.ctx.fmt.sign_mask)
        return ((self.ops[0] ^ self.ops[1]) & sign) != 0

    @cached_property
    def nan_in(self) -> np.ndarray:
        """Some operand is a NaN (the input flush never makes or removes one)."""
        mags = self._mags
        if mags is None:
            return _any_of([np.isnan(v) for v in self.vals], self.n)
        inf = self.ctx.fmt.dtype.type(self.ctx.fmt.pos_inf)
        return _any_of([mg > inf for mg in mags], self.n)

    # -- result -------------------------------------------------------------------------
    @property
    def hi(self) -> np.ndarray:
        return self.core.hi

    @property
    def lo(self) -> np.ndarray:
        return self.core.lo

    @property
    def _hi_narrow(self) -> np.ndarray:
        """The exact value's hi in the narrowest float that holds it exactly (the same
        values: NaN, INF and finite read alike at half the bytes where a kernel gave
        float32)."""
        hi32 = self.core.hi32
        return self.core.hi if hi32 is None else hi32

    @cached_property
    def exact_nan(self) -> np.ndarray:
        return np.isnan(self._hi_narrow)

    @cached_property
    def exact_inf(self) -> np.ndarray:
        return np.isinf(self._hi_narrow)

    @cached_property
    def finite(self) -> np.ndarray:
        return np.isfinite(self._hi_narrow)

    @cached_property
    def result_values(self) -> np.ndarray:
        """The model results' values (the format's value view of their patterns). Why
        here: a sweep's model columns decode them once for the model's own ULP error and
        the precision rule's ordinary mask. A format whose values are all float32 ones
        (f16 and narrower) decodes into float32 (:func:`grid.values32`): both readers widen
        them exactly."""
        fmt, bits = self.ctx.fmt, self.core.bits
        narrow = grid.values32(fmt) if bits.dtype == fmt.dtype else None
        return fmt.value_view(bits) if narrow is None else narrow.take(bits)

    @cached_property
    def unrounded(self) -> np.ndarray:
        """The exact value rounded to nearest even, before the output flush."""
        return grid.rne(self.core.hi, self.core.lo, self.ctx.fmt)

    @cached_property
    def ftz_out(self) -> np.ndarray:
        """The rounded result was a denormal flushed on output (F32-FTZ). Only a zero model
        result of a nonzero exact value can be one, so only those are rounded again."""
        out = np.zeros(self.n, dtype=bool)
        if not self.ctx.flush or not self.ctx.traits.rounds:
            return out
        fmt = self.ctx.fmt
        mag = fmt.mask & ~fmt.sign_mask
        if self.n == 1:  # (an app's record: its one pattern read as an int)
            if int(self.core.bits[0]) & mag:
                return out
            cand = np.zeros(1, dtype=np.intp)
        else:
            cand = np.flatnonzero((self.core.bits & fmt.dtype.type(mag)) == 0)
        if cand.size:
            hi = self.core.hi[cand]
            cand = cand[(hi != 0) & np.isfinite(hi)]
        if cand.size:
            rounded = grid.rne(self.core.hi[cand], self.core.lo[cand], fmt)
            out[cand] = grid.is_den(rounded, fmt)
        return out

    @cached_property
    def inexact(self) -> np.ndarray:
        """The exact result is not a value of the format (rounding decided something).

        Where the model is the exact value rounded to nearest with nothing flushed (add,
        sub, mul, div and mad without F32-FTZ), the model's value equals the exact value
        exactly when that is a value of the format (overflow: INF; NaN: never equal), so
        the decoded results stand in for grid.representable's rounding test."""
        ctx = self.ctx
        if not ctx.flush and ctx.traits.inexact_from_result:
            return self._result_is_not_exact()
        m = ~grid.representable(self.core.hi, ctx.fmt)
        if not is_zero_residual(self.core.lo):
            m |= self.core.lo != 0
        return m

    @property
    def inexact_of_a_normal_result(self) -> np.ndarray:
        """:attr:`inexact` (and finite) where the model's result is a normal number, else
        meaningless. There the result is the exact value rounded to nearest, with no flush
        or overflow in between, so it equals the exact value exactly when that is a value
        of the format. Why: one decode of the result instead of a rounding (the precision
        rule of a sweep's ordinary elements)."""
        return self._result_is_not_exact()

    def _result_is_not_exact(self) -> np.ndarray:
        """The model's value differs from the exact value hi + lo (compared in float32
        where both are: the result values of f16 and a kernel's float32 exact value)."""
        values = self.result_values
        hi = self.core.hi32 if values.dtype == np.float32 else None
        with np.errstate(invalid="ignore"):
            m = np.not_equal(values, self.core.hi if hi is None else hi)
        if not is_zero_residual(self.core.lo):
            m |= self.core.lo != 0
        return m

    # -- op-specific predicates -------------------------------------------------------------
    @cached_property
    def identity(self) -> np.ndarray:
        """F32-IDENT: x*(+/-1), x/(+/-1), x+0, x-0 are exact (on flushed operands)."""
        if not self.ctx.spec.identities:  # (arith rows name theirs; no other row has any)
            return np.zeros(self.n, dtype=bool)
        m = _any_of([self.operand_is_zero(i) if v == 0 else self.operand_is_one(i)
                     for i, v in self.ctx.spec.identities], self.n)  # (operand, value) pairs
        m &= ~self.nan_in
        return m

    @cached_property
    def absolute_window(self) -> np.ndarray:
        """log2 of x in [0.5, 2]: the tolerance is absolute (2^-21), the window centred on
        the exact value holds results of both signs (ALLOWED-ZERO, F32-INSTR)."""
        if self.ctx.tol.kind != "log":
            return np.zeros(self.n, dtype=bool)
        x = self.vals[0]
        return (x >= 0.5) & (x <= 2.0)

    @cached_property
    def inf_div_huge(self) -> np.ndarray:
        """INF / y with |y| > 2^126: 1/y flushes, so x * rcp(y) gives INF * 0 = NaN (the
        §22 note to F32-DIV; option inf_div_huge_nan)."""
        if not self.ctx.spec.rcp_route:
            return np.zeros(self.n, dtype=bool)
        fmt = self.ctx.fmt
        mags = self._mags
        if mags is None:
            mag = fmt.dtype.type(fmt.mask & ~fmt.sign_mask)
            mags = [o & mag for o in self.ops]
        pa, pb = mags
        huge = grid.pattern_of(2.0**126, fmt)  # |b| > 2^126 and finite (a flushed b is 0)
        return (pa == fmt.pos_inf) & (pb > huge) & (pb < fmt.pos_inf)

    @cached_property
    def choice(self) -> MinMaxChoice:
        """How min/max chose (a family that picks an operand only)."""
        return minmax_choice(self.ctx, self.ops)

    @cached_property
    def negative_operand(self) -> np.ndarray:
        """The (flushed) operand is negative, -0 included (F32-SQRTNEG)."""
        x = self.vals[0]
        return (x < 0) | ((x == 0) & np.signbit(x))


def _any_of(masks: list[np.ndarray], n: int) -> np.ndarray:
    """The element-wise OR of ``masks`` (fresh arrays of n, the first one reused), False
    for none: one pass per mask after the first, no zero-filled start."""
    if not masks:
        return np.zeros(n, dtype=bool)
    m = masks[0]
    for other in masks[1:]:
        m |= other
    return m


#: Facts a subset does not take from its parent: no row reads them on the elements a
#: subset holds (the rest of a sweep chunk's ordinary elements), and the gather is not free.
#: A row that did would compute them again on the subset: slower, never different.
_NOT_SLICED = frozenset({"result_values"})
