"""Which conversion rules fired, per element, and plain-English explanations of them.

The masks are computed on first access of :attr:`ConversionResult.fired` from the input
and output values alone (decoded exactly to float64), so a fast conversion pays nothing
for them until someone asks.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from ..formats import F32, F64, FloatFormat
from .table_encoder import table_encode
from .variants import Policy

__all__ = ["ConversionResult", "RULE_TEXT", "is_widening", "CHUNK"]

#: Elements per slice of the rule masks' computation (cache-sized float64 temporaries).
CHUNK = 1 << 16

#: Rule ID -> what it means (the explain_at sentences add the element's values).
RULE_TEXT: dict[str, str] = {
    "CONV-NAN": "NaN becomes a NaN of the target (or 0 where it has none); the NaN bits "
                "need not survive (D3D11.3 §3.2.2)",
    "CONV-INF": "infinity stays infinity where the target has it (D3D11.3 §3.2.2)",
    "CONV-UNSIGNED": "the target has no sign bit: a negative value, -0 included, becomes 0 "
                     "(D3D11.3 §3.1.6 with §3.2.2)",
    "F11-CLAMP": "a result below zero becomes zero in float11/float10 (docs/rules.md F11-CLAMP)",
    "CONV-WIDEN": "widening is exact: every source value is representable (D3D11.3 §3.2.2)",
    "CONV-F2F-SAT": "a finite value too large for the target becomes its largest finite "
                    "value, never infinity (D3D11.3 §3.2.2)",
    "CONV-F2F-RTZ": "converting to a smaller float rounds toward zero (D3D11.3 §3.2.2)",
    "CONV-OVERFLOW": "this mode does not saturate: a finite value beyond the target's range "
                     "becomes infinity, or NaN in a format without one (OCP FP8 E4M3) "
                     "(docs/rules.md CONV-OVERFLOW)",
    "CONV-INF-NAN": "the target has no infinity (OCP FP8 E4M3): an infinity becomes NaN "
                    "outside the saturating modes (docs/rules.md CONV-INF-NAN)",
    "CONV-SAT-OCP": "OCP's saturation mode: a finite value beyond the target's range, and "
                    "an infinity, become its largest finite value (OCP OFP8 rev 1.0, section 5)",
    "ROUND-NEAREST": "this variant rounds to nearest, ties to even (not the D3D rule)",
    "CONV-DTOF": "dtof rounds to nearest, ties to even (D3D11.3 §22)",
    "CONV-DENORM": "a value in the target's denormal range stays denormal where "
                   "representable, else becomes 0 (D3D11.3 §3.2.2)",
    "F32-FTZ": "a float32 denormal is flushed to a sign-preserved zero (docs/rules.md F32-FTZ; "
               "dtof/ftod allow either)",
    "VARIANT-QUIRK": "the vendor code gives a different result than its nominal rounding "
                     "policy would (see the variant's doc)",
}


def is_widening(src: FloatFormat, dst: FloatFormat) -> bool:
    """True when every value of ``src`` is exactly representable in ``dst`` (CONV-WIDEN)."""
    return (dst.exp_bits >= src.exp_bits and dst.frac_bits >= src.frac_bits
            and (dst.signed or not src.signed) and src.name != dst.name)


def _fmt_val(v: float) -> str:
    return repr(float(v)) if np.isfinite(v) or np.isnan(v) else ("+INF" if v > 0 else "-INF")


def _f32_bits_of(b: np.ndarray, src: FloatFormat) -> np.ndarray:
    """Float32 patterns of the source values (exact for small formats; f64 rounds as C does)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if src is F32:
            return b.astype(np.uint32)
        return src.decode(b).astype(np.float32).view(np.uint32)


def _values(fmt: FloatFormat, bits: np.ndarray, other: FloatFormat) -> np.ndarray:
    """Exact values of ``bits``: float32 where neither side of the conversion is f64 (every
    f32/f16/f11/f10 value is a float32, so every comparison the rules make is exact in
    half the memory; f32 patterns are their own values), else float64."""
    if fmt is F64 or other is F64:
        return fmt.decode(bits)
    if fmt is F32:
        return bits.view(np.float32)
    return _float32_table(fmt)[bits]


@lru_cache(maxsize=8)
def _float32_table(fmt: FloatFormat) -> np.ndarray:
    """Every pattern's value of a small format as float32 (exact)."""
    with np.errstate(invalid="ignore"):
        return fmt.decode(np.arange(1 << fmt.bits, dtype=np.uint64).astype(fmt.dtype)
                          ).astype(np.float32)


class ConversionResult:
    """Result of :func:`fpinspector.model.convert.convert`.

    Attributes
    ----------
    bits : ndarray or numpy scalar
        Target patterns in the target's storage dtype.
    fired : dict[str, ndarray of bool]
        Rule ID -> where it decided the result (same shape as ``bits``), computed lazily.
    """

    def __init__(self, bits: Any, src_bits: np.ndarray, src: FloatFormat, dst: FloatFormat,
                 variant: Any, options: dict) -> None:
        self.bits = bits
        self.src_bits = src_bits
        self.src = src
        self.dst = dst
        self.variant = variant
        self.options = options

    @cached_property
    def fired(self) -> dict[str, np.ndarray]:
        """Rule ID -> bool mask, for every rule that fired somewhere.

        Computed chunk by chunk (:data:`CHUNK` elements: the float64 temporaries stay in
        the CPU's cache); a rule's mask is allocated when it first fires.
        """
        sb = np.asarray(self.src_bits).reshape(-1)
        db = np.asarray(self.bits).reshape(-1)
        n = sb.shape[0]
        out: dict[str, np.ndarray] = {}
        for start in range(0, n, CHUNK):
            stop = min(n, start + CHUNK)
            for rule, mask in self._fired_part(sb[start:stop], db[start:stop]).items():
                if not mask.any():
                    continue
                full = out.get(rule)
                if full is None:
                    full = out[rule] = np.zeros(n, bool)
                full[start:stop] = mask
        shape = np.shape(self.bits)
        return {k: v.reshape(shape) for k, v in out.items()}

    def _fired_part(self, sb: np.ndarray, db: np.ndarray) -> dict[str, np.ndarray]:
        """The rule masks of one slice of source and result patterns."""
        s, d, var = self.src, self.dst, self.variant
        with np.errstate(invalid="ignore"):
            xs, xd = _values(s, sb, d), _values(d, db, s)
        sign = np.signbit(xs) if s.signed else np.zeros(sb.shape, bool)
        nan, inf = np.isnan(xs), np.isinf(xs)
        fin = ~nan & ~inf
        flush = self.options.get("f32_denorms", var.f32_denorms) == "flush"
        f32den = s.is_denormal(sb) if (s is F32 and flush) else np.zeros(sb.shape, bool)
        out: dict[str, np.ndarray] = {"CONV-NAN": nan, "CONV-INF": inf & np.isinf(xd)}
        neg_u = np.zeros(sb.shape, bool)
        if not d.signed:
            neg_u = sign & ~nan
            out["CONV-UNSIGNED"] = neg_u
            out["F11-CLAMP"] = (xs < 0) & (xd == 0)
        ftz = f32den
        if s.name == d.name:
            pass
        elif is_widening(s, d):
            out["CONV-WIDEN"] = ~nan & ~f32den
        else:
            eff = np.where(f32den, 0.0, xs)
            ms, md = np.abs(eff), np.abs(xd)
            sat = fin & (ms > d.max) & (md == d.max)
            if s is F64 and d is F32 or var.policy(d.name).overflow != "clamp":
                out["CONV-F2F-SAT"] = sat
            else:  # the OCP SAT policy of a format D3D defines no conversion into
                out["CONV-SAT-OCP"] = sat | (inf & np.isfinite(xd))
            if not d.d3d_conversion:  # bf16, FP8: D3D's formats keep their own rule rows
                out["CONV-OVERFLOW"] = fin & (ms > d.max) & ~np.isfinite(xd) & ~f32den
                out["CONV-INF-NAN"] = inf & np.isnan(xd)
            inexact = fin & np.isfinite(xd) & (xd != eff) & ~sat & ~neg_u
            if s is F64 and d is F32:
                out["CONV-DTOF"] = inexact
                if flush:
                    ftz = ftz | (inexact & (xd == 0) & (ms < F32.smallest_normal))
            elif var.policy(d.name).rounding == "rtz":
                out["CONV-F2F-RTZ"] = inexact & (md < ms)
            else:
                out["ROUND-NEAREST"] = inexact
            out["CONV-DENORM"] = fin & (eff != 0) & (ms < d.smallest_normal) & ~neg_u
            pol = var.policies.get(d.name)
            if pol is not None and pol.kernel is not None:
                out["VARIANT-QUIRK"] = (self._nominal(sb) != db) & ~nan
        out["F32-FTZ"] = ftz
        return out

    def _nominal(self, sb: np.ndarray) -> np.ndarray:
        """What a plain encoder of the variant's nominal (rounding, overflow) policy gives:
        where a vendor kernel differs from it, its quirk fired (VARIANT-QUIRK)."""
        pol = self.variant.policy(self.dst.name)
        return table_encode(_f32_bits_of(sb, self.src), self.dst,
                            Policy(pol.rounding, pol.overflow), "zero")

    def _flat_index(self, i: Any) -> int:
        shape = np.shape(self.bits)
        if isinstance(i, tuple):
            return int(np.ravel_multi_index(i, shape))
        n = int(np.prod(shape)) if shape else 1
        i = int(i)
        if not -n <= i < n:
            raise ValueError(f"element index {i} out of range for {n} elements")
        return i % n

    def rules_at(self, i: Any) -> list[str]:
        """Rule IDs that fired for element ``i`` (flat index or index tuple)."""
        k = self._flat_index(i)
        return [r for r, m in self.fired.items() if m.reshape(-1)[k]]

    def explain_at(self, i: Any) -> list[str]:
        """Plain sentences, one per fired rule, naming the rule ID and the values."""
        k = self._flat_index(i)
        sb = int(np.asarray(self.src_bits).reshape(-1)[k])
        db = int(np.asarray(self.bits).reshape(-1)[k])
        with np.errstate(invalid="ignore"):
            x = float(self.src.decode(sb))
            y = float(self.dst.decode(db))
        sw, dw = (self.src.bits + 3) // 4, (self.dst.bits + 3) // 4
        head = (f"{self.src.name} 0x{sb:0{sw}X} ({_fmt_val(x)}) -> {self.dst.name} "
                f"0x{db:0{dw}X} ({_fmt_val(y)}) under variant {self.variant.name!r}.")
        lines = [head]
        for rule in self.rules_at(k):
            text = f"{rule}: {RULE_TEXT[rule]}."
            if rule == "CONV-F2F-SAT":
                text += f" {_fmt_val(x)} > {self.dst.max!r}, so the result is {self.dst.max!r}."
            elif rule in ("CONV-F2F-RTZ", "ROUND-NEAREST", "CONV-DTOF"):
                text += f" {_fmt_val(x)} is not representable; the result is {_fmt_val(y)}."
            elif rule == "CONV-DENORM":
                kept = ("becomes 0" if db == 0 else "stays a denormal"
                        if self.dst.is_denormal(db) else f"is encoded as {_fmt_val(y)}")
                text += (f" {_fmt_val(x)} is below the smallest normal "
                         f"{self.dst.smallest_normal!r} and {kept}.")
            elif rule == "VARIANT-QUIRK":
                src_k = np.asarray(self.src_bits).reshape(-1)[k:k + 1]
                nominal = int(self._nominal(src_k)[0])
                text += (f" {self.variant.name} gives 0x{db:0{dw}X}; a plain "
                         f"{self.variant.policy(self.dst.name).rounding} encoder gives "
                         f"0x{nominal:0{dw}X}. {self.variant.doc}")
            lines.append(text)
        return lines

    def __repr__(self) -> str:
        return (f"ConversionResult({self.src.name}->{self.dst.name}, variant="
                f"{self.variant.name!r}, shape={np.shape(self.bits)})")
