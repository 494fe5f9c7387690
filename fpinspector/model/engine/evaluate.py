"""evaluate(op, *operands): the public entry point and the Evaluation result object."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..formats import FloatFormat, get_format
from . import explain, grid
from .fast import fast_f32
from .optable import OPS, OpSpec
from .plain import plain_handler
from .result import Ctx, Parts, parts_allowed, run_chunked  # noqa: F401
from .rules import RULE_SETS
from .tolerances import resolve_options, tolerance_for
from .ulp import zero_same_specials

__all__ = ["OpSpec", "OPS", "evaluate", "Evaluation"]


def evaluate(
    op: str,
    *operands: Any,
    format: str = "f32",
    rules: str = "d3d11",
    options: Mapping[str, Any] | None = None,
) -> "Evaluation":
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

    Returns
    -------
    Evaluation
        Model bits, exact value, allowed window, fired rules and explanations.

    Examples
    --------
    >>> ev = evaluate("mul", 0x00000001, 0x3F800000)
    >>> hex(int(ev.bits)), ev.rules_at(0)
    ('0x0', ['F32-FTZ', 'F32-IDENT'])
    """
    spec = OPS.get(op)
    if spec is None:
        raise ValueError(f"unknown op {op!r}; choose one of {', '.join(OPS)}")
    if rules not in RULE_SETS:
        raise ValueError(f"unknown rule set {rules!r}; choose one of {', '.join(RULE_SETS)}")
    fmt = get_format(format)
    conversion = spec.result not in ("same", "bool")
    if fmt.name not in spec.formats and (not conversion or op.startswith("to_f")):
        raise ValueError(f"{op} does not exist for {fmt.name}; formats: {', '.join(spec.formats)}")
    if len(operands) != spec.arity:
        raise ValueError(f"{op} takes {spec.arity} operand(s), got {len(operands)}")
    opts = resolve_options(options)
    if conversion:  # conversion ops delegate to model.convert / model.numeric
        return spec.handler(op, operands, fmt, rules, opts)  # type: ignore[misc]
    arrs = [_as_bits(fmt, o, i) for i, o in enumerate(operands)]
    arrs = np.broadcast_arrays(*arrs)
    shape = arrs[0].shape
    flat = [np.ascontiguousarray(a).reshape(-1) for a in arrs]
    flush = fmt.name == "f32" and rules != "ieee754" and op != "mov"
    ctx = Ctx(op, fmt, rules, opts, flush)
    tol, readings = tolerance_for(op, fmt.name, rules, opts)
    return Evaluation(spec, ctx, tol, readings, flat, shape)


def _as_bits(fmt: FloatFormat, o: Any, i: int) -> np.ndarray:
    if isinstance(o, np.ndarray) and o.dtype == fmt.dtype and fmt.bits in (16, 32, 64):
        return o  # every value of the storage dtype is a pattern: skip the range scan
    try:
        return fmt.as_bits(o)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"operand {'ABCDEFGH'[i] if i < 8 else i}: {exc}") from None


class Evaluation:
    """Result of :func:`evaluate`: model, exact reference, tolerance and the rules that fired.

    Attributes
    ----------
    bits : ndarray
        The model's result patterns (bool for comparisons): the strictest conformant GPU
        (F32-FTZ on input and output where it applies, round to nearest even, the
        canonical quiet NaN for NaN results, recommended min/max zero order).
    result_format : str
        ``"f32"``, ``"f16"``, ``"f64"`` or ``"bool"``.
    exact : ndarray of float64
        The infinitely precise result rounded to float64; ``exact_lo`` is the residual
        (see :mod:`fpinspector.model.engine.exact` for how exact each op is).
    lo, hi : ndarray
        Lowest and highest allowed patterns (value order, inclusive). ``nan_ok`` says
        where any NaN is allowed; where only NaN is, lo = hi = the quiet NaN. Some
        either-way allowances (an unflushed min/max operand, option ftz_output=either)
        are extra single patterns: use :meth:`allowed` for verdicts.
    fired : dict of str to ndarray of bool
        Rule ID -> where that rule decided the result.
    tolerance : Tolerance
        The table row used (tolerances.TOLERANCES), ``readings`` the AMBIGUOUS readings.

    Notes
    -----
    Everything is computed lazily, in cache-sized chunks. Where one exact answer is
    allowed (correctly rounded ops, min/max), ``bits`` and ``allowed`` take a numpy
    float32 fast path for f32 add/sub/mul/div/sqrt/min/max. The full record (exact value,
    window, fired rules) uses lean kernels for "plain" elements (normal operands and
    results: engine/plain*.py) for f32 add/sub/mul/div/mad/sqrt/rcp/rsq/log/exp/frc/
    round_* and f16 add/sub/mul, and the general handlers on every other element; tests
    prove both give the same record bit for bit (tests/model/test_engine_plain.py).
    """

    def __init__(self, spec: OpSpec, ctx: Ctx, tol, readings: list[str],
                 flat: list[np.ndarray], shape: tuple) -> None:
        self.op = spec.name
        self.spec = spec
        self.format = ctx.fmt.name
        self.rules = ctx.rules
        self.options = dict(ctx.opts)
        self.tolerance = tol
        self.readings = readings
        self.shape = shape
        self._ctx = ctx
        self._flat = flat
        self._parts: Parts | None = None
        # lean kernels for plain elements where one exists (same Parts as spec.handler)
        self._handler = plain_handler(spec.name, ctx, tol, spec.handler) or spec.handler
        # the fast bits path pays off where .allowed can use it (one allowed pattern);
        # elsewhere .allowed needs the full record anyway, which also gives the bits
        fast_ok = tol.kind in ("cr", "select") or self._handler is spec.handler
        self._fast = fast_f32(spec, ctx, tol, flat, self._handler) if fast_ok else None

    # -- lazily computed record ---------------------------------------------------------
    @property
    def _p(self) -> Parts:
        if self._parts is None:
            self._parts = run_chunked(self._handler, self._ctx, self.tolerance, self._flat)
            self._parts.readings = self.readings
        return self._parts

    def _shaped(self, a: np.ndarray) -> np.ndarray:
        return a.reshape(self.shape)

    @property
    def result_format(self) -> str:
        """Name of the result's type: the operand format, or ``"bool"`` for comparisons."""
        return "bool" if self.spec.result == "bool" else self.format

    @property
    def bits(self) -> np.ndarray:
        """Model result: the strictest conformant GPU (flush, RNE, canonical quiet NaN)."""
        if self._fast is not None:
            return self._shaped(self._fast.bits)
        return self._shaped(self._p.bits)

    @property
    def operands(self) -> list[np.ndarray]:
        return [self._shaped(a) for a in self._flat]

    @property
    def exact(self) -> np.ndarray:
        """Exact result (float64 nearest; see engine.exact for how exact, per op)."""
        return self._shaped(self._p.hi.copy())

    @property
    def exact_lo(self) -> np.ndarray:
        """Residual: exact = exact + exact_lo (0 where float64 is exact)."""
        return self._shaped(self._p.lo.copy())

    @property
    def nan_ok(self) -> np.ndarray:
        """Whether any NaN is a conformant result (F32-NANOUT)."""
        return self._shaped(self._p.nan_ok.copy())

    def _window_pat(self, k: np.ndarray) -> np.ndarray:
        fmt = self._ctx.fmt
        p = self._p
        empty = p.klo > p.khi
        return self._shaped(np.where(empty, fmt.dtype.type(fmt.quiet_nan), grid.from_key(k, fmt)))

    @property
    def lo(self) -> np.ndarray:
        """Lowest allowed pattern (inclusive); the quiet NaN where only NaN is allowed."""
        if self.result_format == "bool":
            return self.bits
        return self._window_pat(self._p.klo)

    @property
    def hi(self) -> np.ndarray:
        """Highest allowed pattern (inclusive); the quiet NaN where only NaN is allowed."""
        if self.result_format == "bool":
            return self.bits
        return self._window_pat(self._p.khi)

    @property
    def fired(self) -> dict[str, np.ndarray]:
        """rule ID -> bool array: the rules that decided each element."""
        return {k: self._shaped(v) for k, v in self._p.fired.items() if v.any()}

    # -- verdicts -----------------------------------------------------------------------
    def _obs(self, observed: Any) -> tuple[np.ndarray, np.ndarray | None, tuple]:
        """Flat observed patterns, the element index of each (None: same shape), and shape."""
        if self.result_format == "bool":
            o = np.asarray(observed).astype(bool)
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
        flat = np.ascontiguousarray(np.broadcast_to(o, shape)).reshape(-1)
        if shape == self.shape:
            return flat, None, shape
        n = int(np.prod(self.shape, dtype=np.int64))
        idx = np.broadcast_to(np.arange(n).reshape(self.shape), shape).reshape(-1)
        return flat, idx, shape

    def allowed(self, observed: Any) -> np.ndarray:
        """Is each observed result conformant under the rule set (bool array)?

        ``observed`` broadcasts against the evaluation (e.g. several candidate results for
        one scalar evaluation).
        """
        obs, idx, shape = self._obs(observed)
        if idx is None and self._parts is None and self._fast is not None and self._fast.single:
            return self._fast.allowed(obs).reshape(shape)
        return parts_allowed(self._p, obs, idx).reshape(shape)

    def ulp_error(self, observed: Any) -> np.ndarray:
        """Signed error (observed - exact) in ULPs of the result format at the exact value.

        The ULP is the spacing of the exact value's binade (engine.grid.ulp_at: 2^(k-F) for
        |x| in [2^k, 2^(k+1)), the denormal spacing at zero and below the smallest normal,
        the top binade's spacing at and beyond 2^maxexp). Exact INF or NaN: 0 when the
        observation is the same INF / any NaN, else +/-INF (INF exact) or NaN (NaN exact).
        A NaN observation of a non-NaN exact value gives NaN. Comparisons: 0 if equal,
        else INF.
        """
        obs, idx, shape = self._obs(observed)
        p = self._p
        sel = (lambda a: a) if idx is None else (lambda a: a[idx])
        if self.result_format == "bool":
            return np.where(obs == sel(p.bits), 0.0, np.inf).reshape(shape)
        fmt = self._ctx.fmt
        with np.errstate(invalid="ignore"):
            v = fmt.decode(obs)
        hi, lo = sel(p.hi), sel(p.lo)
        u = grid.ulp_at(hi, lo, fmt, specials=False)  # finite u: x / u keeps INF and NaN
        with np.errstate(all="ignore"):
            err = np.subtract(v, hi, out=v)  # in place: v is a fresh decode
            err -= lo
            err /= u
            zero_same_specials(err, hi, obs, fmt)
        return err.reshape(shape)

    # -- explanations -------------------------------------------------------------------
    def _index(self, i: Any) -> int:
        if isinstance(i, tuple):
            return int(np.ravel_multi_index(i, self.shape))
        n = int(np.prod(self.shape, dtype=np.int64))
        i = int(i)
        if not -n <= i < n:
            raise ValueError(f"element {i} out of range for {n} element(s)")
        return i % n

    def rules_at(self, i: Any) -> list[str]:
        """Rule IDs that fired for element ``i`` (flat index or index tuple)."""
        j = self._index(i)
        return sorted(k for k, v in self._p.fired.items() if v[j])

    def explain_at(self, i: Any) -> list[str]:
        """Plain-English sentences, one per fired rule, naming the rule IDs."""
        return explain.sentences(self, self._p, self._index(i))

    def steps_at(self, i: Any) -> list[str]:
        """The step-by-step "why": operands, input flush, exact op, rounding, output, window."""
        return explain.steps(self, self._p, self._index(i))

    def __repr__(self) -> str:
        return (f"Evaluation(op={self.op!r}, format={self.format!r}, rules={self.rules!r}, "
                f"shape={self.shape})")
