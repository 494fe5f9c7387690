"""Rounding anatomy: why one value became the pattern it did in a target format.

Shows the exact input (a Fraction), its two neighbours in the target, the guard, round and
sticky bits of the part that does not fit, the direction taken and the reason (toward zero
per CONV-F2F-RTZ, nearest with ties to even, saturation, vendor quirks). All arithmetic is
exact (Fractions); this is a one-value explainer, not a vectorized path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from ..convert.floats import convert
from ..convert.variants import Variant, get_variant
from ..formats import F32, F64, FloatFormat, encode_exact, get_format, read_decimal

__all__ = ["Anatomy", "rounding_anatomy"]

Num = Fraction | float


@dataclass
class Anatomy:
    """The rounding of one value into ``dst`` (values as Fractions, specials as floats).

    ``lower``/``upper``: the neighbours by value (``None`` where the target has none, e.g.
    below 0 in f11/f10); ``guard``/``round``/``sticky``: the first, second and OR of all
    further bits below the last kept fraction bit; ``direction``: ``"exact"``,
    ``"toward_zero"``, ``"away_from_zero"``, ``"nan"`` or ``"infinity"``.
    """

    exact: Num
    dst: str
    variant: str
    result_bits: int
    result_value: Num
    lower_bits: int | None
    lower_value: Num | None
    upper_bits: int | None
    upper_value: Num | None
    guard: int
    round: int
    sticky: int
    kept: int
    direction: str
    reason: str
    rules: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """A short multi-line text rendering for CLI/UI."""
        w = (get_format(self.dst).bits + 3) // 4

        def pat(b: int | None, v: Num | None) -> str:
            return "none" if b is None or v is None else f"0x{b:0{w}X} = {float(v)!r}"

        return [f"exact input : {self.exact} ({float(self.exact)!r})",
                f"lower       : {pat(self.lower_bits, self.lower_value)}",
                f"upper       : {pat(self.upper_bits, self.upper_value)}",
                f"guard/round/sticky : {self.guard} {self.round} {self.sticky}",
                f"result ({self.variant}) : {pat(self.result_bits, self.result_value)}",
                f"direction   : {self.direction}",
                f"why         : {self.reason}"]

    def text(self) -> str:
        """:meth:`lines` joined with newlines."""
        return "\n".join(self.lines())


def _exact(value: Any) -> Num:
    if isinstance(value, (Fraction, int)) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, float):
        return value if not np.isfinite(value) else Fraction(value)
    if isinstance(value, (str, Decimal)):
        try:
            t = str(value).strip()
            special = t.lower().lstrip("+-") in ("inf", "infinity", "nan", "snan")
            d = value if isinstance(value, Decimal) else Decimal(t) if special else \
                read_decimal(t)
        except ValueError:
            raise ValueError(f"not a number: {value!r}") from None
        if d.is_finite() and d and abs(d.adjusted()) > 400:
            # An exact Fraction of 1e999999999 would take forever to build; every format
            # overflows above 1e400 and rounds to zero / min denormal below 1e-400.
            raise ValueError(f"{str(value).strip()!r}: decimal exponent {d.adjusted()} is "
                             "outside -400..400; no format here comes near it (encode gives "
                             "the overflow or underflow result)")
        return float(d) if not d.is_finite() else Fraction(d)
    raise ValueError(f"expected a number (Fraction, int, float, Decimal, str), got {value!r}")


def _grs(a: Fraction, fmt: FloatFormat) -> tuple[int, int, int, int]:
    """(kept significand integer, guard, round, sticky) of |value| at the target's precision."""
    if a == 0:
        return 0, 0, 0, 0
    k = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** k > a:
        k -= 1
    kk = max(k, fmt.minexp)
    scaled = a / Fraction(2) ** (kk - fmt.frac_bits)
    n = scaled.numerator // scaled.denominator
    rem4 = (scaled - n) * 4
    q4 = rem4.numerator // rem4.denominator
    return n, q4 >> 1, q4 & 1, int(rem4 != q4)


def rounding_anatomy(value_or_bits: Any, dst: str | FloatFormat, variant: str = "d3d",
                     src: str | FloatFormat | None = None) -> Anatomy:
    """Explain the rounding of one value into ``dst``.

    Parameters
    ----------
    value_or_bits : number or int pattern
        A value (Fraction, int, float, Decimal or decimal text: taken exactly) or, when
        ``src`` is given, a bit pattern of ``src``.
    dst : str or FloatFormat
        Target format.
    variant : str
        Conversion variant (see ``convert.VARIANTS``); f64 -> f32 follows CONV-DTOF.
    src : str or FloatFormat, optional
        Source format of a bit pattern.

    Returns
    -------
    Anatomy
    """
    d = get_format(dst)
    var = get_variant(variant)
    if src is not None:
        s = get_format(src)
        bits = int(s.as_bits(int(value_or_bits)))
        q: Num = s.exact_value(bits)
        res = int(convert(bits, s, d, var.name).bits)
    else:
        q = _exact(value_or_bits)
        if isinstance(q, float):  # NaN/INF: what the f64 conversion does with them
            x = np.array([q], np.float64).view(np.uint64)
            res = int(convert(x, "f64", d, var.name).bits[0])
        else:
            res = _result_for_value(q, d, var)
    res_v = d.exact_value(res)
    rules: list[str] = []
    if isinstance(q, float):  # NaN or INF
        if q != q:
            return Anatomy(q, d.name, var.name, res, res_v, None, None, None, None, 0, 0, 0, 0,
                           "nan", "CONV-NAN: NaN stays NaN (the bits need not survive).",
                           ["CONV-NAN"])
        why = ("CONV-INF: infinity stays infinity." if res_v == q else
               f"CONV-UNSIGNED: {d.name} has no sign, -INF becomes {float(res_v)!r}.")
        return Anatomy(q, d.name, var.name, res, res_v, None, None, None, None, 0, 0, 0, 0,
                       "infinity", why, [why.split(":")[0]])
    a = abs(q)
    kept, g, r, st = _grs(a, d)
    if not d.signed and q < 0:
        lo_b, lo_v = None, None
        up_b = 0
    else:
        lo_b = encode_exact(d, q, "rtn", "saturate")
        up_b = encode_exact(d, q, "rtp", "ieee")
        lo_v = d.exact_value(lo_b)
    up_v = d.exact_value(up_b)
    pol_round = "rne" if (d is F32) else var.policy(d.name).rounding if d is not F64 else "rne"
    if not isinstance(res_v, float) and res_v == q:
        direction, why = "exact", f"{q} is representable in {d.name}: nothing is rounded."
    else:
        toward = isinstance(res_v, Fraction) and abs(res_v) < a
        direction = "toward_zero" if toward else "away_from_zero"
        from_f32 = src is not None and get_format(src) is F32
        why = _reason(q, d, var.name, pol_round, res, res_v, lo_b, up_b, g, r, st, rules,
                      from_f32)
    return Anatomy(q, d.name, var.name, res, res_v, lo_b, lo_v, up_b, up_v, g, r, st, kept,
                   direction, why, rules)


def _result_for_value(q: Num, d: FloatFormat, var: Variant) -> int:
    """Pattern the variant gives for an exact value (vendor kernels see (float)(double)q)."""
    if d is F64:
        return encode_exact(F64, q, "rne", "ieee")
    if d is F32:  # CONV-DTOF: nearest even; d3d saturates and flushes denormal results
        if var.name != "d3d":
            return encode_exact(F32, q, "rne", "ieee")
        b = encode_exact(F32, q, "rne", "saturate")
        return b & 0x80000000 if (b & 0x7F800000) == 0 else b
    pol = var.policy(d.name)
    if pol.kernel is not None:
        x = np.array([float(q)], np.float64)
        return int(convert(x.view(np.uint64), "f64", d, var.name).bits[0])
    if not d.signed and q < 0:
        return 0
    ovf = "saturate" if pol.overflow in ("saturate", "clamp") else "inf"  # (INF inputs: above)
    return encode_exact(d, q, pol.rounding, ovf)


def _hex(b: int | None, w: int) -> str:
    return "none" if b is None else f"0x{b:0{w}X}"


def _reason(q: Any, d: FloatFormat, var: str, rnd: str, res: int, res_v: Num,
            lo_b: int | None, up_b: int, g: int, r: int, st: int, rules: list[str], from_f32: bool = False
            ) -> str:
    w = (d.bits + 3) // 4
    f32_denormal = q != 0 and abs(q) < F32.smallest_normal
    if res_v == 0 and f32_denormal and (from_f32 or d is F32):
        rules.append("CONV-DENORM")
        side = "input" if from_f32 else "result"
        return (f"CONV-DENORM: the f32 {side} {float(q)!r} is a denormal, and {var} treats f32 "
                f"as a format without denormals, so it becomes a signed zero (0x{res:0{w}X}); "
                "option f32_denorms='keep' keeps them (ftod/dtof may do either).")
    if not d.signed and q < 0:
        rules += ["CONV-UNSIGNED", "F11-CLAMP"]
        return f"CONV-UNSIGNED/F11-CLAMP: {d.name} has no sign; a negative value becomes 0."
    if abs(q) > d.max and isinstance(res_v, Fraction) and abs(res_v) == d.max:
        rules.append("CONV-F2F-SAT")
        return (f"CONV-F2F-SAT: {float(q)!r} is beyond the largest finite {d.name} value; it "
                f"saturates to {d.max!r} (0x{res:0{w}X}) instead of becoming infinity.")
    if isinstance(res_v, float):
        return (f"overflow: {var} rounds to nearest and {float(q)!r} is at least half an ULP "
                f"above {d.max!r}, so the result is infinity (IEEE 754 §7.4).")
    near = {lo_b, up_b}
    if res not in near:
        rules.append("VARIANT-QUIRK")
        return (f"VARIANT-QUIRK: the {var} code gives 0x{res:0{w}X}, which is neither "
                f"neighbour ({_hex(lo_b, w)}, 0x{up_b:0{w}X}). {get_variant(var).doc}")
    bits = f"guard {g}, round {r}, sticky {st}"
    if rnd == "rtz":
        rules.append("CONV-F2F-RTZ")
        return (f"CONV-F2F-RTZ: {var} converts to a smaller float toward zero: the dropped bits "
                f"({bits}) are discarded, keeping 0x{res:0{w}X}.")
    rules.append("CONV-DTOF" if d is F32 else "ROUND-NEAREST")
    if g == 0:
        return f"round to nearest: less than half an ULP was dropped ({bits}); the smaller magnitude is nearer."
    if r or st:
        return f"round to nearest: more than half an ULP was dropped ({bits}); the larger magnitude is nearer."
    return (f"round to nearest, ties to even: exactly half an ULP was dropped ({bits}); of the "
            f"two neighbours the one with an even last bit, 0x{res:0{w}X}, is chosen.")
