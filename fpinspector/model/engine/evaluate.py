"""evaluate(op, *operands): the public entry point and the Evaluation result object."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..formats import FloatFormat, get_format
from . import explain, finish, grid
from .allowed import AllowedArrays, AllowedSet
from .compute import Core, compute, exact_value, operand_values, vouched_exact_is_finite
from .context import Ctx
from .fastbits import COMPLETES_REST
from .masked import fill_where, indices
from .operand_rows import OperandRows
from .optable import OPS, OpSpec
from .paths import bits_kernel, use_reference
from .residual import is_zero_residual, writable_residual, zero_residual
from .rules import RULE_SETS, arithmetic_gap
from .tolerances import resolve_options, tolerance_for
from .ulp import ulp_errors_into as _ulp_errors

__all__ = ["OpSpec", "OPS", "evaluate", "Evaluation", "CHUNK"]

#: Elements per slice of the lazy computations (cache-sized temporaries, bounded memory).
CHUNK = 1 << 17
#: verdicts: a chunk with this many differing elements takes its own subset; fewer are
#: pooled with other chunks' until _POOL (measured on 4M f32 add/div/mad/sqrt verdicts)
_DENSE = 1 << 13
#: A span with at most 1/_FEW_LEFT of its elements left by the kernel computes its exact
#: value as a vouched one and those elements again (Evaluation._core_mostly_vouched)
_FEW_LEFT = 8
_POOL = 1 << 15


def evaluate(
    op: str,
    *operands: Any,
    format: str = "f32",
    rules: str = "d3d11",
    options: Mapping[str, Any] | None = None,
    paths: str | None = None,
    layout: OperandRows | None = None,
) -> Any:
    """Evaluate ``op`` on operand bit patterns under a rule set.

    Parameters
    ----------
    op : str
        An op name from :data:`OPS` (``"add"``, ``"mad"``, ``"min"``, ``"lt"``, ``"rsq"``...).
    *operands : array_like of int
        Bit patterns of the operand format (broadcast together like numpy). dp ops take
        a0..aN-1 then b0..bN-1.
    format : str
        Operand format: ``"f32"`` (default), ``"f16"`` or ``"f64"``.
    rules : str
        ``"d3d11"`` (default), ``"d3d10"`` or ``"ieee754"``.
    options : mapping, optional
        AMBIGUOUS switches from :data:`OPTIONS` (e.g. ``{"lenient_d3d11": True}``).
    paths : {"fast", "reference"}, optional
        ``"reference"`` computes every element with the general code (no fast kernel);
        default: the environment variable ``FPINSPECTOR_ENGINE_PATHS`` or ``"fast"``.
        Both give the same results (tests/model/test_engine_paths.py).
    layout : OperandRows, optional
        How two 1-D operands were made from an A x B grid (a sweep's grid chunk:
        engine/operand_rows.py): kernels may then work per row or per axis. Same results.

    Returns
    -------
    Evaluation
        Model bits, exact value, allowed sets, fired rules and explanations.

    Raises
    ------
    ValueError
        Unknown op, rule set, format, option or path; wrong operand count; operands that
        are not bit patterns of the format; shapes that do not broadcast.

    Examples
    --------
    >>> ev = evaluate("mul", 0x00000001, 0x3F800000)
    >>> hex(int(ev.bits)), ev.rules_at(0)
    ('0x0', ['F32-FTZ', 'F32-IDENT'])
    """
    spec = OPS.get(op) if isinstance(op, str) else None
    if spec is None:
        raise ValueError(f"unknown op {op!r}; choose one of {', '.join(OPS)}")
    if rules not in RULE_SETS:
        raise ValueError(f"unknown rule set {rules!r}; choose one of {', '.join(RULE_SETS)}")
    fmt = get_format(format)
    conversion = spec.traits.converts
    gap = None if conversion else arithmetic_gap(fmt, rules)
    if gap is not None:  # bf16, FP8 under d3d10/d3d11 (FloatFormat.d3d_arith)
        raise ValueError(gap)
    # (a conversion of one operand type converts that type whatever format is asked:
    # OpSpec.operand_type; one of several types, to_f32's, must be asked for)
    if fmt.name not in spec.formats and (not conversion or len(spec.formats) > 1):
        raise ValueError(f"{op} does not exist for {fmt.name}; formats: {', '.join(spec.formats)}")
    if len(operands) != spec.arity:
        raise ValueError(f"{op} takes {spec.arity} operand(s), got {len(operands)}")
    opts = resolve_options(options)
    reference = use_reference(paths)
    if conversion:  # conversion ops delegate to model.convert / model.numeric
        assert spec.handler is not None
        return spec.handler(op, operands, fmt, rules, opts)
    arrs = [_as_bits(fmt, o, i) for i, o in enumerate(operands)]
    try:  # (operands of one shape, as the app's one-element ones: nothing to broadcast)
        if any(a.shape != arrs[0].shape for a in arrs):
            arrs = list(np.broadcast_arrays(*arrs))
    except ValueError:
        shapes = ", ".join(str(np.shape(a)) for a in arrs)
        raise ValueError(f"{op}: operand shapes {shapes} do not broadcast together") from None
    shape = arrs[0].shape
    flat = [np.ascontiguousarray(a).reshape(-1) for a in arrs]
    flush = fmt.flushes(rules) and spec.traits.flushes_inputs
    tol, readings = tolerance_for(op, spec.tolerances, fmt.name, rules, opts)
    if layout is not None and (len(flat) != 2 or not layout.describes(*flat)):
        raise ValueError(f"{op}: the layout does not describe the operands")
    ctx = Ctx(spec, fmt, rules, opts, flush, tol, tuple(readings), reference, layout)
    return Evaluation(spec, ctx, flat, shape)


def _value_of_result(ctx: Ctx, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact value of ops that pick, compare or move: the result's own value."""
    if bits.dtype == bool:
        hi = bits.astype(np.float64)
    else:
        with np.errstate(invalid="ignore"):
            hi = ctx.fmt.decode(bits)
    return hi, zero_residual(hi)


def _exact_where_not_nan(ctx: Ctx, ops: list[np.ndarray], bits: np.ndarray,
                         vals: list[np.ndarray] | None = None
                         ) -> tuple[np.ndarray, np.ndarray]:
    """The exact value, computed only where the model's result is not NaN: a math op's
    model result is NaN exactly where its exact result is (compute.round_model), so a
    chunk of NaN results (half of an exhaustive sqrt sweep) costs nothing. The
    reference path computes every element (the differential test compares the two). Not
    in a format without infinity (E4M3): an overflow rounds to its NaN there, and the
    exact value of that element is finite. ``vals``: the operand values after the input
    flush where the caller has them (one element's facts), for every element of ``ops``."""
    if not ctx.fmt.nan_only_from_nan:
        return exact_value(ctx, ops, vals=vals)
    nan = ctx.fmt.is_nan(bits)
    count = int(np.count_nonzero(nan))
    if count == 0:
        return exact_value(ctx, ops, vals=vals)
    if 2 * count <= bits.size:
        # a few NaN results (random patterns): computing them too costs less than taking
        # the others out and back; their exact value is a NaN already (lo = 0), given here
        # the one quiet NaN of the subset path
        hi, lo = exact_value(ctx, ops)
        fill_where(hi, nan, np.nan)
        return hi, lo
    hi = np.full(bits.size, np.nan)
    lo = np.zeros(bits.size)
    keep = indices(~nan)
    if keep.size:
        hi[keep], lo[keep] = exact_value(ctx, [o[keep] for o in ops])
    return hi, lo


def _vouched_exact(ctx: Ctx, ops: list[np.ndarray], bits: np.ndarray,
                   vals: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The exact value of elements a fast kernel vouched for. A chunk of sqrt NaN results
    only (negative operands: half of an exhaustive sqrt sweep) is NaN throughout without
    a root."""
    if ctx.spec.vouches_nan and grid.all_nan(bits, ctx.fmt):
        hi = np.full(bits.size, np.nan)
        return hi, zero_residual(hi)
    return exact_value(ctx, ops, vouched=True, vals=vals)


def _all_plus_zero(x: np.ndarray) -> bool:
    """Every element is +0 (a residual that the constant +0 view stands for)."""
    x = np.asarray(x)
    return not np.any(x) and not np.signbit(x).any()


def _same_array(a: np.ndarray, b: np.ndarray) -> bool:
    """Are ``a`` and ``b`` views of the very same elements (memory, dtype, layout)?"""
    return (a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _operand_name(i: int) -> str:
    return "ABCDEFGH"[i] if i < 8 else str(i)


def _as_bits(fmt: FloatFormat, o: Any, i: int) -> np.ndarray:
    if isinstance(o, np.ndarray) and o.dtype == fmt.dtype and fmt.bits in (16, 32, 64):
        return o  # every value of the storage dtype is a pattern: skip the range scan
    if isinstance(o, np.ndarray) and o.dtype.kind == "f" or isinstance(o, float):
        raise ValueError(f"operand {_operand_name(i)}: bit patterns are integers, got "
                         f"floating-point values (encode them first, e.g. "
                         f"FORMATS[{fmt.name!r}].encode(x))")
    try:
        return fmt.as_bits(o)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"operand {_operand_name(i)}: {exc}") from None


class Evaluation:
    """Result of :func:`evaluate`: model, exact reference, allowed sets and fired rules.

    Attributes
    ----------
    bits : ndarray
        The model's result patterns (bool for comparisons): the strictest conformant GPU
        (F32-FTZ on input and output where it applies, round to nearest even, the
        canonical quiet NaN for NaN results, recommended min/max zero order).
    result_format : str
        ``"f32"``, ``"f16"``, ``"f64"`` or ``"bool"``.
    exact : ndarray of float64
        The infinitely precise result rounded to float64; ``exact_lo`` is the residual.
    fired : dict of str to ndarray of bool
        Rule ID -> where that rule decided the result (IDs: docs/rules.md).
    tolerance : Tolerance
        The table row used (tolerances.TOLERANCES), ``readings`` the AMBIGUOUS readings.

    Notes
    -----
    Only ``bits`` is computed eagerly-on-first-use for the whole array; verdicts, ULP
    errors and rules are computed slice by slice when asked and keep no per-element
    record. The allowed set of an element is exact (points and intervals, -0 and +0
    distinct): :meth:`allowed_set` prints it, :meth:`allowed` judges with it, and
    ``lo``/``hi`` are only its hull.
    """

    def __init__(self, spec: OpSpec, ctx: Ctx, flat: list[np.ndarray], shape: tuple) -> None:
        self.op = spec.name
        self.spec = spec
        self.format = ctx.fmt.name
        self.rules = ctx.rules
        self.options = dict(ctx.opts)
        self.tolerance = ctx.tol
        self.readings = list(ctx.readings)
        self.shape = shape
        self._ctx = ctx
        self._flat = flat
        self._n = flat[0].size
        self._bits: np.ndarray | None = None
        self._exact: tuple[np.ndarray, np.ndarray] | None = None
        self._rest: np.ndarray | None = None  # a fast kernel's elements left to the reference
        self._exact32: np.ndarray | None = None  # a kernel's exact value, as float32
        self._fired: dict[str, np.ndarray] | None = None
        self._hull: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._one_chunk_sets: finish.Sets | None = None  # kept when n <= CHUNK only
        self._last_facts: tuple[int, finish.Facts] | None = None

    # -- bits ---------------------------------------------------------------------------
    @property
    def result_format(self) -> str:
        """Name of the result's type: the operand format, or ``"bool"`` for comparisons."""
        return "bool" if self.spec.result == "bool" else self.format

    def _flat_bits(self) -> np.ndarray:
        if self._bits is None:
            self._bits = self._compute_bits()
        return self._bits

    def _compute_bits(self) -> np.ndarray:
        ctx, flat = self._ctx, self._flat
        kernel = bits_kernel(ctx)
        if kernel is None or self._n == 0:
            if self._n == 1:
                return self._one_computed(compute(ctx, flat))
            return compute(ctx, flat).bits if self._n <= CHUNK else self._chunked_reference()
        bits, rest, *exact = kernel(ctx, flat)
        self._rest = rest
        if exact and kernel in COMPLETES_REST:  # bits and exact value of every element
            self._exact = exact[0]
            if len(exact) > 1:  # (the exact value in float32 too: the model's ULP errors)
                self._exact32 = exact[1]
            return bits
        if rest.size == self._n <= CHUNK:  # the kernel left every element (a sweep chunk
            # of INF or NaN operands): the general path's answer as it is, not copied in
            sub = compute(ctx, flat)
            if exact:
                self._exact = (sub.hi, sub.lo)
            elif self._n == 1:
                return self._one_computed(sub)
            return sub.bits
        pair: tuple[np.ndarray, np.ndarray] | None = exact[0] if exact else None
        for i in range(0, rest.size, CHUNK):  # (in chunks: the left elements can be half
            at = rest[i:i + CHUNK]  # of all, e.g. rsq of negative operands)
            sub = compute(ctx, [a[at] for a in flat])
            bits[at] = sub.bits
            if pair is not None:  # the kernel's exact value, completed where it left them
                hi, lo = pair
                hi[at] = sub.hi
                if not (is_zero_residual(lo) and _all_plus_zero(sub.lo)):  # (INF, NaN: +0)
                    lo = writable_residual(lo)
                    lo[at] = sub.lo
                pair = (hi, lo)
        if pair is not None:
            self._exact = pair
        return bits

    def _one_computed(self, sub: Core) -> np.ndarray:
        """The bits of a one-element evaluation (an app's) that the general path computed;
        its exact value is kept where it is the very one :meth:`_core` would compute again
        (``exact_value`` of the operands, in ``_exact_where_not_nan``): an op that rounds
        an exact value, outside the reference path, its result not a NaN that
        ``_exact_where_not_nan`` gives its own quiet NaN. (A flushed denormal operand:
        the kernels leave it, and an operand click paid for its exact value twice.)"""
        ctx = self._ctx
        if not (ctx.reference or ctx.traits.exact_is_result
                or (ctx.fmt.nan_only_from_nan and bool(ctx.fmt.is_nan(sub.bits)[0]))):
            self._exact = (sub.hi, sub.lo)
        return sub.bits

    def _chunked_reference(self) -> np.ndarray:
        out: np.ndarray | None = None
        for s, e in self._spans():
            b = compute(self._ctx, [a[s:e] for a in self._flat]).bits
            if out is None:
                out = np.empty(self._n, dtype=b.dtype)
            out[s:e] = b
        assert out is not None
        return out

    @property
    def bits(self) -> np.ndarray:
        """Model result: the strictest conformant GPU (flush, RNE, canonical quiet NaN)."""
        return self._flat_bits().reshape(self.shape)

    @property
    def operands(self) -> list[np.ndarray]:
        return [a.reshape(self.shape) for a in self._flat]

    # -- slices and their records ------------------------------------------------------------
    def _spans(self) -> Iterator[tuple[int, int]]:
        for s in range(0, self._n, CHUNK):
            yield s, min(self._n, s + CHUNK)

    def _core(self, s: int, e: int, vals: list[np.ndarray] | None = None) -> Core:
        """Bits (of the chosen path) and the exact value of elements s:e; ``vals``: their
        operand values after the input flush where the caller has them (one element's
        facts: :meth:`_facts_at`)."""
        self._flat_bits()  # first: the kernel says which elements it vouched for, and the
        # exact value must not depend on whether the bits were asked for before
        rest = self._rest
        # (not where the kernel vouches for NaN results, which the careful path gives as
        # the positive quiet NaN: sqrt)
        if (rest is not None and rest.size and self._exact is None
                and not self._ctx.spec.vouches_nan
                and not self._ctx.traits.exact_is_result):
            i0, i1 = (int(i) for i in rest.searchsorted((s, e)))
            if 0 < (i1 - i0) * _FEW_LEFT <= e - s:
                return self._core_mostly_vouched(s, e, rest[i0:i1] - s)
        return self._core_of(slice(s, e), vouched=self._vouched(s, e), vals=vals)

    def _core_mostly_vouched(self, s: int, e: int, left: np.ndarray) -> Core:
        """The core of a span where a kernel vouched for all but the few elements ``left``
        (offsets in the span; random patterns: INF, NaN and denormal operands): the exact
        value computed as for a vouched span, then again on those few the careful way
        (flush, INF and NaN), instead of the careful way on every element."""
        ctx = self._ctx
        bits = self._flat_bits()[s:e]
        ops = [a[s:e] for a in self._flat]

        def exact() -> tuple[np.ndarray, np.ndarray]:
            hi, lo = exact_value(ctx, ops, vouched=True)
            lo = writable_residual(lo)
            hi[left], lo[left] = _exact_where_not_nan(ctx, [o[left] for o in ops], bits[left])
            return hi, lo

        return Core(bits, exact=exact)

    def _core_of(self, at: slice | np.ndarray, vouched: bool = False,
                 ops: list[np.ndarray] | None = None,
                 vals: list[np.ndarray] | None = None) -> Core:
        """Bits and the exact value of the elements ``at`` (a span, or indices in any
        chunks); ``vouched``: a fast kernel vouched for all of them (:meth:`_vouched`);
        ``ops``: the operands at ``at`` when the caller gathered them already."""
        ctx = self._ctx
        bits = self._flat_bits()[at]  # (a kernel may also give the exact value)
        if self._exact is not None:
            hi32 = None if self._exact32 is None else self._exact32[at]
            return Core(bits, self._exact[0][at], self._exact[1][at], hi32=hi32)
        if ctx.traits.exact_is_result:  # the exact result is the value
            return Core(bits, exact=lambda: _value_of_result(ctx, bits))
        if ops is None:
            ops = [a[at] for a in self._flat]
        if ctx.reference:
            return Core(bits, exact=lambda: exact_value(ctx, ops))
        if vouched:  # nothing to flush, no NaN result but sqrt's: nothing to look for
            return Core(bits, exact=lambda: _vouched_exact(ctx, ops, bits, vals))
        return Core(bits, exact=lambda: _exact_where_not_nan(ctx, ops, bits, vals))

    def _finite_exact(self, s: int, e: int) -> bool:
        """Is every exact value of s:e finite? Known without a pass where a kernel vouched
        for the span (compute.vouched_exact_is_finite)."""
        return vouched_exact_is_finite(self._ctx) and self._vouched(s, e)

    def _vouched(self, s: int, e: int) -> bool:
        """Did a fast kernel vouch for every element s:e? (engine/fastbits.py: then no
        operand is one the input flush would change, and no result is a NaN but sqrt's of
        a negative operand.)"""
        rest = self._rest
        if rest is None:
            return False
        if rest.size == 0:  # (the kernel left no element: an app's one-element evaluation)
            return True
        i = int(rest.searchsorted(s))  # (the method: no wrapper calls)
        return i == rest.size or int(rest[i]) >= e

    def _facts(self, s: int, e: int) -> finish.Facts:
        return finish.facts(self._ctx, [a[s:e] for a in self._flat], self._core(s, e))

    def _facts_at(self, i: int) -> finish.Facts:
        """The facts of element ``i``, the last element asked kept: an app shows one
        element's set, rules, sentences, steps and verdicts, each read from the same
        facts (a record computes each of its facts once)."""
        last = self._last_facts
        if last is not None and last[0] == i:
            return last[1]
        # (the operand values decoded once, here: the facts' rules and windows read them,
        # and so does the exact value where it is still to compute)
        ops = [a[i:i + 1] for a in self._flat]
        loaded = operand_values(self._ctx, ops)
        core = self._core(i, i + 1, vals=loaded[0])
        f = finish.facts(self._ctx, ops, core, loaded=loaded)
        self._last_facts = (i, f)
        return f

    # -- exact value --------------------------------------------------------------------------
    def _exact_pair(self) -> tuple[np.ndarray, np.ndarray]:
        if self._exact is None and self._n == 1:  # (an app's: from its one facts record,
            # which its allowed set, rules and sentences read too, where the bits' path
            # did not give it: a raw-inputs evaluation reads only the bits and this)
            self._flat_bits()
            if self._exact is None:
                c = self._facts_at(0).core
                self._exact = (np.array(c.hi, dtype=np.float64),
                               np.array(c.lo, dtype=np.float64))
        if self._exact is None:
            hi = np.empty(self._n)
            lo = np.empty(self._n)
            for s, e in self._spans():
                c = self._core(s, e)
                hi[s:e], lo[s:e] = c.hi, c.lo
            self._exact = (hi, lo)
        return self._exact

    @property
    def exact(self) -> np.ndarray:
        """Exact result (float64 nearest; see engine.exact for how exact, per op)."""
        return self._exact_pair()[0].reshape(self.shape).copy()

    @property
    def exact_lo(self) -> np.ndarray:
        """Residual: exact = exact + exact_lo (0 where float64 is exact)."""
        return self._exact_pair()[1].reshape(self.shape).copy()

    def exact_of_one(self) -> tuple[float, float]:
        """The exact value ``hi, lo`` of a one-element evaluation, as :attr:`exact` and
        :attr:`exact_lo` give it, without the model bits where the value does not need them.

        Why: the exact value of the raw inputs (engine/raw_inputs.py) is all that is read
        of its evaluation; the bits' path would run the kernel and round. Every path's
        exact value of an op that rounds one is ``exact_value`` of the operands
        (tests/model/test_engine_paths.py), so that is computed, once. The bits' path
        still decides where it has a say: a NaN (whose pair depends on the kernel), an op
        whose exact value is its result, an exact value or bits computed already."""
        ctx = self._ctx
        if not (self._n != 1 or self._exact is not None or self._bits is not None
                or ctx.traits.exact_is_result):
            hi, lo = exact_value(ctx, self._flat)
            h = float(hi.reshape(-1)[0])
            if h == h:
                return h, float(lo.reshape(-1)[0])
        hi, lo = self._exact_pair()
        return float(hi.reshape(-1)[0]), float(lo.reshape(-1)[0])

    # -- allowed sets -------------------------------------------------------------------------
    def _sets(self, s: int, e: int) -> finish.Sets:
        """Allowed sets of elements s:e; an evaluation of one chunk keeps them (bounded
        memory), larger ones recompute per call (one pass per verdict in a sweep)."""
        whole = s == 0 and e == self._n and self._n <= CHUNK
        if whole and self._one_chunk_sets is not None:
            return self._one_chunk_sets
        sets = finish.allowed_sets(self._facts_at(s) if e == s + 1 else self._facts(s, e))
        if whole:
            self._one_chunk_sets = sets
        return sets

    def allowed_set(self, i: Any = 0) -> AllowedSet:
        """The exact allowed set of element ``i`` (flat index or index tuple): sorted
        disjoint pattern ranges, zeros distinct, plus "any NaN"."""
        j = self._index(i)
        if self.result_format == "bool":
            b = bool(self._flat_bits()[j])
            return AllowedSet("bool", ((int(b), int(b)),), False)
        return self._sets(j, j + 1).at(0)

    def _hull_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._hull is None:
            fmt = self._ctx.fmt
            lo = np.empty(self._n, dtype=fmt.dtype)
            hi = np.empty(self._n, dtype=fmt.dtype)
            nan = np.empty(self._n, dtype=bool)
            qn = fmt.dtype.type(fmt.quiet_nan)
            for s, e in self._spans():
                sets = self._sets(s, e)
                klo, khi = sets.hull()
                empty = klo > khi
                lo[s:e] = np.where(empty, qn, grid.from_key(np.where(empty, 0, klo), fmt))
                hi[s:e] = np.where(empty, qn, grid.from_key(np.where(empty, 0, khi), fmt))
                nan[s:e] = sets.nan if sets.nan is not None else False
            self._hull = (lo, hi, nan)
        return self._hull

    @property
    def lo(self) -> np.ndarray:
        """Lowest allowed pattern (the hull's low end; the quiet NaN where only NaN is
        allowed). Verdicts use the exact set: :meth:`allowed`, :meth:`allowed_set`."""
        if self.result_format == "bool":
            return self.bits
        return self._hull_arrays()[0].reshape(self.shape)

    @property
    def hi(self) -> np.ndarray:
        """Highest allowed pattern (the hull's high end; see :attr:`lo`)."""
        if self.result_format == "bool":
            return self.bits
        return self._hull_arrays()[1].reshape(self.shape)

    @property
    def nan_ok(self) -> np.ndarray:
        """Whether any NaN is a conformant result (F32-NANOUT)."""
        if self.result_format == "bool":
            return np.zeros(self.shape, dtype=bool)
        return self._hull_arrays()[2].reshape(self.shape)

    # -- verdicts ------------------------------------------------------------------------------
    def _obs(self, observed: Any) -> tuple[np.ndarray, np.ndarray | None, tuple]:
        """Flat observed patterns, the element index of each (None: same shape), and shape."""
        if self.result_format == "bool":
            o = np.asarray(observed)
            if o.dtype.kind not in "biu":
                raise ValueError("observed result: comparisons give true/false")
            o = o.astype(bool)
        else:
            try:
                o = _as_bits(self._ctx.fmt, observed, 0)
            except ValueError as exc:
                raise ValueError(f"observed result: {str(exc).split(': ', 1)[-1]}") from None
        try:
            shape = np.broadcast_shapes(self.shape, o.shape)
        except ValueError:
            raise ValueError(f"observed result: shape {o.shape} does not broadcast with "
                             f"{self.shape}") from None
        if o.shape == shape == self.shape and o.flags.c_contiguous:  # (np.broadcast_to's
            flat = o.reshape(-1)  # view is ~5 us of Python, every sweep chunk's ok_model)
            flat.flags.writeable = False  # (read-only, as that view)
            return flat, None, shape
        flat = np.ascontiguousarray(np.broadcast_to(o, shape)).reshape(-1)
        if shape == self.shape:
            return flat, None, shape
        idx = np.broadcast_to(np.arange(self._n).reshape(self.shape), shape).reshape(-1)
        return flat, idx, shape

    def allowed(self, observed: Any) -> np.ndarray:
        """Is each observed result conformant under the rule set (bool array)?

        ``observed`` broadcasts against the evaluation (e.g. several candidate results for
        one scalar evaluation).
        """
        obs, idx, shape = self._obs(observed)
        if idx is None and not self._ctx.reference and _same_array(obs, self._flat_bits()):
            # the model's own results (a sweep's ok_model): each is in its set, as the
            # equality pass below finds (the differential test proves it on the reference
            # path), without the pass
            return np.ones(shape, dtype=bool)
        if self.result_format == "bool":
            bits = self._flat_bits()
            return (obs == (bits if idx is None else bits[idx])).reshape(shape)
        if idx is not None:  # several observations per element: judge element by element
            out = np.empty(obs.size, dtype=bool)
            order = np.argsort(idx, kind="stable")
            for s, e in self._spans():
                sel = order[np.searchsorted(idx[order], s):np.searchsorted(idx[order], e)]
                if sel.size:
                    out[sel] = self._sets(s, e).contains(obs[sel], idx[sel] - s)
            return out.reshape(shape)
        if finish.whole_array_points(self._ctx):  # {model} (+ NaN): one pass, no chunks
            bits = self._flat_bits()
            out = np.equal(obs, bits)
            if not out.all():  # only the differing elements can be a NaN for a NaN
                d = indices(~out)
                fmt = self._ctx.fmt
                sets = AllowedArrays(fmt, [], [], fmt.is_nan(bits[d]), single=bits[d])
                out[d] = sets.contains(obs[d])
            return out.reshape(shape)
        if self._ctx.reference:
            out = np.empty(self._n, dtype=bool)
            for s, e in self._spans():
                out[s:e] = self._sets(s, e).contains(obs[s:e])
            return out.reshape(shape)
        # The model's own result is in every set (the differential test proves it on the
        # reference path): only observations that differ from it need their sets.
        bits = self._flat_bits()
        out = np.equal(obs, bits)
        if out.all():
            return out.reshape(shape)
        fmt = self._ctx.fmt
        any_nan = finish.nan_results_allow_any_nan(self._ctx)
        sparse: list[np.ndarray] = []  # few differing elements of several chunks, pooled
        pooled = 0
        for s, e in self._spans():
            same = out[s:e]  # (a view: verdicts are written into it)
            if same.all():
                continue
            settled = same
            if any_nan:  # a NaN model result: any NaN, nothing else (whole-chunk masks:
                model_nan = fmt.is_nan(bits[s:e])  # they can be half of it)
                if model_nan.any():
                    same |= model_nan & fmt.is_nan(obs[s:e])
                    settled = same | model_nan
            diff = indices(~settled)
            if diff.size == 0:
                continue
            if diff.size == e - s:
                out[s:e] = self._sets(s, e).contains(obs[s:e])
            elif diff.size >= _DENSE:
                f = self._facts(s, e).subset(diff)
                out[s + diff] = finish.allowed_sets(f).contains(obs[s + diff])
            else:
                sparse.append(s + diff)
                pooled += diff.size
                if pooled >= _POOL:
                    self._judge(np.concatenate(sparse), obs, out)
                    sparse, pooled = [], 0
        if sparse:
            self._judge(np.concatenate(sparse), obs, out)
        return out.reshape(shape)

    def _judge(self, at: np.ndarray, obs: np.ndarray, out: np.ndarray) -> None:
        """out[at] = allowed(obs[at]) for elements ``at`` of any chunks: a few per chunk
        would each pay the calls of a whole chunk's facts (facts are elementwise)."""
        ops = [a[at] for a in self._flat]  # (scattered reads: gathered once for both)
        f = finish.facts(self._ctx, ops, self._core_of(at, ops=ops))
        out[at] = finish.allowed_sets(f).contains(obs[at])

    def ulp_error(self, observed: Any) -> np.ndarray:
        """Signed error (observed - exact) in ULPs of the result format at the exact value.

        The ULP is the spacing of the exact value's binade (engine.grid.ulp_at: 2^(k-F) for
        |x| in [2^k, 2^(k+1)), the denormal spacing at zero and below the smallest normal,
        the top binade's spacing at and beyond 2^maxexp). Exact INF or NaN: 0 when the
        observation is the same INF / any NaN, else +/-INF (INF exact) or NaN (NaN exact).
        A NaN observation of a non-NaN exact value gives NaN. Comparisons: 0 if equal,
        else INF. Where a ULP error says nothing (NaN, INF, saturation), :meth:`verdict`
        says so in words.
        """
        obs, idx, shape = self._obs(observed)
        if self.result_format == "bool":
            bits = self._flat_bits()
            ref = bits if idx is None else bits[idx]
            return np.where(obs == ref, 0.0, np.inf).reshape(shape)
        fmt = self._ctx.fmt
        hi_all, lo_all = self._exact_pair() if idx is not None else (None, None)
        out = np.empty(obs.size)
        spans = [(0, obs.size)] if idx is not None else list(self._spans())
        for s, e in spans:
            if idx is not None:
                assert hi_all is not None and lo_all is not None
                hi, lo = hi_all[idx], lo_all[idx]
            else:
                c = self._core(s, e)
                hi, lo = c.hi, c.lo
            _ulp_errors(fmt, obs[s:e], hi, lo, out=out[s:e],
                        finite=idx is None and self._finite_exact(s, e))
        return out.reshape(shape)

    def model_columns(self) -> dict[str, Any]:
        """What a sweep keeps of the model, in one pass over the chunks: ``exact`` (float64),
        ``err_model`` (the model's own ULP error, as :meth:`ulp_error` of :attr:`bits`) and
        ``fired`` (as :attr:`fired`), and ``fired_counts`` (rule ID -> its elements) where
        the finisher has them (one chunk: ``finish.fired_counts``). The exact value is
        computed once and kept."""
        bits = self._flat_bits()
        if self.result_format == "bool":
            return {"exact": self.exact.reshape(-1), "err_model": np.zeros(self._n),
                    "fired": {k: v.reshape(-1) for k, v in self.fired.items()}}
        fmt = self._ctx.fmt
        cached = self._exact
        keep = cached is None
        if cached is not None:
            hi_all, lo_all = cached
        else:  # (one chunk, as in a sweep: its own arrays are taken below)
            size = 0 if self._n <= CHUNK else self._n
            hi_all, lo_all = np.empty(size), np.empty(size)
        err = np.empty(self._n)
        fired: dict[str, np.ndarray] = {}
        counts: dict[str, int] | None = None
        for s, e in self._spans():
            core = self._core(s, e)
            if keep and e - s == self._n:  # one chunk (a sweep's): its arrays, not copies
                hi_all, lo_all = core.hi, core.lo
            elif keep:
                hi_all[s:e], lo_all[s:e] = core.hi, core.lo
            f = finish.facts(self._ctx, [a[s:e] for a in self._flat], core)
            _ulp_errors(fmt, bits[s:e], core.hi, core.lo, out=err[s:e],
                        finite=self._finite_exact(s, e), values=f.result_values,
                        hi32=None if self._exact32 is None else self._exact32[s:e])
            for k, m in finish.fired_rules(f).items():
                if e - s == self._n:  # one chunk: its masks (read-only, as fired's)
                    fired[k] = m
                    continue
                if k not in fired:
                    fired[k] = np.zeros(self._n, dtype=bool)
                fired[k][s:e] = m
            if e - s == self._n:  # one chunk (a sweep's): the counts the finisher has
                counts = finish.fired_counts(f)
        self._exact = (hi_all, lo_all)
        self._fired = dict(sorted(fired.items()))
        cols = {"exact": hi_all, "err_model": err, "fired": dict(self._fired)}
        if counts is not None:
            cols["fired_counts"] = counts
        return cols

    def verdict(self, i: Any, observed: Any) -> explain.Verdict:
        """The verdict on one observed result of element ``i``: conformant or not, the one
        sentence that says why, and the ULP error where it means something."""
        j = self._index(i)
        if self.result_format == "bool":
            return explain.verdict(self, self._facts_at(j), bool(observed))
        # (the element's sets: kept where the evaluation is one element, as an app's is,
        # and its allowed set was shown already)
        return explain.verdict(self, self._facts_at(j), int(np.asarray(observed).reshape(-1)[0]),
                               self._sets(j, j + 1))

    # -- rules and explanations ---------------------------------------------------------------
    @property
    def fired(self) -> dict[str, np.ndarray]:
        """rule ID -> bool array: the rules that decided each element."""
        if self._fired is None:
            out: dict[str, np.ndarray] = {}
            for s, e in self._spans():
                for k, m in finish.fired_rules(self._facts(s, e)).items():
                    if k not in out:
                        out[k] = np.zeros(self._n, dtype=bool)
                    out[k][s:e] = m
            self._fired = dict(sorted(out.items()))
        return {k: v.reshape(self.shape) for k, v in self._fired.items()}

    def _index(self, i: Any) -> int:
        if isinstance(i, tuple):
            try:
                return int(np.ravel_multi_index(i, self.shape))
            except ValueError:
                raise ValueError(f"element {i} out of range for shape {self.shape}") from None
        i = int(i)
        if not -self._n <= i < self._n:
            raise ValueError(f"element {i} out of range for {self._n} element(s)")
        return i % self._n

    def rules_at(self, i: Any) -> list[str]:
        """Rule IDs that fired for element ``i`` (flat index or index tuple)."""
        return list(finish.fired_rules(self._facts_at(self._index(i))))

    def explain_at(self, i: Any) -> list[str]:
        """Plain-English sentences, one per fired rule, naming the rule IDs."""
        j = self._index(i)
        return explain.sentences(self, self._facts_at(j), j)

    def steps_at(self, i: Any) -> list[str]:
        """The step-by-step "why": operands, input flush, exact op, rounding, output, set."""
        j = self._index(i)
        return explain.steps(self, self._facts_at(j), j)

    def __repr__(self) -> str:
        return (f"Evaluation(op={self.op!r}, format={self.format!r}, rules={self.rules!r}, "
                f"shape={self.shape})")
