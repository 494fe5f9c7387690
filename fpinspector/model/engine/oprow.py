"""What one op row holds: the types of the op table's rows (engine/optable.py).

An op is one :class:`OpSpec`: its operand count and formats, its family (which computation
and which allowed-set shape: the family's record, engine/families.py), its tolerance rows, its exact function, its numpy kernels
and its GPU spellings. The engine, the GPU layer, the CLI and the app read these fields;
none of them compares an op's or a family's name. This module holds the types only (no engine import),
so the evaluation context (engine/context.py) can name the row without a cycle.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..formats import OperandType, operand_format
from .families import OpFamily, family
from .tolerances import TolRow

__all__ = ["OpSpec", "TolRow", "UnaryMath", "Spelling", "GPU_FORMATS"]

#: Formats the shader tables know: f32, f64, and f16 (two operands per 32-bit word).
GPU_FORMATS = ("f32", "f64", "f16")


def _no_rational(x: Fraction) -> Fraction | None:
    return None


@dataclass(frozen=True)
class UnaryMath:
    """The exact function of a unary op.

    ``approx(x)``: the float64 value on float64 operands (numpy, vectorised; IEEE special
    values: NaN for NaN, what the function gives at 0 and INF). ``mp(ctx, x)``: the same
    function in an mpmath context: the engine recomputes the elements whose float64 value
    lies too close to a rounding boundary (engine/exact/vector.py), and the finisher the edges of
    a tolerance window (finish/edges.py). ``rational(x)``: the exact value where it is
    rational (``None`` elsewhere: mpmath decides).

    ``exact_hits(x, fin)``: where the float64 value is the exact result (no refinement).
    ``series``: (bound, f): for 0 < |x| < bound, f(x) gives (hi, lo) with a relatively
    exact residual (no tie possible: neither mpmath nor an edge check is needed).
    ``specials``: the special-value table, (operand, exact result) pairs: the exact value
    there is the table's, and the allowed set the one pattern (F32-INSTR: exp(0) = 1).
    ``vector(x, fmt)``: an op's own vectorised (hi, lo), where it is not ``approx``
    refined near boundaries (rcp: a divide with its residual; sqrt: IEEE's root).
    ``accurate``: ``vector`` knows the exact value to ~2^-100 (its residual is exact).
    ``saturates_beyond``: |x| beyond which the exact value is taken as the float64
    function's at +-INF (2^x: beyond 2^16 it is INF or +0 in every format; the scalar entry,
    engine/exact/scalar.py, then keeps no 65536-bit Fraction).
    ``kernel_domain``: the open interval of normal f32 operands the float64 fast kernel
    vouches for (engine/fastbits.py; its result must be normal too).
    ``approx_error``: a relative bound on ``approx``'s error against the exact value, where
    that is finite and nonzero: with it, the expression layer's bounded entry runs the op
    on whole arrays (engine/exact/vector.py ``row_pair``) instead of element by element.
    """

    approx: Callable[[np.ndarray], np.ndarray]
    mp: Callable[[Any, float], Any]
    rational: Callable[[Fraction], Fraction | None] = _no_rational
    exact_hits: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    series: tuple[float, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] | None = None
    specials: tuple[tuple[float, float], ...] = ()
    vector: Callable[..., tuple[np.ndarray, np.ndarray]] | None = None
    accurate: bool = False
    saturates_beyond: float = math.inf
    kernel_domain: tuple[float, float] = (-math.inf, math.inf)
    approx_error: float | None = None

    def in_series(self, x: np.ndarray) -> np.ndarray:
        """The operands the series serves (none without one)."""
        if self.series is None:
            return np.zeros(np.shape(x), dtype=bool)
        return (np.abs(x) < self.series[0]) & (x != 0)

    def special_inputs(self, x: np.ndarray) -> np.ndarray:
        """The operands the special-value table names (-0 and +0 alike)."""
        m = np.zeros(np.shape(x), dtype=bool)
        for v, _ in self.specials:
            m |= x == v
        return m


@dataclass(frozen=True)
class Spelling:
    """How the shading languages write the op, as expressions over ``{0}``, ``{1}``, ...

    ``{one}`` stands for the format's 1.0 literal. ``glsl`` is built for the formats in
    ``glsl_formats`` (f16: on f16vec2 pairs, gpu/shaders.py), ``wgsl`` for
    ``wgsl_formats`` (gpu/wgsl_shaders.py). ``shown`` / ``shown_f16``: the construct
    users see in reports, where it is not the expression itself. ``wgsl_note``: what the
    WGSL route means where it differs from the GLSL one. ``hlsl``: how an HLSL shader
    writes it (fpinspector generates no HLSL: wgpu writes it from the WGSL for D3D12); an
    op whose HLSL is a call of its operands, ``name({0}, ...)``, on floats, is an intrinsic
    of the expression language (``model/expr/intrinsics.py`` reads it from here).
    """

    glsl: str = ""
    glsl_formats: tuple[str, ...] = ()
    wgsl: str = ""
    wgsl_formats: tuple[str, ...] = ()
    shown: str = ""
    shown_f16: str = ""
    wgsl_note: str = ""
    hlsl: str = ""


@dataclass(frozen=True)
class OpSpec:
    """One operation: name, operand count, formats it exists in, result kind, text, and
    what the engine, the shaders and the CLI need to know of it.

    ``result``: "same" (the operand format), "bool", or a format / integer-code name.
    ``handler``: conversion ops only (engine/conversions.py builds their evaluation).
    ``tolerances``: the op's own tolerance rows (engine/tolerances.py adds the shared
    ones). ``exact(vals, fmt, finite)``: the exact value (hi, lo) of arith and fused ops;
    ``scalar(*operands)``: its exact value on exact operands (engine/exact/scalar.py:
    Fraction, mpmath, IEEE's signed zeros, INF, NaN), for the finisher's edge checks and
    the expression layer's exact path: every row's but a unary op's (its ``math`` is its
    exact function) and a conversion's.
    ``math``: a unary op's exact function. ``numpy``: the ufunc the fast kernels call.
    ``fast``: format -> fast bits kernel (engine/fastbits.py; absent: reference only).
    ``vouched_finite``: formats where the exact value of every element a fast kernel
    vouched for is finite (engine/compute.py). ``vouches_nan``: the fast kernel vouches
    for NaN results too (sqrt of a negative normal).
    ``identities``: (operand index, value): where that operand is that value (after the
    input flush) the result is the other operand, exactly (F32-IDENT).
    ``invalid(facts)``: an arith op's invalid operations of INF and zero (F32-INFINF:
    INF - INF, INF * 0, INF / INF), from the finisher's operand classes.
    ``family``: the name of its family's record (engine/families.py), read as
    :attr:`traits`.
    ``picks_least``: min (True) or max (False), for the select family.
    ``rcp_route``: an f32 result may come from the two-step route x * rcp(y) (F32-DIV).
    ``ulp_inputs``: the GPU report measures the op's f32 ULP error on random operands,
    drawn per operand as ("normals", lowest binade, highest binade (excluded), signed) or
    ("uniform", low, high, _) (gpu/report.py); empty: not measured.
    """

    name: str
    arity: int
    formats: tuple[str, ...]
    result: str
    description: str
    family: str
    handler: Callable[..., Any] | None = None
    tolerances: tuple[TolRow, ...] = ()
    exact: Callable[..., tuple[np.ndarray, np.ndarray]] | None = None
    scalar: Callable[..., Any] | None = None
    math: UnaryMath | None = None
    numpy: Callable[..., Any] | None = None
    fast: Mapping[str, Callable[..., tuple]] = field(default_factory=dict)
    vouched_finite: tuple[str, ...] = ()
    vouches_nan: bool = False
    identities: tuple[tuple[int, float], ...] = ()
    invalid: Callable[[Any], np.ndarray] | None = None
    picks_least: bool = False
    rcp_route: bool = False
    ulp_inputs: tuple[tuple[str, int, int, bool], ...] = ()
    gpu: Spelling = Spelling()

    def __post_init__(self) -> None:
        # a family no record describes: ValueError here, not later
        object.__setattr__(self, "_traits", family(self.family))

    @property
    def traits(self) -> OpFamily:
        """The record of the op's family: what the engine asks of it (engine/families.py)."""
        return self._traits  # type: ignore[attr-defined]

    def operand_names(self, count: int | None = None) -> list[str]:
        """What the operands are called: A, B, C...; a0..an-1, b0..bn-1 for a dot product
        (a fused op of an even operand count). ``count``: that many names (default: the
        op's operand count)."""
        n = self.arity if count is None else count
        if self.traits.sums_products and self.arity % 2 == 0 and n % 2 == 0 and n > 3:
            h = n // 2
            return [f"a{i}" for i in range(h)] + [f"b{i}" for i in range(h)]
        return [chr(ord("A") + i) for i in range(n)]

    @property
    def operand_types(self) -> tuple[OperandType, ...]:
        """The types the op takes (``formats`` resolved): float formats, or integer code
        types (i32, u32, unorm8, snorm16, srgb8, ...) for itof, from_unorm8 and the like."""
        return tuple(operand_format(f) for f in self.formats)

    def operand_type(self, fmt: str | OperandType) -> OperandType:
        """The operand type when ``fmt`` is asked for: ``fmt`` itself when the op takes it,
        else the op's only type (itof takes i32 codes whatever is asked); ValueError when the
        op takes several types and ``fmt`` is none of them."""
        want = operand_format(fmt)
        if want.name in self.formats:
            return want
        if len(self.formats) == 1:
            return operand_format(self.formats[0])
        raise ValueError(f"{self.name} takes {', '.join(self.formats)} operands, not {want.name}")
