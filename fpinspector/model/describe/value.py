"""Everything one bit pattern says (fields, class, exact and shortest decimal, hex float,
neighbours, ULP) as a :class:`ValueInfo`, and a format's limits."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..formats import CLASS_NAMES, FloatFormat, get_format
from .decimal_text import (
    binary_text,
    checked_pattern,
    exact_decimal,
    hex_float,
    pattern_hex,
    shortest_decimal,
)

__all__ = ["ValueInfo", "describe", "format_limits"]


@dataclass(frozen=True)
class ValueInfo:
    """Description of one pattern (see :func:`describe`); ``to_dict`` gives JSON-ready data."""

    format: str
    bits: int
    hex: str
    binary: str
    class_name: str
    sign: int
    exponent_biased: int
    exponent_unbiased: int | None
    fraction: int
    value: float
    exact: str
    shortest: str
    hex_float: str
    next_up: int
    next_down: int
    ulp: float

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["class"] = d.pop("class_name")
        d["value"] = _json_float(self.value)
        d["ulp"] = _json_float(self.ulp)
        return d


def _json_float(v: float) -> float | str:
    """JSON has no inf/nan: give them as strings."""
    return v if np.isfinite(v) else repr(v)


def describe(bits: int, format: str | FloatFormat) -> ValueInfo:
    """Describe one pattern: class, fields, exact and shortest decimal, hex float,
    neighbours and ULP (docs/rules.md FMT-*, DEC-*).

    Parameters
    ----------
    bits : int
        The bit pattern.
    format : str or FloatFormat
        Its format.

    Returns
    -------
    ValueInfo

    Examples
    --------
    >>> describe(0x3F800000, "f32").hex_float
    '0x1p+0'
    """
    f = get_format(format)
    b = checked_pattern(bits, f)
    s, e, m = (int(x) for x in f.fields(b))
    cls = CLASS_NAMES[int(f.class_codes(b))]
    unb = None if cls in ("zero", "infinity", "nan") else (f.minexp if e == 0 else e - f.bias)
    return ValueInfo(
        format=f.name,
        bits=b,
        hex=pattern_hex(b, f),
        binary=binary_text(b, f),
        class_name=cls,
        sign=s,
        exponent_biased=e,
        exponent_unbiased=unb,
        fraction=m,
        value=float(f.decode(b)),
        exact=exact_decimal(b, f),
        shortest=shortest_decimal(b, f),
        hex_float=hex_float(b, f),
        next_up=int(f.next_up(b)),
        next_down=int(f.next_down(b)),
        ulp=float(f.ulp(b)),
    )


def format_limits(fmt: str | FloatFormat) -> dict[str, Any]:
    """Limits of a format as values and patterns (FMT-*): max finite, min normal,
    min denormal, epsilon, plus the layout."""
    f = get_format(fmt)
    one = (f.bias << f.frac_bits)
    return {
        "format": f.name,
        "bits": f.bits,
        "exp_bits": f.exp_bits,
        "frac_bits": f.frac_bits,
        "bias": f.bias,
        "signed": f.signed,
        "max_finite": f.max,
        "max_finite_bits": f.max_finite_bits,
        "min_normal": f.smallest_normal,
        "min_normal_bits": 1 << f.frac_bits,
        "min_denormal": f.smallest_subnormal,
        "min_denormal_bits": 1,
        "epsilon": f.eps,
        "one_bits": one,
        "pos_inf_bits": f.pos_inf if f.has_inf else None,  # (E4M3 has none)
        "quiet_nan_bits": f.quiet_nan,
        "max_finite_exact": exact_decimal(f.max_finite_bits, f),
        "min_denormal_exact": exact_decimal(1, f),
    }

