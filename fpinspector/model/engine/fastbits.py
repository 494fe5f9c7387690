"""Fast kernels: the model's bits of ordinary elements, from numpy's own IEEE arithmetic.

Why they are exact: numpy's float32/float64 add, sub, mul, div and sqrt are correctly
rounded (round to nearest even), and so is a float64 result cast to float32/float16 when
the float64 value is the exact result or p >= 2q + 2 (53 >= 2*24 + 2: the classic
innocuous double rounding). Where every operand and the result are ordinary numbers no
flush, NaN or special rule can change that rounded value, so it *is* the model's result.

Each kernel returns ``(bits, rest)``: the bits of every element and the indices of the
elements it does not vouch for (an empty array: it vouches for all). The caller computes
those with the reference path (engine/compute.py), except for the kernels of
:data:`COMPLETES_REST`, which compute them too. Kernels decide nothing else: no window, no verdict, no rule.
Which kernel serves which op is the table in engine/paths.py; the differential test
(tests/model/test_engine_paths.py) proves bits[ok] == the reference path's bits.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ..formats import FORMATS
from . import grid
from .context import Ctx
from .exact.vector import unary_exact
from .masked import indices
from .operand_rows import OperandRows
from .residual import is_zero_residual, zero_residual

__all__ = ["f32_numpy", "f32_float64", "f32_mad", "f32_round", "f32_frc", "compare",
           "f64_numpy", "f16_exact", "f16_mul", "f16_rounded", "f32_rcp", "COMPLETES_REST",
           "NORMAL_OPERANDS_ONLY"]

#: 2^-126's pattern shifted left by one (the sign shifted out): 2|x| of the smallest normal
_MIN_NORMAL_X2 = np.uint32(0x01000000)
_TOP = np.uint32(0xFE000000)
#: INF's pattern shifted left by one: 2|x| at or above it is an INF or a NaN
_INF_X2 = np.uint32(0xFF000000)
_LARGEST_DENORMAL_X2 = np.uint32(0x00FFFFFE)  # 2 |x| of the largest f32 denormal
_MIN_NORMAL = np.uint32(0x00800000)  # 2^-126's pattern
_MIN_NORMAL_NEG_I32 = np.int32(-0x7F800000)  # -2^-126's pattern (0x80800000) as an int32
_INF_I32 = np.int32(0x7F800000)  # +INF's pattern as an int32
_NEG_INF = np.uint32(0xFF800000)  # -INF's pattern
_MAX = np.maximum.reduce
_MIN = np.minimum.reduce
_CHUNK = 1 << 15  # temporaries of this many elements stay in the L2 cache
#: f32_numpy's chunks: one uint32 temporary and whole-chunk reductions, so a bigger chunk
#: still fits the cache and saves Python calls (2^16: 2.28x -> 2.13x numpy's add on 16M)
_CHUNK_F32 = 1 << 16


def _normal32(bits: np.ndarray, t: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Biased exponent in 1..254: ((b << 1) - 2^24) < 0xFE000000 in uint32 (grid.is_normal's
    test for f32, into the kernel's scratch arrays: no allocation per chunk)."""
    np.left_shift(bits, 1, out=t)
    np.subtract(t, _MIN_NORMAL_X2, out=t)
    return np.less(t, _TOP, out=out)


def _no_small32(bits: np.ndarray) -> bool:
    """Whether no pattern is a zero or a denormal, in two reductions and no pass: a small
    positive pattern is below 2^-126's as a uint32, a small negative one (0x80000000 up to
    0x807FFFFF) below -2^-126's as an int32, where the negative patterns are the lowest.
    (A shift to drop the sign, then one reduction, costs a third more.)"""
    return (bool(_MIN(bits) >= _MIN_NORMAL) and
            bool(_MIN(bits.view(np.int32)) >= _MIN_NORMAL_NEG_I32))


def _all_normal32(bits: np.ndarray) -> bool:
    """Whether every pattern is normal: :func:`_no_small32`, and no INF or NaN of either
    sign (+INF and up are the highest int32 patterns, -INF and up the highest uint32)."""
    return (_no_small32(bits) and bool(_MAX(bits.view(np.int32)) < _INF_I32)
            and bool(_MAX(bits) < _NEG_INF))


def _not_normal(arrays: list[np.ndarray], t: np.ndarray, t2: np.ndarray, o: np.ndarray,
                result_normal: bool = False) -> np.ndarray | None:
    """Indices (in the chunk) of the elements where any of ``arrays`` is not normal, or None
    when all are: reductions first, masks only for a chunk that fails (``t``, ``t2``,
    ``o``: chunk-sized scratch).

    ``result_normal``: the caller saw every result of an arithmetic op normal. An INF or
    NaN operand gives an INF, NaN or zero result unless another operand is a zero, so no
    zero or denormal operand is then enough (half the reductions).

    A failing chunk (random patterns: nearly every one) takes 2|x| - 2^-125's pattern of
    each operand, which is below 0xFE000000 exactly for a normal x, and one test of their
    elementwise maximum: two passes per operand and two in all, against four and three."""
    if result_normal and all(_no_small32(x) for x in arrays):
        return None
    if all(_all_normal32(x) for x in arrays):  # (most chunks of real data)
        return None
    key = np.left_shift(arrays[0], 1, out=t)
    key -= _MIN_NORMAL_X2
    for x in arrays[1:]:
        k = np.left_shift(x, 1, out=t2)
        k -= _MIN_NORMAL_X2
        np.maximum(key, k, out=key)
    return indices(np.greater_equal(key, _TOP, out=o))


_NONE = np.zeros(0, dtype=np.intp)
#: (bits, rest) or (bits, rest, (hi, lo)): see engine/paths.py
Kernel = Callable[[Ctx, list[np.ndarray]], tuple]


def _numpy(ctx: Ctx) -> Callable[..., Any]:
    """The op row's numpy function (the kernels that call one serve rows that have it)."""
    fn = ctx.spec.numpy
    assert fn is not None, f"{ctx.op}: this fast kernel needs the row's numpy function"
    return fn


def _rest(ok: np.ndarray | None) -> np.ndarray:
    """The indices a kernel does not vouch for, from the mask of those it does."""
    return _NONE if ok is None else indices(~ok)


def _rest_of_chunks(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else _NONE


def f32_rcp(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    """1 / x in float32 (rcp's numpy function: 1 is a float32, so is the quotient)."""
    return np.divide(np.float32(1.0), x, out=out)


def _flush_denormal32(bits: np.ndarray, t: np.ndarray) -> None:
    """F32-FTZ on results, in place: a denormal pattern becomes the zero of its sign
    (branch-free: the fraction bits are and-ed away where the exponent field is 0; a
    search for the denormals and a change of those only costs as much where they are
    few, and up to 2.5 times as much where they are many, as in products of random
    patterns)."""
    np.bitwise_and(bits, np.uint32(0x7F800000), out=t)
    np.equal(t, np.uint32(0), out=t, casting="unsafe")  # 1 where the exponent field is 0
    np.multiply(t, np.uint32(0x7FFFFFFF), out=t)
    np.invert(t, out=t)
    np.bitwise_and(bits, t, out=bits)


def _f32_numpy(ctx: Ctx, ops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """f32 add/sub/mul/div/sqrt/rcp/min/max in numpy float32; vouched for: normal operands.

    Why that is enough: numpy's float32 op on normal operands is the IEEE result, rounded
    to nearest even on the f32 grid (denormals kept, INF on overflow), and never a NaN
    except sqrt of a negative; the model is that result with a denormal flushed to the
    zero of its sign (F32-FTZ after rounding, compute.round_model), done here in place.
    min/max of normal operands is one of them. Works in cache-sized chunks, each checked
    whole before any index is taken."""
    fn: Any = _numpy(ctx)
    sqrt = ctx.spec.vouches_nan  # (sqrt: a normal operand gives a root or the default NaN)
    picks = ctx.traits.picks_operand
    n = ops[0].size
    views = [b.view(np.float32) for b in ops]
    rb = np.empty(n, dtype=np.uint32)
    rf = rb.view(np.float32)
    m = min(n, _CHUNK_F32)
    t = np.empty(m, dtype=np.uint32)
    t2 = np.empty(m, dtype=np.uint32)
    o1 = np.empty(m, dtype=bool)
    rest: list[np.ndarray] = []
    with np.errstate(all="ignore"):
        for s in range(0, n, _CHUNK_F32):
            e = min(n, s + _CHUNK_F32)
            k = e - s
            o, tt = o1[:k], t[:k]
            fn(*(v[s:e] for v in views), out=rf[s:e])
            normal = False  # (min/max pick an operand: a normal result proves nothing)
            if sqrt:  # a normal operand: a normal root, or (negative) the default NaN
                # (0xFFC00000 on x86, 0x7FC00000 elsewhere): clearing the sign bit gives
                # the model's canonical quiet NaN and leaves every root alone (a branch-free
                # blend; np.copyto(where=) costs ten passes on a random mask)
                np.bitwise_and(rb[s:e], np.uint32(0x7FFFFFFF), out=rb[s:e])
                checks = [ops[0][s:e]]
            else:
                checks = [b[s:e] for b in ops]
                if not picks:
                    normal = _all_normal32(rb[s:e])
                    if not normal and ctx.flush:
                        _flush_denormal32(rb[s:e], tt)  # (overflow: numpy's INF is the model's)
            bad = _not_normal(checks, tt, t2[:k], o, result_normal=normal)
            if bad is not None:
                rest.append(bad + s)
    return rb, _rest_of_chunks(rest)


#: the chunks of :func:`_in_chunks`: as big as a sweep's and an evaluation's chunk, which
#: then runs whole (2^16 halves cost 3-9% more per f16 sweep chunk)
_CHUNK_WIDE = 1 << 17


def _in_chunks(body: Kernel) -> Kernel:
    """The kernel ``body`` run on chunks of ``_CHUNK_WIDE`` elements, its results put
    together (bits, rest, and the exact value where it gives one).

    Why: kernels that work in float64 make many whole-array temporaries (45-75 bytes per
    element for f16 add/div, f32 rsq/log: 16M rsq took 0.4 s of user and 0.3-2 s of system
    time, the kernel zeroing fresh pages); in chunks the temporaries stay cache-sized and
    are reused, and only the outputs are full size. Every kernel is elementwise, so the
    bits are the same.
    """
    @functools.wraps(body)
    def kernel(ctx: Ctx, ops: list[np.ndarray]) -> tuple:
        n = ops[0].size
        if n <= _CHUNK_WIDE:
            return body(ctx, ops)
        bits: np.ndarray | None = None
        hi = lo = None  # (lo: None while every chunk's residual is +0)
        rest: list[np.ndarray] = []
        for s in range(0, n, _CHUNK_WIDE):
            e = min(n, s + _CHUNK_WIDE)
            part = ctx if ctx.layout is None else replace(ctx, layout=ctx.layout.part(s, e))
            b, r, *exact = body(part, [o[s:e] for o in ops])
            if bits is None:
                bits = np.empty(n, dtype=b.dtype)
                if exact:
                    hi = np.empty(n)
            bits[s:e] = b
            if r.size:
                rest.append(r + s)
            if exact:
                assert hi is not None
                h, part_lo = exact[0]
                hi[s:e] = h
                if lo is None and not is_zero_residual(part_lo):
                    lo = np.zeros(n)  # (the chunks before had +0 residuals)
                if lo is not None:
                    lo[s:e] = part_lo
        assert bits is not None
        if hi is None:
            return bits, _rest_of_chunks(rest)
        return bits, _rest_of_chunks(rest), (hi, zero_residual(hi) if lo is None else lo)

    return kernel


def _f32_float64(ctx: Ctx, ops: list[np.ndarray]) -> tuple:
    """f32 rsq / exp / log: the exact-enough float64 value (refined near rounding
    boundaries, engine/exact/vector.py) rounded once; vouched for: a normal operand (rsq, log: a
    positive one; exp: below 128 in magnitude) and a normal result. Only those operands are computed here (the others,
    NaN results of negative operands among them, are the reference path's). Also returns
    the exact value (hi, lo), the reference's own where vouched for, so an evaluation does
    not compute it twice."""
    b = ops[0]
    n = b.size
    t = np.empty(n, dtype=np.uint32)
    ok = _normal32(b, t, np.empty(n, dtype=bool))
    math = ctx.spec.math
    assert math is not None, f"{ctx.op}: f32_float64 serves unary rows"
    lo_x, hi_x = math.kernel_domain  # (exp: |x| >= 128 gives INF or a flushed zero)
    with np.errstate(invalid="ignore"):
        xf = b.view(np.float32)
        ok &= (xf > lo_x) & (xf < hi_x)
    idx = None if ok.all() else indices(ok)
    with np.errstate(invalid="ignore"):
        x = (b if idx is None else b[idx]).view(np.float32).astype(np.float64)
    hi, lo = unary_exact(math, x, ctx.fmt)
    r = grid.rne(hi, lo, ctx.fmt)
    r_ok = _normal32(r, t[: r.size], np.empty(r.size, dtype=bool))
    if idx is None:
        return r, _rest(r_ok), (hi, lo)
    ok[idx] = r_ok
    bits = np.zeros(n, dtype=np.uint32)
    bits[idx] = r
    hi_all, lo_all = np.zeros(n), np.zeros(n)
    hi_all[idx], lo_all[idx] = hi, lo
    return bits, _rest(ok), (hi_all, lo_all)


def _f32_mad(ctx: Ctx, ops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """f32 mad: a*b is exact in float64; s = a*b + c rounds once in float64 and once more
    to float32. That double rounding can only go wrong where s lands exactly halfway
    between two float32 values: in the normal range where its 29 low mantissa bits are 1
    followed by zeros; below 2^-126 the float32 grid is coarser (denormals), so every
    result of magnitude 2^-126 or less is a candidate too (a value just below the
    midpoint under 2^-126 must give the largest denormal, flushed, not 2^-126). On those
    few elements the TwoSum residual decides (grid.rne), then F32-FTZ flushes a denormal
    result. Vouched for: normal operands (INF on overflow is the model's too)."""
    n = ops[0].size
    bits = np.empty(n, dtype=np.uint32)
    m = min(n, _CHUNK)
    t = np.empty(m, dtype=np.uint32)
    o1 = np.empty(m, dtype=bool)
    t2 = np.empty(m, dtype=np.uint32)
    # a, b, c widened, then a*b and the sum, in buffers kept across chunks: fresh ones cost
    # glibc page faults per chunk in a new process (16M mads: .bits 119 -> 61 ms)
    wide = [np.empty(m) for _ in range(3)]
    low29 = np.empty(m, dtype=np.int64)
    rest: list[np.ndarray] = []
    half = np.int64(1 << 28)
    low = np.int64((1 << 29) - 1)
    with np.errstate(all="ignore"):
        for s0 in range(0, n, _CHUNK):
            e0 = min(n, s0 + _CHUNK)
            k = e0 - s0
            chunk = [x[s0:e0] for x in ops]
            a, b, c = (w[:k] for w in wide)
            for w, x in zip((a, b, c), chunk):
                np.copyto(w, x.view(np.float32))  # (exact widening into a kept buffer)
            p = np.multiply(a, b, out=a)  # exact
            sm = np.add(p, c, out=b)
            r = bits[s0:e0]
            np.copyto(r.view(np.float32), sm, casting="same_kind")
            mid = np.flatnonzero(np.equal(np.bitwise_and(sm.view(np.int64), low,
                                                         out=low29[:k]), half, out=o1[:k]))
            tt = t[:k]
            np.left_shift(r, 1, out=tt)  # 2 |r|: at most 2^-126's is the denormal range
            smallest = _MIN(tt)
            tiny = smallest <= _MIN_NORMAL_X2
            edge = _NONE
            if tiny:  # the double rounding may have missed a tie of the denormal grid;
                # flushed, every denormal is the zero of its sign whichever way it went,
                # so only the largest denormal and 2^-126 are in doubt
                in_doubt = tt <= _MIN_NORMAL_X2
                if ctx.flush:
                    in_doubt &= tt >= _LARGEST_DENORMAL_X2
                edge = np.flatnonzero(in_doubt)
            # a normal sum before any fix-up: no INF or NaN operand unless one is a zero
            normal = not tiny and _MAX(tt) < _INF_X2
            if edge.size:
                mid = np.union1d(mid, edge)
            if mid.size:
                hi, lo = grid.two_sum(p[mid], c[mid])
                r[mid] = grid.rne(hi, lo, ctx.fmt)
            if tiny and ctx.flush:
                _flush_denormal32(r, tt)
            bad = _not_normal(chunk, tt, t2[:k], o1[:k], result_normal=normal)
            if bad is not None:
                rest.append(bad + s0)
    return bits, _rest_of_chunks(rest)


def _f32_round(ctx: Ctx, ops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """f32 round_*: numpy's rint/floor/ceil/trunc are exact on float32; vouched for: a normal operand
    (a rounded normal is an integer or a signed zero: nothing to flush)."""
    b = ops[0]
    with np.errstate(invalid="ignore"):
        r = _numpy(ctx)(b.view(np.float32))
    t = np.empty(b.size, dtype=np.uint32)
    ok = _normal32(b, t, np.empty(b.size, dtype=bool))
    return r.view(np.uint32), _rest(ok)


def _f32_frc(ctx: Ctx, ops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """f32 frc: float32 x - floor(x) is the correctly rounded exact difference (floor is
    exact, and the subtraction rounds once), then 1.0 becomes the value below 1; ok =
    normal operand (the result is then +0 or at least 2^-126: nothing to flush)."""
    b = ops[0]
    with np.errstate(invalid="ignore"):
        x = b.view(np.float32)
        r = x - np.floor(x)
    bits = r.view(np.uint32)
    bits[bits == np.uint32(0x3F800000)] = np.uint32(0x3F7FFFFF)
    t = np.empty(b.size, dtype=np.uint32)
    ok = _normal32(b, t, np.empty(b.size, dtype=bool))
    return bits, _rest(ok)


def compare(ctx: Ctx, ops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Comparisons in the storage float type (IEEE: NaN unordered, -0 == +0); ok = no
    operand that F32-FTZ would flush."""
    fmt = ctx.fmt
    ft = {16: np.float16, 32: np.float32, 64: np.float64}[fmt.bits]
    with np.errstate(invalid="ignore"):
        res = _numpy(ctx)(ops[0].view(ft), ops[1].view(ft))
    if not ctx.flush:
        return res, _NONE
    ok = ~grid.is_den(ops[0], fmt)
    ok &= ~grid.is_den(ops[1], fmt)
    return res, _rest(ok)


def f64_numpy(ctx: Ctx, ops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """f64 add/sub/mul/div/sqrt: numpy float64 is IEEE with denormals (F64-DENORM);
    ok = not a NaN result (those take the canonical quiet NaN)."""
    with np.errstate(all="ignore"):
        r = _numpy(ctx)(*(o.view(np.float64) for o in ops))
    return r.view(np.uint64), np.flatnonzero(np.isnan(r))


def _f16_as_f32() -> np.ndarray:
    """Every f16 pattern's value as float32 (exact: f16 is a subset), for table decodes;
    the table the finisher decodes f16 results with too (:func:`grid.values32`)."""
    table = grid.values32(FORMATS["f16"])
    assert table is not None  # (every f16 value is a float32 one)
    return table


def _f16_finite(ctx: Ctx, ops: list[np.ndarray]) -> np.ndarray:
    """Finite operands (exponent field below all ones, read on the 16-bit patterns)."""
    fmt = ctx.fmt
    em = fmt.dtype.type(fmt.exp_max << fmt.frac_bits)
    ok = (ops[0] & em) != em
    for o in ops[1:]:
        ok &= (o & em) != em
    return ok


def _f16_exact(ctx: Ctx, ops: list[np.ndarray]) -> tuple:
    """f16 add/sub: exact in float64, rounded once to f16 with INF on overflow; vouched
    for: finite operands (then no NaN result). Also returns that exact value."""
    vals = [ctx.fmt.decode(o) for o in ops]
    with np.errstate(all="ignore"):
        r = _numpy(ctx)(*vals)
    bits = grid.round_f16(r)
    return bits, _rest(_f16_finite(ctx, ops)), (r, zero_residual(r))


def _f16_mul(ctx: Ctx, ops: list[np.ndarray]) -> tuple:
    """f16 mul: exact in float32 too (half the bytes in every pass), rounded once to f16;
    vouched for: finite operands. Also returns the exact value, and completes the
    elements it does not vouch for (:data:`COMPLETES_REST`).

    Why the INF and NaN operands too: the float32 product of the table's values is IEEE's
    INF or NaN there, as the reference path's float64 one (the table widens to the very
    float64 values the reference decodes), and its rounding gives the INF patterns; only
    a NaN result becomes the positive canonical quiet NaN (as ``compute.round_model``).
    The reference path on those 3% of an exhaustive sweep's elements cost about 45 ns
    each (tests/model/test_engine_f16.py compares the two on every INF and NaN operand)."""
    if ctx.layout is not None and not _f16_nan_row(ctx.layout):  # a grid chunk: B decoded
        p, rest = _f16_mul_rows(ctx.layout)  # once a sweep, A once a row
    else:
        with np.errstate(all="ignore"):
            p = np.multiply(*(_f16_as_f32().take(o) for o in ops))
        rest = _rest(_f16_finite(ctx, ops))
    bits = grid.round_f16_f32(p)
    if rest.size:
        nan = rest[np.isnan(p[rest])]
        bits[nan] = bits.dtype.type(ctx.fmt.quiet_nan)
    r = p.astype(np.float64)
    return bits, rest, (r, zero_residual(r)), p  # (p: the exact value in float32 too)


#: an f16 pattern's exponent field: INF or NaN where it is all ones
_F16_EXP = np.uint16(0x7C00)
_F16_FRAC = np.uint16(0x03FF)


def _f16_axis_values(patterns: np.ndarray) -> np.ndarray:
    """An f16 axis's values as float32 (:meth:`OperandAxis.derived`: made once a sweep);
    a view of the decode table where the axis is a run of consecutive patterns (every
    pattern: the table itself), so a worker keeps no copy."""
    table = _f16_as_f32()
    n = patterns.size
    lo = int(patterns[0]) if n else 0
    if n and lo + n <= table.size and np.array_equal(patterns,
                                                     np.arange(lo, lo + n, dtype=patterns.dtype)):
        return table[lo:lo + n]
    return table.take(patterns)


def _f16_axis_not_finite(patterns: np.ndarray) -> np.ndarray:
    """Positions of an f16 axis's INF and NaN patterns, increasing (made once a sweep;
    int32: a grid axis holds at most 2^20 patterns)."""
    return np.flatnonzero((patterns & _F16_EXP) == _F16_EXP).astype(np.int32)


def _f16_nan_row(rows: OperandRows) -> bool:
    """Is any row's A a NaN? (see :func:`_f16_mul_rows`)"""
    a = rows.a
    return bool(np.any(((a & _F16_EXP) == _F16_EXP) & ((a & _F16_FRAC) != 0)))


def _f16_mul_rows(rows: OperandRows) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_f16_mul`'s float32 product and left elements (INF or NaN operand) of a
    grid chunk, row by row: each row's A value times B's values decoded once a sweep,
    instead of two table decodes of the whole chunk (numpy converts each chunk's uint16
    indices to intp first) and a finite mask of both operands.

    The same bits as the flat product where no A is a NaN (the caller's condition): IEEE
    has one product of a number and B in either order, and a NaN result then has one NaN
    operand (B's, quieted) or is the CPU's default NaN. Two NaN operands give one of their
    NaNs, which one depending on the order numpy's loop multiplies them in, and that
    differs between its vector body and its tail; a chunk with a NaN A row (3% of the f16
    mul sweep's) takes the flat product, which is then today's to the bit."""
    table = _f16_as_f32()
    vals = rows.b.derived(_f16_axis_values, _f16_axis_values)
    bad = rows.b.derived(_f16_axis_not_finite, _f16_axis_not_finite)
    p = np.empty(rows.n, dtype=np.float32)
    rest: list[np.ndarray] = []
    with np.errstate(all="ignore"):
        for a, s, e, c in rows.runs():
            np.multiply(vals[c:c + e - s], table[a], out=p[s:e])
            if (a & _F16_EXP) == _F16_EXP:  # an INF row: every element of it is left
                rest.append(np.arange(s, e, dtype=np.intp))
                continue
            lo, hi = bad.searchsorted(np.array((c, c + e - s), dtype=bad.dtype))
            if hi > lo:
                rest.append(bad[lo:hi].astype(np.intp) + (s - c))
    return p, _rest_of_chunks(rest)


def _f16_rounded(ctx: Ctx, ops: list[np.ndarray]) -> tuple:
    """f16 div/sqrt: the float64 result (innocuous double rounding) rounded once to f16;
    vouched for: finite operands and a non-NaN result (0/0, sqrt of a negative)."""
    vals = [ctx.fmt.decode(o) for o in ops]
    with np.errstate(all="ignore"):
        r = _numpy(ctx)(*vals)
    bits = grid.round_f16(r)  # (INF and NaN elements are the reference path's)
    ok = _f16_finite(ctx, ops)
    ok &= ~np.isnan(r)
    return bits, _rest(ok)


#: One element left whole, before any arithmetic (:func:`_normal_operands_only`).
_ONE_LEFT = np.zeros(1, dtype=np.intp)
_ONE_LEFT.flags.writeable = False


def _normal_operands_only(body: Kernel, exact: bool = False) -> Kernel:
    """The kernel ``body``, which vouches for no element with an operand that is not
    normal (a zero, denormal, INF or NaN: the flush, special and identity rules decide
    there), with one element (an app's) that has such an operand left at once: its
    patterns are read as Python ints (:func:`grid.is_normal_one`) before any arithmetic.

    Why: the app's operand clicks are mostly such elements (a denormal operand flushed);
    ``body`` costs 50-65 us of numpy calls on one element only to leave it, and the
    reference path computes it after all, once for the rule set's evaluation and once for
    the raw inputs'. Leaving an element is always right (the reference path computes
    every element); tests/model/test_engine_fast_paths.py checks that ``body`` leaves
    each one this leaves. The bits given for it (and the exact value, ``exact``: where
    ``body`` gives one) are placeholders: an element left is not read from them."""
    @functools.wraps(body)
    def kernel(ctx: Ctx, ops: list[np.ndarray]) -> tuple:
        if ops[0].size == 1 and not all(grid.is_normal_one(int(o[0]), ctx.fmt) for o in ops):
            if exact:
                return np.zeros(1, dtype=ops[0].dtype), _ONE_LEFT, (np.zeros(1), np.zeros(1))
            return np.zeros(1, dtype=ops[0].dtype), _ONE_LEFT
        return body(ctx, ops)

    return kernel


f32_numpy = _normal_operands_only(_f32_numpy)
f32_mad = _normal_operands_only(_f32_mad)
f32_round = _normal_operands_only(_f32_round)
f32_frc = _normal_operands_only(_f32_frc)
f32_float64 = _normal_operands_only(_in_chunks(_f32_float64), exact=True)
f16_exact = _in_chunks(_f16_exact)
f16_mul = _in_chunks(_f16_mul)
f16_rounded = _in_chunks(_f16_rounded)

#: Kernels whose bits and exact value hold on every element, the ones they do not vouch
#: for included (their ``rest`` then only says which those are: their exact value may be
#: INF or NaN, their operands are not ordinary), so the reference path is not run there.
COMPLETES_REST: frozenset[Kernel] = frozenset({f16_mul})
#: Kernels that leave one element with an operand that is not normal before any
#: arithmetic (:func:`_normal_operands_only`; ``__wrapped__``: the kernel itself).
NORMAL_OPERANDS_ONLY: frozenset[Kernel] = frozenset({f32_numpy, f32_mad, f32_round, f32_frc,
                                                     f32_float64})
