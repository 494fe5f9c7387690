"""Describe many patterns at once: the numeric parts (fields, class, value, neighbours, ULP)
in one vectorized pass per format, the text parts per value.

Why: :func:`describe` costs about a dozen numpy calls on a scalar; a 1 MiB paste holds ~95k
values, and ``fpinspector decode`` spent most of its time on that per-value overhead.
"""

from __future__ import annotations

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
from .value import ValueInfo

__all__ = ["describe_many"]


def describe_many(bits: Any, format: str | FloatFormat) -> list[ValueInfo]:
    """:func:`describe` for every pattern of ``bits`` (flattened), in order.

    Parameters
    ----------
    bits : array_like of int
        Bit patterns of one format.
    format : str or FloatFormat
        Their format.

    Returns
    -------
    list of ValueInfo
        Equal to ``[describe(b, format) for b in bits]``; repeated patterns share one
        (immutable) ValueInfo.
    """
    f = get_format(format)
    flat = [checked_pattern(b, f) for b in np.asarray(bits, dtype=object).reshape(-1).tolist()]
    if not flat:
        return []
    uniq = sorted(set(flat))
    arr = f.as_bits(np.array(uniq, dtype=np.uint64))
    s, e, m = (x.tolist() for x in f.fields(arr))
    cls = f.class_codes(arr).tolist()
    val = f.decode(arr).tolist()
    up = f.next_up(arr).tolist()
    down = f.next_down(arr).tolist()
    ulp = f.ulp(arr).tolist()
    infos: dict[int, ValueInfo] = {}
    for i, b in enumerate(uniq):
        c = CLASS_NAMES[int(cls[i])]
        ei = int(e[i])
        unb = None if c in ("zero", "infinity", "nan") else (f.minexp if ei == 0
                                                              else ei - f.bias)
        infos[b] = ValueInfo(
            format=f.name, bits=b, hex=pattern_hex(b, f), binary=binary_text(b, f),
            class_name=c, sign=int(s[i]), exponent_biased=ei, exponent_unbiased=unb,
            fraction=int(m[i]), value=float(val[i]), exact=exact_decimal(b, f),
            shortest=shortest_decimal(b, f), hex_float=hex_float(b, f),
            next_up=int(up[i]), next_down=int(down[i]), ulp=float(ulp[i]))
    return [infos[b] for b in flat]
