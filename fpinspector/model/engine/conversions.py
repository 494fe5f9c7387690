"""Conversion ops of evaluate(): delegate to model.convert (float <-> float) and model.numeric
(int, UNORM, SNORM, sRGB, dtof), and wrap their results in the Evaluation interface with
exact allowed sets (zeros distinct, any NaN where the result is NaN: CONV-NAN)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ..convert import convert, numeric
from ..formats import F32, FORMATS, FloatFormat, get_format
from . import grid
from .allowed import AllowedArrays, AllowedSet
from .exact import scalar as sc
from .explain import Verdict
from .rules import rule_set, rule_text

__all__ = ["conversion_rows", "ConvEvaluation"]

_FLOATS = ("f64", "f32", "f16", "f11", "f10")


def _numeric_rows() -> list[tuple[str, str, str, str, Callable]]:
    """(op, operand kind, result kind, text, function)."""
    rows = [
        ("ftoi", "f32", "i32", "f32 -> int32, toward zero, clamped, NaN -> 0", numeric.ftoi),
        ("ftou", "f32", "u32", "f32 -> uint32, toward zero, clamped, NaN -> 0", numeric.ftou),
        ("itof", "i32", "f32", "int32 -> f32 (either neighbour conformant)", numeric.itof),
        ("utof", "u32", "f32", "uint32 -> f32 (either neighbour conformant)", numeric.utof),
        ("dtof", "f64", "f32", "f64 -> f32, nearest even", numeric.dtof),
        ("to_srgb8", "f32", "srgb8", "linear f32 -> sRGB8 code", numeric.f32_to_srgb8),
        ("from_srgb8", "srgb8", "f32", "sRGB8 code -> linear f32", numeric.srgb8_to_f32),
    ]
    for n in (8, 16):
        rows += [
            (f"to_unorm{n}", "f32", f"unorm{n}", f"f32 -> UNORM{n}",
             partial(numeric.f32_to_unorm, n=n)),
            (f"to_snorm{n}", "f32", f"snorm{n}", f"f32 -> SNORM{n}",
             partial(numeric.f32_to_snorm, n=n)),
            (f"from_unorm{n}", f"unorm{n}", "f32", f"UNORM{n} -> f32",
             partial(numeric.unorm_to_f32, n=n)),
            (f"from_snorm{n}", f"snorm{n}", "f32", f"SNORM{n} -> f32",
             partial(numeric.snorm_to_f32, n=n)),
        ]
    return rows


ConversionRow = tuple[str, tuple[str, ...], str, str, Callable, Callable | None]


def conversion_rows() -> list[ConversionRow]:
    """(op, operand formats, result, text, handler, scalar) of every conversion op (the op
    table registers them). ``scalar``: the exact value on an exact operand, for the
    expression instructions f32tof16 and f16tof32 (the value itself: the rounding is
    the step's); None for the others."""
    rows: list[ConversionRow] = []
    for op, src, dst, text, fn in _numeric_rows():
        rows.append((op, (src,), dst, text, _numeric_handler(fn, src, dst), None))
    for d in _FLOATS:
        rows.append((f"to_{d}", _FLOATS, d, f"convert to {d} (d3d rules)", _float_handler(d),
                     None))
    rows.append(("f32tof16", ("f32",), "f16", "f32 -> f16 (CONV-F16-INSTR)",
                 _float_handler("f16", "f32"), sc.same))
    rows.append(("f16tof32", ("f16",), "f32", "f16 -> f32 (CONV-F16-INSTR)",
                 _float_handler("f32", "f16"), sc.same))
    return rows


def _float_sets(fmt: FloatFormat, lo: np.ndarray, hi: np.ndarray, exact: np.ndarray,
                bits: np.ndarray) -> AllowedArrays:
    """Allowed sets of a float result whose conformant values span [lo, hi] (patterns):
    the zero of the exact value's sign only (ALLOWED-ZERO), any NaN where the result is
    NaN (CONV-NAN)."""
    klo = grid.to_key(np.atleast_1d(lo).astype(fmt.dtype), fmt)
    khi = grid.to_key(np.atleast_1d(hi).astype(fmt.dtype), fmt)
    if fmt.signed:
        pos = ~np.signbit(np.atleast_1d(exact))
        klo = np.where(pos, np.maximum(klo, 0), klo)
        khi = np.where(pos, khi, np.minimum(khi, -1))
    nan = np.atleast_1d(fmt.is_nan(bits)).astype(bool)
    klo = np.where(nan, 1, klo)
    khi = np.where(nan, 0, khi)
    return AllowedArrays(fmt, [(klo.reshape(-1), khi.reshape(-1), False)], [], nan.reshape(-1))


def _numeric_handler(fn: Callable, src: str, dst: str) -> Callable:
    out = FORMATS.get(dst)  # a float result (f32), else an integer code
    dtof = out is not None and src in FORMATS  # float to float: CONV-DTOF (the dtof op,
    # to_f32 of an f64 operand)

    def handler(op: str, operands: tuple, fmt: Any, rules: str, opts: dict) -> ConvEvaluation:
        r = fn(operands[0])
        exact = np.asarray(r.exact, dtype=np.float64)
        bits = np.asarray(r.bits)
        if out is not None:
            if dtof:
                sets, bits = _dtof_sets(operands[0], bits, opts)
            else:
                sets = _float_sets(out, np.asarray(r.lo), np.asarray(r.hi), exact, bits)
            return ConvEvaluation(op, out.name, rules, bits, exact, r.fired, out, sets, [])
        lo = np.atleast_1d(np.asarray(r.lo)).astype(np.int64).reshape(-1)
        hi = np.atleast_1d(np.asarray(r.hi)).astype(np.int64).reshape(-1)
        return ConvEvaluation(op, dst, rules, bits, exact, r.fired, None, (lo, hi), [])

    return handler


def _dtof_sets(operand: Any, bits: np.ndarray, opts: dict) -> tuple[AllowedArrays, np.ndarray]:
    """CONV-DTOF: the nearest-even f32; where that is a denormal, also its flushed zero
    (an implementation may flush f32 denormals); where it overflows, +/-INF and/or
    +/-FLT_MAX (option dtof_overflow: both by default). Returns the sets and the model
    bits (INF on overflow when the option allows only INF)."""
    from ..formats import F64

    x = np.atleast_1d(F64.decode(F64.as_bits(operand))).reshape(-1)
    with np.errstate(invalid="ignore"):
        rne = grid.rne(x, np.zeros_like(x), F32)
    k = grid.to_key(rne, F32)
    windows = [(k, k.copy(), False)]
    points = []
    den = grid.is_den(rne, F32)
    points.append((grid.to_key(grid.flush_pat(rne, F32), F32), den))
    ovf = ((rne & np.uint32(0x7FFFFFFF)) == np.uint32(0x7F800000)) & np.isfinite(x)
    sat = grid.to_key(np.where(x < 0, np.uint32(0xFF7FFFFF), np.uint32(0x7F7FFFFF)), F32)
    mode = opts["dtof_overflow"]
    if mode in ("either", "max"):
        points.append((sat, ovf))
    if mode == "max":
        windows = [(np.where(ovf, 1, k), np.where(ovf, 0, k), False)]
    if mode == "inf":
        bits = np.where(ovf.reshape(np.shape(bits)), rne.reshape(np.shape(bits)), bits)
    nan = np.isnan(x)
    if nan.any():  # a NaN allows any NaN and no number (CONV-NAN)
        windows = [(np.where(nan, 1, a), np.where(nan, 0, b), d) for a, b, d in windows]
    return AllowedArrays(F32, windows, points, nan), bits


#: CONV-DTOF's one handler: every f64 -> f32 conversion of an evaluation (the dtof op,
#: to_f32 of an f64 operand) under the D3D rule sets takes it, with its options.
_DTOF = _numeric_handler(numeric.dtof, "f64", "f32")


def _float_handler(dst_name: str, fixed_src: str | None = None) -> Callable:
    def handler(op: str, operands: tuple, fmt: Any, rules: str, opts: dict) -> ConvEvaluation:
        src = get_format(fixed_src) if fixed_src else fmt
        dst = FORMATS[dst_name]
        d3d = rule_set(rules).d3d
        if d3d and dst.d3d_conversion == "dtof" and src.bits > dst.bits:
            return _DTOF(op, operands, fmt, rules, opts)  # CONV-DTOF: one rule, one place
        o = {"neg_inf_to_unsigned": opts["neg_inf_to_f11"]} if not dst.signed else None
        variant = "d3d" if d3d else "ieee"
        r = convert(operands[0], src, dst, variant, options=o)
        bits = np.asarray(r.bits)
        with np.errstate(invalid="ignore"):
            exact = src.decode(np.asarray(r.src_bits))
        if not dst.signed:  # CONV-UNSIGNED / F11-CLAMP: below zero the op's exact result is 0
            keep_inf = opts["neg_inf_to_f11"] == "inf"
            exact = np.where(exact < 0, np.where(np.isinf(exact) & keep_inf, np.inf, 0.0), exact)
        sets = _float_sets(dst, bits, bits, np.where(dst.is_nan(bits), 0.0, exact), bits)
        return ConvEvaluation(op, dst.name, rules, bits, exact, r.fired, dst, sets,
                              [r.explain_at])

    return handler


#: Rules after which a ULP error would mislead: the result was clamped or saturated.
_NO_ULP = {"CONV-F2F-SAT": "the value saturates to the largest finite value",
           "F11-CLAMP": "a value below zero is clamped to 0",
           "CONV-UNSIGNED": "a value below zero is clamped to 0",
           "CONV-NAN": "NaN is involved",
           "CONV-INF": "infinity is involved"}


class ConvEvaluation:
    """The Evaluation interface over a conversion result (bits, exact, allowed sets, rules).

    Float results carry exact allowed sets (:class:`AllowedArrays`); integer-code results
    (ftoi, UNORM, SNORM, sRGB codes) an inclusive code window.
    """

    def __init__(self, op: str, result_format: str, rules: str, bits: np.ndarray,
                 exact: np.ndarray, fired: dict, fmt: FloatFormat | None,
                 sets: Any, explain: list) -> None:
        self.op, self.result_format, self.rules = op, result_format, rules
        self.bits, self.exact = bits, exact
        self.shape = np.shape(bits)
        self._fired = fired
        self._fmt = fmt
        self._sets = sets
        self._explain = explain
        self.readings: list[str] = []

    @property
    def lo(self) -> np.ndarray:
        """Lowest allowed result (the hull; verdicts use the exact set)."""
        return self._hull()[0]

    @property
    def hi(self) -> np.ndarray:
        """Highest allowed result (the hull; verdicts use the exact set)."""
        return self._hull()[1]

    def _hull(self) -> tuple[np.ndarray, np.ndarray]:
        if self._fmt is None:
            lo, hi = self._sets
            return lo.reshape(self.shape), hi.reshape(self.shape)
        fmt = self._fmt
        klo, khi = self._sets.hull()
        empty = klo > khi
        qn = fmt.dtype.type(fmt.quiet_nan)
        lo = np.where(empty, qn, grid.from_key(np.where(empty, 0, klo), fmt))
        hi = np.where(empty, qn, grid.from_key(np.where(empty, 0, khi), fmt))
        return lo.reshape(self.shape), hi.reshape(self.shape)

    @property
    def fired(self) -> dict[str, np.ndarray]:
        return {k: np.broadcast_to(v, self.shape) for k, v in self._fired.items() if np.any(v)}

    @property
    def nan_ok(self) -> np.ndarray:
        if self._fmt is None:
            return np.zeros(self.shape, bool)
        return self._fmt.is_nan(self.bits)

    def _obs(self, observed: Any) -> np.ndarray:
        try:
            if self._fmt is None:
                o = np.asarray(observed)
                if o.dtype.kind not in "iuO" or o.dtype == bool:
                    raise ValueError(f"expected integer codes, got {o.dtype}")
                return o.astype(np.int64)
            return self._fmt.as_bits(observed)
        except (TypeError, OverflowError, ValueError) as exc:
            raise ValueError(f"observed result: {exc}") from None

    def allowed(self, observed: Any) -> np.ndarray:
        """Is each observed result conformant (the conversion rule's exact set)?"""
        o = self._obs(observed)
        shape = np.broadcast_shapes(self.shape, o.shape)
        flat = np.broadcast_to(o, shape).reshape(-1)
        n = int(np.prod(self.shape, dtype=np.int64))
        idx = None if shape == self.shape else np.broadcast_to(
            np.arange(n).reshape(self.shape), shape).reshape(-1)
        if self._fmt is None:
            lo, hi = self._sets
            sel = (lambda a: a) if idx is None else (lambda a: a[idx])
            return ((flat >= sel(lo)) & (flat <= sel(hi))).reshape(shape)
        return self._sets.contains(flat, idx).reshape(shape)

    def allowed_set(self, i: Any = 0) -> AllowedSet:
        """The exact allowed set of element ``i``."""
        j = self._flat(i)
        if self._fmt is None:
            lo, hi = self._sets
            return AllowedSet(self.result_format, ((int(lo[j]), int(hi[j])),), False)
        return self._sets.at(j)

    def ulp_error(self, observed: Any) -> np.ndarray:
        """Error in ULPs of the result format (codes: in codes) vs the exact value."""
        if self._fmt is None:
            return np.asarray(observed, dtype=np.float64) - self.exact
        v = self._fmt.decode(self._fmt.as_bits(observed))
        u = grid.ulp_at(self.exact, np.zeros_like(self.exact), self._fmt)
        with np.errstate(all="ignore"):
            err = (v - self.exact) / u
            err = np.where(np.isinf(self.exact), np.where(v == self.exact, 0.0, v - self.exact), err)
            return np.where(np.isnan(self.exact), np.where(np.isnan(v), 0.0, np.nan), err)

    def verdict(self, i: Any, observed: Any) -> Verdict:
        """Verdict on one observed result (conformant, why, ULP error where meaningful)."""
        j = self._flat(i)
        aset = self.allowed_set(j)
        obs = int(np.asarray(observed).reshape(-1)[0])
        ok = bool(self.allowed(np.asarray(obs)).reshape(-1)[j]) if self.shape else \
            bool(self.allowed(obs))
        rules = self.rules_at(j)
        blocked = [r for r in rules if r in _NO_ULP]
        err: float | None = None
        note = ""
        if blocked:
            note = f"no ULP error: {_NO_ULP[blocked[0]]} ({blocked[0]})"
        else:
            e = float(np.asarray(self.ulp_error(obs)).reshape(-1)[j if self.shape else 0])
            if e == e and abs(e) != float("inf"):
                err = e
            else:
                note = "no ULP error: NaN or infinity is involved"
        short = aset.describe(limit=3)
        if ok:
            reason = f"within the allowed set ({', '.join(rules) or self.op})"
        else:
            reason = f"not in the allowed set {short} ({', '.join(rules) or self.op})"
        return Verdict(ok, reason, err, note, aset)

    def _flat(self, i: Any) -> int:
        if isinstance(i, tuple):
            return int(np.ravel_multi_index(i, self.shape))
        n = int(np.prod(self.shape)) if self.shape else 1
        if not -n <= int(i) < n:
            raise ValueError(f"element {i} out of range for {n} element(s)")
        return int(i) % n

    def rules_at(self, i: Any) -> list[str]:
        j = self._flat(i)
        return sorted(k for k, v in self.fired.items() if np.asarray(v).reshape(-1)[j])

    def explain_at(self, i: Any) -> list[str]:
        j = self._flat(i)
        if self._explain:
            return list(self._explain[0](j))
        return [f"{r}: {rule_text(r)}" for r in self.rules_at(j)]

    def steps_at(self, i: Any) -> list[str]:
        j = self._flat(i)

        def show(a: Any) -> str:
            p = int(np.asarray(a).reshape(-1)[j])
            if self._fmt is None:
                return str(p)
            from .explain import fmt_pattern

            return fmt_pattern(p, self._fmt)

        lines = [f"{self.op} under {self.rules}",
                 f"exact result: {float(np.asarray(self.exact).reshape(-1)[j])!r}",
                 f"model result: {show(self.bits)}",
                 f"allowed: {self.allowed_set(j).describe()}"]
        return lines + self.explain_at(j)
