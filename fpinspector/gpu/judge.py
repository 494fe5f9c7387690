"""Verdicts for captured results: conformant (rule engine / conversion model), explained by
a named driver deviation, or unexplained. Used by the tests and by the GPU rules report."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.engine.rules import rule_set
from ..model.formats import get_format
from .behaviours import _f64_ftz, _flush_min_normal, behaviour_bits, same_result
from .capture_formats import SHADER_DOUBLE, SHADER_FLOAT
from .deviations import applicable

__all__ = ["classify_with_engine", "classify_conversion", "two_rounding_intermediates",
           "two_rounding_results"]


def _denormal_input(operands: list[np.ndarray]) -> np.ndarray:
    b = np.asarray(operands[0], np.uint32)
    return ((b & np.uint32(0x7F800000)) == 0) & ((b & np.uint32(0x007FFFFF)) != 0)


def two_rounding_intermediates(x64: np.ndarray) -> list[np.ndarray]:
    """The f32 the two-step f64 -> small-float route may pass through
    (TWO-ROUNDINGS-F64-TO-SMALL): float(double) rounded to nearest even and either
    overflowing to INF (IEEE, GLSL) or saturating (D3D's dtof, CONV-DTOF)."""
    d = np.asarray(x64, np.uint64).view(np.float64)
    with np.errstate(all="ignore"):
        ieee = d.astype(np.float32)
    big = np.float32(np.finfo(np.float32).max)
    sat = np.where(np.isinf(ieee) & np.isfinite(d), np.copysign(big, d).astype(np.float32), ieee)
    return [m.view(np.uint32) for m in (ieee, sat)]


def two_rounding_results(x64: np.ndarray, dst: str) -> list[np.ndarray]:
    """What the two-step f64 -> ``dst`` route gives with a D3D-exact render target: the
    D3D f32 -> ``dst`` conversion of each :func:`two_rounding_intermediates`."""
    from fpinspector.model.convert import convert

    return [np.asarray(convert(m, SHADER_FLOAT, dst, "d3d").bits)
            for m in two_rounding_intermediates(x64)]


def classify_with_engine(renderer: str, path: str, op: str, fmt: str, operands: list[np.ndarray],
                         got: np.ndarray, rules: str = "d3d11",
                         options: dict | None = None) -> dict[str, np.ndarray]:
    """Per element: conformant under ``rules``, explained by which deviation, or neither.

    Uses the rule engine (``evaluate(...).allowed``) for the verdict, so tolerance ops
    (rsq, log, exp, dp, ...) are judged by their allowed windows, not bit equality; for
    mad/dp a result equal to the unfused serial evaluation also counts as conformant
    (F32-FUSED: no less accurate than the worst serial order), reported separately as
    ``"serial_order"``. Returns masks: ``"conformant"`` (including serial_order), one
    per deviation id that explains elements, and ``"unexplained"``.
    """
    from fpinspector.model import OPS, evaluate  # lazy: the engine is heavy to import

    from .routes import CONVERSION_OPS
    from .serial import serial_unfused, within_fused_bound

    if (op, fmt) in CONVERSION_OPS:
        src, dst, conv_path = CONVERSION_OPS[(op, fmt)]
        return classify_conversion(renderer, conv_path, src, dst, operands[0], got)
    fused = OPS[op].traits.sums_products
    ev = evaluate(op, *operands, format=fmt, rules=rules, options=options)
    res_fmt = ev.result_format
    ok = np.asarray(ev.allowed(got), bool)
    serial = np.zeros_like(ok)
    if fused and rule_set(rules).d3d:  # (F32-FUSED: D3D's serial orders)
        flushes = get_format(fmt).flushes(rules)
        serial = ~ok & same_result(got, serial_unfused(op, operands, fmt, flushes), fmt)
    out: dict[str, np.ndarray] = {"conformant": ok | serial, "serial_order": serial}
    rest = ~(ok | serial)
    for dev in applicable(renderer, path, op, fmt):
        if not rest.any():
            break
        if dev.behaviour == "ieee754":
            hit = np.asarray(evaluate(op, *operands, format=fmt, rules="ieee754").allowed(got))
            if fused:
                hit = hit | same_result(got, serial_unfused(op, operands, fmt, False), fmt)
                if fmt == SHADER_FLOAT:  # (its bound reads float32 operands)
                    hit = hit | within_fused_bound(op, operands, got)
        elif dev.behaviour == "f64_ftz":
            flushed = [_f64_ftz(o) for o in operands]
            ref = evaluate(op, *flushed, format=fmt, rules="ieee754")
            hit = np.asarray(ref.allowed(got)) | same_result(
                got, _f64_ftz(ref.bits) if res_fmt == SHADER_DOUBLE else ref.bits, res_fmt)
            if fused:
                hit = hit | same_result(got, serial_unfused(op, flushed, fmt, True), fmt)
        elif dev.behaviour == "flush_min_normal" and fused:
            hit = same_result(got, serial_unfused(op, operands, fmt, "before"), fmt) | same_result(
                got, _flush_min_normal(np.asarray(ev.bits)), res_fmt)
        elif dev.behaviour == "denormal_input_any":
            hit = _denormal_input(operands)
        elif dev.behaviour == "two_rounding":  # the second step judged as the render target
            hit = np.zeros_like(rest)
            for mid in two_rounding_intermediates(operands[0]):
                step = classify_conversion(renderer, "render", SHADER_FLOAT, res_fmt, mid, got)
                hit = hit | ~step["unexplained"]
        else:
            alt = behaviour_bits(dev, operands, np.asarray(ev.bits))
            hit = (np.zeros_like(rest) if alt is None  # needs a reference: cannot claim
                   else same_result(got, np.broadcast_to(alt, got.shape), res_fmt))
        rest = _claim(out, dev.id, rest, hit)
    out["unexplained"] = rest
    return out


def _claim(out: dict, dev_id: str, rest: np.ndarray, hit: np.ndarray) -> np.ndarray:
    """Credit the still-unexplained elements that ``hit`` matches to ``dev_id``; return the rest."""
    hit = rest & hit
    if hit.any():
        out[dev_id] = hit
        return rest & ~hit
    return rest


def _conv_model(src: str, dst: str, codes: np.ndarray) -> Any:
    """The model's result for a conversion: convert.convert or a numeric.* function."""
    from fpinspector.model.convert import convert
    from fpinspector.model.convert import numeric as nm

    table = {
        ("f32", "unorm8"): lambda c: nm.f32_to_unorm(c, 8),
        ("f32", "snorm8"): lambda c: nm.f32_to_snorm(c, 8),
        ("f32", "srgb8"): nm.f32_to_srgb8,
        ("unorm8", "f32"): lambda c: nm.unorm_to_f32(c, 8),
        ("snorm8", "f32"): lambda c: nm.snorm_to_f32(c, 8),
        ("srgb8", "f32"): nm.srgb8_to_f32,
        ("f32", "unorm16"): lambda c: nm.f32_to_unorm(c, 16),
        ("f32", "snorm16"): lambda c: nm.f32_to_snorm(c, 16),
        ("unorm16", "f32"): lambda c: nm.unorm_to_f32(c, 16),
        ("snorm16", "f32"): lambda c: nm.snorm_to_f32(c, 16),
        ("rgb9e5", "f32"): _rgb9e5_model,
    }
    if (src, dst) in table:
        return table[(src, dst)](codes)
    return convert(codes, src, dst, "d3d")


def _rgb9e5_model(codes: np.ndarray) -> Any:
    """CONV-RGB9E5 decode: exact, so one f32 per channel."""
    from types import SimpleNamespace

    from fpinspector.model.convert import decode_rgb9e5

    values = decode_rgb9e5(np.asarray(codes, np.int64))
    return SimpleNamespace(bits=values.astype(np.float32).view(np.uint32))


def _conv_alternative(kind: str, codes: np.ndarray, model: Any, dst: str) -> np.ndarray:
    c = np.asarray(codes)
    with np.errstate(all="ignore"):
        if kind == "unorm_mul_rcp":
            return (c.astype(np.float32) * np.float32(1 / 255)).view(np.uint32)
        if kind == "snorm_mul_rcp":
            v = np.maximum(c.astype(np.float32) * np.float32(1 / 127), np.float32(-1))
            return v.view(np.uint32)
        if kind == "unorm16_mul_rcp":
            return (c.astype(np.float32) * np.float32(1 / 65535)).view(np.uint32)
        if kind == "snorm16_mul_rcp":
            v = np.maximum(c.astype(np.float32) * np.float32(1 / 32767), np.float32(-1))
            return v.view(np.uint32)
        if kind in ("snorm_mul_rcp_noclamp", "snorm16_mul_rcp_noclamp"):
            scale = np.float32(1 / 127) if kind.startswith("snorm_") else np.float32(1 / 32767)
            return (c.astype(np.float32) * scale).view(np.uint32)
        if kind == "snorm16_nan_min":
            x = c.astype(np.uint32).view(np.float32)
            return np.where(np.isnan(x), np.int16(-32767), np.asarray(model.bits))
        if kind == "snorm8_nan_min":
            x = c.astype(np.uint32).view(np.float32)
            return np.where(np.isnan(x), np.int8(-127), np.asarray(model.bits))
        if kind == "smallfloat_flush":  # f11 / f10 denormal results stored as 0
            m = np.asarray(model.bits)
            frac = get_format(dst).frac_bits
            w = m.astype(np.int64)
            den = ((w >> frac) == 0) & ((w & ((1 << frac) - 1)) != 0)
            return np.where(den, np.zeros_like(m), m)
        if kind == "snorm_nan_min":
            x = c.astype(np.uint32).view(np.float32)
            low = np.isnan(x) | (x < -1)
            return np.where(low, np.int8(-128), np.asarray(model.bits))
    raise ValueError(f"unknown conversion behaviour {kind!r}")


def classify_conversion(renderer: str, path: str, src: str, dst: str, codes: np.ndarray,
                        got: np.ndarray) -> dict[str, np.ndarray]:
    """Per element of a hardware conversion: conformant to the model (CONV-* rules, "d3d"
    variant; NaN matches any NaN), explained by a deviation, or unexplained."""
    model = _conv_model(src, dst, codes)
    if hasattr(model, "allowed"):
        ok = np.asarray(model.allowed(got), bool)
        exact = np.asarray(model.exact, np.float64)
    else:
        ok = same_result(got, np.asarray(model.bits), dst)
        exact = None
    out: dict[str, np.ndarray] = {"conformant": ok}
    rest = ~ok
    for dev in applicable(renderer, path, "convert", f"{src}->{dst}"):
        if not rest.any():
            break
        if dev.behaviour == "srgb_encode_bound" and exact is not None:
            hit = np.abs(got.astype(np.float64) - exact) <= 0.66
        else:
            alt = _conv_alternative(dev.behaviour, codes, model, dst)
            hit = same_result(np.asarray(got), alt, dst)
        rest = _claim(out, dev.id, rest, hit)
    out["unexplained"] = rest
    return out
