"""The op table: one OpSpec row per operation (engine/oprow.py says what a row holds).

A row carries the op's operand count, formats, result kind, family (the name of its
record, engine/families.py: which computation, engine/compute.py, and which allowed-set
shape, engine/finish/), its tolerance rows
(a group of engine/tolerances.py), its exact function, its numpy kernels and its GPU
spellings. The engine, the shaders (gpu/shaders.py, gpu/wgsl_shaders.py), the CLI and the
app read the rows; an op is added by adding a row (or by :func:`register_op`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

import numpy as np

from . import fastbits as k
from . import tolerances as tol
from .exact import scalar as sc
from .exact import unary as ex
from .exact import vector as exv
from .families import FAMILIES  # (re-exported: family name -> its record)
from .oprow import OpSpec, Spelling, TolRow, UnaryMath

__all__ = ["OpSpec", "TolRow", "UnaryMath", "Spelling", "OPS", "FAMILIES", "register_op",
           "unregister_op", "generation", "RowTable"]

_IEEE3 = ("f32", "f16", "f64")
#: + the formats D3D defines no arithmetic for (FloatFormat.d3d_arith False): IEEE 754 ops
#: in their own range, under ieee754 only (engine/rules.py arithmetic_gap refuses d3d)
_ALL3 = _IEEE3 + ("bf16", "e5m2", "e4m3")
_F32_F16 = ("f32", "f16")
_F32 = ("f32",)


#: the fast kernels of the arithmetic ops of each kind, per format
_NUMPY_EXACT = {"f32": k.f32_numpy, "f64": k.f64_numpy, "f16": k.f16_exact}
_NUMPY_ROUNDED = {"f32": k.f32_numpy, "f64": k.f64_numpy, "f16": k.f16_rounded}
_COMPARE = {f: k.compare for f in _IEEE3}  # (numpy has float types for these)
def _both_inf(f: Any) -> np.ndarray:
    """Both operands are infinities (f: the finisher's facts, engine/finish/facts.py)."""
    return f.operand_is_inf(0) & f.operand_is_inf(1)


#: the GPU report's random operands of the positive-domain ops (sqrt, rsq, log)
_ULP_POSITIVE = (("normals", -125, 127, False),)
#: F32-IDENT: x + 0, 0 + x (and x - 0, 0 - x: the result is the other operand, negated or not)
_ZERO_EITHER = ((0, 0.0), (1, 0.0))
#: the shader formats (gpu/shaders.py: f16 on f16vec2 pairs; gpu/wgsl_shaders.py)
_GPU3 = ("f32", "f64", "f16")
_GLSL_NO_F64 = ("f32", "f16")


def _infix(sym: str) -> Spelling:
    return Spelling(f"{{0}} {sym} {{1}}", _GPU3, f"{{0}} {sym} {{1}}", _GPU3,
                    shown_f16=f"float16_t a {sym} b", hlsl=f"{{0}} {sym} {{1}}")


def _call(glsl: str, wgsl: str, hlsl: str, glsl_formats: tuple[str, ...] = _GPU3,
          **kw: str) -> Spelling:
    return Spelling(f"{glsl}({{0}})", glsl_formats, f"{wgsl}({{0}})", _GPU3,
                    hlsl=f"{hlsl}({{0}})", **kw)


def _dot(n: int) -> Spelling:
    a = ", ".join(f"{{{i}}}" for i in range(n))
    b = ", ".join(f"{{{i + n}}}" for i in range(n))
    return Spelling(f"dot(vec{n}({a}), vec{n}({b}))", _F32,
                    f"dot(vec{n}<f32>({a}), vec{n}<f32>({b}))", _F32,
                    hlsl=f"dot(float{n}({a}), float{n}({b}))")


def _arith(name: str, sym: str, tols: tuple[TolRow, ...], **kw: object) -> OpSpec:
    return OpSpec(name, 2, _ALL3, "same", f"a {sym} b", "arith", tolerances=tols,
                  gpu=_infix(sym), **kw)  # type: ignore[arg-type]


def _dp(n: int) -> OpSpec:
    return OpSpec(f"dp{n}", 2 * n, _F32_F16, "same",
                  f"{n}-term dot product (a0..a{n - 1}, b0..b{n - 1})" if n > 2
                  else "a0*b0 + a1*b1 (operands a0 a1 b0 b1)", "fused", tolerances=tol.FUSED,
                  scalar=sc.fused, gpu=_dot(n))


def _round(name: str, text: str, fn: np.ufunc, scalar: Callable[[Any], Any],
           gpu: Spelling) -> OpSpec:
    return OpSpec(name, 1, _F32_F16, "same", f"round to integral, {text}", "round",
                  tolerances=tol.EXACT, scalar=scalar, numpy=fn, fast={"f32": k.f32_round},
                  gpu=gpu)


def _compare(name: str, fn: np.ufunc, scalar: Callable[[Any, Any], Any], sym: str) -> OpSpec:
    return OpSpec(name, 2, _ALL3, "bool", f"comparison {name}", "compare",
                  tolerances=tol.BOOL, scalar=scalar, numpy=fn, fast=_COMPARE,
                  gpu=_infix(sym))


_ROWS = [
    _arith("add", "+", tol.F32_PREC, exact=exv.exact_add, scalar=sc.add,
           numpy=np.add, fast=_NUMPY_EXACT, vouched_finite=_F32_F16, identities=_ZERO_EITHER,
           invalid=lambda f: _both_inf(f) & f.signs_differ()),
    _arith("sub", "-", tol.F32_PREC, exact=exv.exact_sub, scalar=sc.sub,
           numpy=np.subtract, fast=_NUMPY_EXACT, vouched_finite=_F32_F16,
           identities=_ZERO_EITHER, invalid=lambda f: _both_inf(f) & ~f.signs_differ()),
    _arith("mul", "*", tol.F32_PREC, exact=exv.exact_mul, scalar=sc.mul,
           numpy=np.multiply, fast={**_NUMPY_EXACT, "f16": k.f16_mul},
           vouched_finite=_F32_F16, identities=((0, 1.0), (1, 1.0)),
           # INF * 0: the exact product is a NaN of no NaN operand (two masks the
           # finisher has already, not four operand tests)
           invalid=lambda f: f.exact_nan & ~f.nan_in),
    _arith("div", "/", tol.DIV, exact=exv.exact_div, scalar=sc.div,
           numpy=np.divide, fast=_NUMPY_ROUNDED, vouched_finite=_F32, identities=((1, 1.0),),
           rcp_route=True, ulp_inputs=(("normals", -60, 60, True),) * 2, invalid=_both_inf),
    OpSpec("mad", 3, _ALL3, "same", "a * b + c (fused)", "fused", tolerances=tol.FUSED,
           scalar=sc.fused, fast={"f32": k.f32_mad}, vouched_finite=_F32_F16,
           gpu=Spelling("{0} * {1} + {2}", _GPU3, "{0} * {1} + {2}", _GPU3,
                        shown="a * b + c (precise: not fused)",
                        shown_f16="float16_t a * b + c (precise)",
                        wgsl_note="a * b + c (WGSL has no 'precise': the compiler may "
                                  "fuse it into an fma)", hlsl="mad({0}, {1}, {2})")),
    _dp(2), _dp(3), _dp(4),
    OpSpec("min", 2, _ALL3, "same", "minimum (minNum rules)", "select",
           tolerances=tol.SELECT, scalar=sc.minimum, numpy=np.minimum,
           fast={"f32": k.f32_numpy}, picks_least=True,
           gpu=Spelling("min({0}, {1})", _GPU3, "min({0}, {1})", _GPU3,
                        hlsl="min({0}, {1})")),
    OpSpec("max", 2, _ALL3, "same", "maximum (maxNum rules)", "select",
           tolerances=tol.SELECT, scalar=sc.maximum, numpy=np.maximum,
           fast={"f32": k.f32_numpy}, gpu=Spelling("max({0}, {1})", _GPU3, "max({0}, {1})", _GPU3,
                        hlsl="max({0}, {1})")),
    OpSpec("sqrt", 1, _ALL3, "same", "square root", "unary", tolerances=tol.SQRT,
           math=ex.SQRT, numpy=np.sqrt, fast=_NUMPY_ROUNDED, vouches_nan=True,
           ulp_inputs=_ULP_POSITIVE, gpu=_call("sqrt", "sqrt", "sqrt")),
    OpSpec("rsq", 1, _F32_F16, "same", "1 / sqrt(x)", "unary", tolerances=tol.REL_2_21,
           math=ex.RSQ, fast={"f32": k.f32_float64}, ulp_inputs=_ULP_POSITIVE,
           gpu=_call("inversesqrt", "inverseSqrt", "rsqrt")),
    OpSpec("rcp", 1, _ALL3, "same", "1 / x", "unary", tolerances=tol.RCP, math=ex.RCP,
           numpy=k.f32_rcp, fast={"f32": k.f32_numpy}, vouched_finite=_F32,
           ulp_inputs=(("normals", -125, 125, True),), gpu=Spelling("{one} / {0}", _GPU3, "{one} / {0}", _GPU3,
                                                      hlsl="rcp({0})")),
    OpSpec("log", 1, _F32_F16, "same", "log2(x)", "unary", tolerances=tol.LOG,
           math=ex.LOG2, fast={"f32": k.f32_float64}, ulp_inputs=_ULP_POSITIVE,
           gpu=_call("log2", "log2", "log2", _GLSL_NO_F64)),
    OpSpec("exp", 1, _F32_F16, "same", "2^x", "unary", tolerances=tol.REL_2_21,
           math=ex.EXP2, fast={"f32": k.f32_float64},
           ulp_inputs=(("uniform", -125, 127, False),),
           gpu=_call("exp2", "exp2", "exp2", _GLSL_NO_F64)),
    OpSpec("frc", 1, _F32_F16, "same", "x - round_ni(x), in [+0, 1)", "frc",
           tolerances=tol.FRC, scalar=sc.frc, fast={"f32": k.f32_frc}, gpu=_call("fract", "fract", "frac")),
    _round("round_ne", "nearest even", np.rint, sc.round_ne,
           _call("roundEven", "round", "round",
                 wgsl_note="round() (WGSL: round half to even)")),
    _round("round_ni", "toward -INF", np.floor, sc.round_ni, _call("floor", "floor", "floor")),
    _round("round_pi", "toward +INF", np.ceil, sc.round_pi, _call("ceil", "ceil", "ceil")),
    _round("round_z", "toward zero", np.trunc, sc.round_z, _call("trunc", "trunc", "trunc")),
    OpSpec("mov", 1, _ALL3, "same", "raw move: keeps every bit (F32-FTZ exempt)", "mov",
           tolerances=tol.RAW, scalar=sc.same,
           gpu=Spelling("{0}", _GPU3, "{0}", _GPU3, shown="assignment (raw move)",
                        shown_f16="assignment (raw move)", hlsl="asfloat(asuint({0}))")),
] + [_compare(c, fn, exact, sym) for c, fn, exact, sym in (
    ("eq", np.equal, sc.eq, "=="), ("ne", np.not_equal, sc.ne, "!="),
    ("lt", np.less, sc.lt, "<"), ("le", np.less_equal, sc.le, "<="),
    ("gt", np.greater, sc.gt, ">"), ("ge", np.greater_equal, sc.ge, ">="))]


def _conversion_specs() -> list[OpSpec]:
    from .conversions import conversion_rows

    return [OpSpec(name, 1, formats, result, text, "conversion", handler, scalar=scalar)
            for name, formats, result, text, handler, scalar in conversion_rows()]


#: op name -> OpSpec: the math ops above, then the conversion ops (engine/conversions.py).
OPS: dict[str, OpSpec] = {r.name: r for r in _ROWS}
OPS.update((s.name, s) for s in _conversion_specs())

_GENERATION = [0]


def register_op(spec: OpSpec) -> None:
    """Add an op row at run time (a plug-in, a test): every reader of :data:`OPS` (the
    engine, the CLI, the pickers) and the shader tables built from the rows see it."""
    if spec.name in OPS:
        raise ValueError(f"op {spec.name!r} exists already")
    OPS[spec.name] = spec
    _GENERATION[0] += 1


def unregister_op(name: str) -> None:
    """Remove an op row added by :func:`register_op`."""
    del OPS[name]
    _GENERATION[0] += 1


def generation() -> int:
    """A count that changes whenever a row is added or removed (tables built from the
    rows, such as gpu/shaders.py's, rebuild when it moved)."""
    return _GENERATION[0]


_K = TypeVar("_K")
_V = TypeVar("_V")


class RowTable(Mapping[_K, _V]):
    """A table built from the op rows, built again when a row is added or removed
    (:func:`register_op`): readers index it like the dict it holds (the GLSL and WGSL
    kernels of gpu/, the expression language's intrinsics)."""

    def __init__(self, build: Callable[[], dict[_K, _V]]) -> None:
        self._build = build
        self._generation = -1
        self._table: dict[_K, _V] = {}

    def _current(self) -> dict[_K, _V]:
        g = generation()
        if g != self._generation:
            self._table, self._generation = self._build(), g
        return self._table

    def __getitem__(self, key: _K) -> _V:
        return self._current()[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(list(self._current()))

    def __len__(self) -> int:
        return len(self._current())
