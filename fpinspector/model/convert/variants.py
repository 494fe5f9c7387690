"""Named float-to-small-float encoders (d3d, ieee, DirectXMath, Mesa, GL, llvmpipe) as data.

A :class:`Variant` holds one :class:`Policy` per target format it has code for (the D3D
small formats f16, f11, f10), and a ``generic`` policy for the formats D3D defines no
conversion into (bf16, the FP8 formats: ``FloatFormat.d3d_conversion`` empty), encoded from
their widths. Most policies are plain data (rounding, overflow, NaN pattern, -INF handling) run by the
table encoder in :mod:`fpinspector.model.convert`. Where a vendor's code has quirks a policy
cannot express, the policy names a *kernel*: a vectorized, line-by-line transcription of the
vendor's C code on float32 bit patterns (uint32 arrays), cited with repository, commit and
function. Sources are public code read through the team's code search; none is copied here,
only re-expressed with numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..formats import FloatFormat, get_format
from .vendor_encoders import (
    lp_float_to_smallfloat,
    mesa_float_to_half,
    mesa_uf_rne,
    mesa_uf_trunc,
    xm_convert_float_to_half,
    xm_store_float3pk_xy,
    xm_store_float3pk_z,
)

__all__ = ["Policy", "Variant", "VARIANTS", "MODES", "get_variant", "lp_float_to_smallfloat"]

Kernel = Callable[[np.ndarray], np.ndarray]

# --------------------------------------------------------------------------------------
# the table


@dataclass(frozen=True)
class Policy:
    """How one variant encodes into one small format: data for the table encoder.

    rounding: ``"rtz"`` or ``"rne"``; overflow: ``"saturate"`` (largest finite), ``"inf"``
    or ``"clamp"`` (OCP SAT: infinities too become the largest finite value);
    nan: ``"quiet"`` (canonical quiet NaN, sign kept where the format has one),
    ``"payload"`` (top payload bits kept, quiet bit set, sign kept) or a fixed pattern;
    neg_inf: ``"zero"`` or ``"inf"`` (unsigned targets only); kernel: a literal vendor
    algorithm on float32 bits that replaces the fields above (they then describe it).
    """

    rounding: str
    overflow: str
    nan: str | int = "quiet"
    neg_inf: str = "zero"
    kernel: Kernel | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Variant:
    """A named encoder family with its source citation (``source``) and notes (``doc``).

    ``policies``: target format name -> its policy, for the formats the family has code for;
    ``generic``: the policy for a format D3D defines no conversion into (None: the family
    has no encoder for such formats, and says so).
    """

    name: str
    source: str
    doc: str
    policies: Mapping[str, Policy] = field(default_factory=dict)
    f32_denorms: str = "keep"  # "flush": D3D treats float32 as denormal-free in conversions
    generic: Policy | None = None

    def covers(self, dst: str | FloatFormat) -> bool:
        """Whether the family encodes into ``dst`` (f64 and f32 targets: every family)."""
        d = get_format(dst)
        return (d.d3d_conversion in ("exact", "dtof") or d.name in self.policies
                or (not d.d3d_conversion and self.generic is not None))

    def policy_check(self, dst: str | FloatFormat) -> None:
        """ValueError with the reason where the family has no encoder into ``dst``."""
        if not self.covers(dst):
            self.policy(dst)

    def policy(self, dst: str | FloatFormat) -> Policy:
        """Policy for a target format narrower than f32; ValueError where it has none."""
        d = get_format(dst)
        pol = self.policies.get(d.name)
        if pol is None and not d.d3d_conversion:
            pol = self.generic
        if pol is None:
            raise ValueError(f"conversion variant {self.name!r} has no encoder into {d.name}")
        return pol


_RTZ_SAT = Policy("rtz", "saturate")
_RNE_INF = Policy("rne", "inf")


def _small(f16: Policy, f11: Policy, f10: Policy) -> dict[str, Policy]:
    """The policies of a family that has code for the three D3D small formats."""
    return {"f16": f16, "f11": f11, "f10": f10}


VARIANTS: dict[str, Variant] = {
    "d3d": Variant(
        "d3d",
        "D3D11.3 functional spec §3.2.2 (docs/rules.md CONV-F2F-RTZ/SAT, CONV-UNSIGNED)",
        "Round toward zero, overflow to the largest finite value, negatives -> 0 in f11/f10, "
        "-INF -> 0 by default (AMBIGUOUS, option neg_inf_to_unsigned='inf'). Into bf16 and "
        "FP8, which D3D defines no conversion for: the formats' own round to nearest even.",
        _small(_RTZ_SAT, _RTZ_SAT, _RTZ_SAT), f32_denorms="flush", generic=_RNE_INF),
    "ieee": Variant(
        "ieee",
        "IEEE 754-2008 §4.3.1/§7.4 roundTiesToEven; numpy.float16 casts",
        "Textbook encoder: round to nearest even, overflow to INF, negatives -> 0 "
        "in the unsigned formats.",
        _small(_RNE_INF, _RNE_INF, _RNE_INF), generic=_RNE_INF),
    "directxmath": Variant(
        "directxmath",
        "microsoft/DirectXMath Inc/DirectXPackedVector.inl @095af479: XMConvertFloatToHalf "
        "(software path), XMStoreFloat3PK",
        "RNE; f16 overflow (>= 65520) -> INF, NaN keeps sign and top payload; f11/f10 "
        "overflow -> max finite, NaN -> 0x7FF/0x3FF, negatives and -INF -> 0, f11 flushes "
        "below 2^-20, tiny f10 values hit an undefined shift (2^-46 -> 0x020).",
        _small(Policy("rne", "inf", "payload", kernel=xm_convert_float_to_half),
               Policy("rne", "saturate", 0x7FF, kernel=xm_store_float3pk_xy),
               Policy("rne", "saturate", 0x3FF, kernel=xm_store_float3pk_z))),
    "mesa": Variant(
        "mesa",
        "Mesa src/util/half_float.c _mesa_float_to_half_slow (sailfishos-mirror/mesa "
        "@6d9cd36d); src/util/format_r11g11b10f.h RNE version (sonphantrung/mesa @5574f948)",
        "RNE, f16 overflow -> INF, f11/f10 overflow -> max finite, NaN -> 0x7C1/0x3E1, "
        "negatives and -INF -> 0; the f11/f10 normal path does not bump the exponent when "
        "rounding carries (1.9921875 -> f11 1.0), reproduced as written.",
        _small(Policy("rne", "inf", "payload", kernel=mesa_float_to_half),
               Policy("rne", "saturate", 0x7C1, kernel=lambda u: mesa_uf_rne(u, 6)),
               Policy("rne", "saturate", 0x3E1, kernel=lambda u: mesa_uf_rne(u, 5)))),
    "mesa_rtz": Variant(
        "mesa_rtz",
        "Mesa src/util/half_float.h _mesa_float_to_float16_rtz (vcvtps2ph $3, RTZ); "
        "older truncating src/util/format_r11g11b10f.h (karolherbst/mesa @8f1b581e)",
        "Round toward zero, f16 overflow -> 65504 (x86 F16C with imm 3; NaN quieted with "
        "sign and top payload), f11 denormals kept, f10 has no denormal branch (-> 0), "
        "NaN -> 0x7C1/0x3E1.",
        _small(Policy("rtz", "saturate", "payload"),
               Policy("rtz", "saturate", 0x7C1, kernel=lambda u: mesa_uf_trunc(u, 6)),
               Policy("rtz", "saturate", 0x3E1, kernel=lambda u: mesa_uf_trunc(u, 5)))),
    "gl": Variant(
        "gl",
        "OpenGL 4.6 core §2.3.4.3-§2.3.4.4 (unsigned 11/10-bit floats), EXT_packed_float",
        "f11/f10: nearest (chosen; toward zero allowed), negatives and -INF -> 0, any NaN -> "
        "a positive NaN, overflow -> max finite. f16 rounding is unspecified by GL: modelled "
        "as IEEE round to nearest even with overflow to INF.",
        _small(_RNE_INF, Policy("rne", "saturate"), Policy("rne", "saturate"))),
    "llvmpipe": Variant(
        "llvmpipe",
        "Mesa gallivm lp_bld_format_float.c lp_build_float_to_smallfloat (bminor/mesa-mesa "
        "@41c700fd); f16 modelled with has_sign=true",
        "Round toward zero (mantissa mask), overflow -> max finite, NaN -> 0x7E0/0x3F0 "
        "(0x7E00 with sign for f16), -INF -> 0 for f11/f10; target denormals kept unless "
        "option llvmpipe_denorms='flush' (CPU FTZ/DAZ).",
        _small(
            Policy("rtz", "saturate", 0x7E00, kernel=lambda u: lp_float_to_smallfloat(u, 10, True)),
            Policy("rtz", "saturate", 0x7E0, kernel=lambda u: lp_float_to_smallfloat(u, 6, False)),
            Policy("rtz", "saturate", 0x3F0, kernel=lambda u: lp_float_to_smallfloat(u, 5, False)))),
}

#: Plain rounding x overflow modes beside :data:`VARIANTS` (which names the encoder families
#: of real code): convert accepts these names too.
MODES: dict[str, Variant] = {
    # With d3d and ieee, the four corners of rounding x overflow (bf16 and OCP FP8 need
    # them: D3D defines no conversion into them); "rne_sat" and "rtz_sat" are OCP's SAT mode
    # there (a finite value out of range and an infinity become the largest finite value)
    "rtz": Variant(
        "rtz", "IEEE 754-2008 §4.3.2 roundTowardZero; OCP OFP8 rev 1.0 §5 (non-saturating)",
        "Round toward zero, no saturation: an overflow gives INF (E4M3: NaN).",
        _small(*[Policy("rtz", "inf")] * 3), generic=Policy("rtz", "inf")),
    "rne_sat": Variant(
        "rne_sat", "OCP 8-bit Floating Point Specification (OFP8) rev 1.0 §5, SAT mode",
        "Round to nearest even; out-of-range values become the largest finite value, and "
        "in bf16 and FP8 infinities too (OCP SAT; f16/f11/f10 keep INF: CONV-INF).",
        _small(*[Policy("rne", "saturate")] * 3), generic=Policy("rne", "clamp")),
    "rtz_sat": Variant(
        "rtz_sat", "OCP 8-bit Floating Point Specification (OFP8) rev 1.0 §5, SAT mode",
        "Round toward zero; out-of-range values become the largest finite value, and in "
        "bf16 and FP8 infinities too (f16/f11/f10 keep INF: CONV-INF, as d3d).",
        _small(*[Policy("rtz", "saturate")] * 3), generic=Policy("rtz", "clamp")),
}


def get_variant(name: str | Variant) -> Variant:
    """Variant by name, with a clear ValueError listing the choices."""
    if isinstance(name, Variant):
        return name
    try:
        key = str(name).lower()
        return VARIANTS[key] if key in VARIANTS else MODES[key]
    except KeyError:
        raise ValueError(
            f"unknown conversion variant {name!r}; choose one of "
            f"{', '.join([*VARIANTS, *MODES])}") from None
