"""Conversion ops of evaluate(): delegate to model.convert (float <-> float) and model.numeric
(int, UNORM, SNORM, sRGB, dtof), and wrap their results in the Evaluation interface."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import numeric
from ..convert import convert
from ..formats import F32, FORMATS, get_format
from . import grid
from .rules import rule_text

__all__ = ["conversion_specs", "ConvEvaluation"]

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
             lambda b, n=n: numeric.f32_to_unorm(b, n)),
            (f"to_snorm{n}", "f32", f"snorm{n}", f"f32 -> SNORM{n}",
             lambda b, n=n: numeric.f32_to_snorm(b, n)),
            (f"from_unorm{n}", f"unorm{n}", "f32", f"UNORM{n} -> f32",
             lambda c, n=n: numeric.unorm_to_f32(c, n)),
            (f"from_snorm{n}", f"snorm{n}", "f32", f"SNORM{n} -> f32",
             lambda c, n=n: numeric.snorm_to_f32(c, n)),
        ]
    return rows


def conversion_specs(OpSpec: Any) -> list:
    """OpSpecs for every conversion op (registered into OPS by evaluate.py)."""
    specs = []
    for op, src, dst, text, fn in _numeric_rows():
        specs.append(OpSpec(op, 1, (src,), dst, text, _numeric_handler(fn, src, dst)))
    for d in _FLOATS:
        specs.append(OpSpec(f"to_{d}", 1, _FLOATS, d, f"convert to {d} (CONVERSIONS.md, d3d)",
                            _float_handler(d)))
    specs.append(OpSpec("f32tof16", 1, ("f32",), "f16", "f32 -> f16 (CONV-F16-INSTR)",
                        _float_handler("f16", "f32")))
    specs.append(OpSpec("f16tof32", 1, ("f16",), "f32", "f16 -> f32 (CONV-F16-INSTR)",
                        _float_handler("f32", "f16")))
    return specs


def _numeric_handler(fn: Callable, src: str, dst: str) -> Callable:
    def handler(op: str, operands: tuple, fmt: Any, rules: str, opts: dict) -> "ConvEvaluation":
        r = fn(operands[0])
        kind_fmt = F32 if r.kind == "f32" else None
        exact = np.asarray(r.exact, dtype=np.float64)
        bits = np.asarray(r.bits)
        allowed = r.allowed
        if kind_fmt is not None:  # CONV-NAN: a NaN result accepts any NaN
            nan = F32.is_nan(bits)

            def allowed(obs: Any) -> np.ndarray:
                ob = F32.as_bits(obs)
                with np.errstate(invalid="ignore"):
                    return np.asarray(r.allowed(ob)) | (nan & F32.is_nan(ob))

        return ConvEvaluation(op, dst, rules, bits, exact, np.asarray(r.lo),
                              np.asarray(r.hi), r.fired, kind_fmt, allowed, [])

    return handler


def _float_handler(dst_name: str, fixed_src: str | None = None) -> Callable:
    def handler(op: str, operands: tuple, fmt: Any, rules: str, opts: dict) -> "ConvEvaluation":
        src = get_format(fixed_src) if fixed_src else fmt
        dst = FORMATS[dst_name]
        o = {"neg_inf_to_unsigned": opts["neg_inf_to_f11"]} if not dst.signed else None
        variant = "d3d" if rules != "ieee754" else "ieee"
        r = convert(operands[0], src, dst, variant, options=o)
        bits = np.asarray(r.bits)
        with np.errstate(invalid="ignore"):
            exact = src.decode(np.asarray(r.src_bits))
        if not dst.signed:  # CONV-UNSIGNED / F11-CLAMP: below zero the op's exact result is 0
            keep_inf = opts["neg_inf_to_f11"] == "inf"
            exact = np.where(exact < 0, np.where(np.isinf(exact) & keep_inf, np.inf, 0.0), exact)
        nan = dst.is_nan(bits)

        def allowed(obs: Any) -> np.ndarray:  # CONV-NAN: any NaN stands for NaN
            ob = dst.as_bits(obs)
            return (ob == bits) | (nan & dst.is_nan(ob))

        explain = [r.explain_at]
        return ConvEvaluation(op, dst.name, rules, bits, exact, bits, bits, r.fired, dst,
                              allowed, explain)

    return handler


class ConvEvaluation:
    """The Evaluation interface over a conversion result (bits, exact, window, rules)."""

    def __init__(self, op: str, result_format: str, rules: str, bits: np.ndarray,
                 exact: np.ndarray, lo: np.ndarray, hi: np.ndarray, fired: dict,
                 fmt: Any, allowed_fn: Callable, explain: list) -> None:
        self.op, self.result_format, self.rules = op, result_format, rules
        self.bits, self.exact, self.lo, self.hi = bits, exact, lo, hi
        self.shape = bits.shape
        self._fired = fired
        self._fmt = fmt
        self._allowed = allowed_fn
        self._explain = explain
        self.readings: list[str] = []

    @property
    def fired(self) -> dict[str, np.ndarray]:
        return {k: np.broadcast_to(v, self.shape) for k, v in self._fired.items() if np.any(v)}

    @property
    def nan_ok(self) -> np.ndarray:
        if self._fmt is None:
            return np.zeros(self.shape, bool)
        return self._fmt.is_nan(self.bits)

    def allowed(self, observed: Any) -> np.ndarray:
        """Is each observed result conformant (window of the conversion rule)?"""
        try:
            return np.asarray(self._allowed(observed))
        except (TypeError, OverflowError) as exc:
            raise ValueError(f"observed result: {exc}") from None

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
            v = float(self._fmt.decode(np.array([p], dtype=self._fmt.dtype))[0])
            return f"0x{p:0{(self._fmt.bits + 3) // 4}X} ({v!r})"

        lines = [f"{self.op} under {self.rules}",
                 f"exact result: {float(np.asarray(self.exact).reshape(-1)[j])!r}",
                 f"model result: {show(self.bits)}",
                 f"allowed window: {show(self.lo)} .. {show(self.hi)}"]
        return lines + self.explain_at(j)
