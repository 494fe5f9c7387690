"""Operand types: float formats and integer code types (i32, u32, unorm8, snorm8, ...).

Oracle: Python's own integer arithmetic (``int.from_bytes``/``to_bytes`` for two's
complement), and the operand types the D3D conversion instructions are defined on
(CONVERSIONS.md: itof takes int32, utof uint32, the UNORM/SNORM/sRGB decodes their codes).
"""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model.formats import (
    CODE_FORMATS,
    F32,
    FORMATS,
    FloatFormat,
    float_format_of,
    operand_format,
)


@pytest.mark.parametrize("name", sorted(CODE_FORMATS))
def test_code_values_and_patterns_are_twos_complement(name: str) -> None:
    """Every code's pattern and back, against int.to_bytes/from_bytes."""
    t = CODE_FORMATS[name]
    nbytes = t.bits // 8
    rng = np.random.default_rng(1)
    pats = np.unique(np.concatenate([
        np.array([0, 1, t.mask, t.mask >> 1, (t.mask >> 1) + 1], dtype=np.int64),
        rng.integers(0, t.mask + 1, 500, dtype=np.int64)]))
    codes = t.values(pats)
    assert codes.dtype == t.dtype
    for p, c in zip(pats.tolist(), codes.tolist()):
        expect = int.from_bytes(p.to_bytes(nbytes, "little"), "little", signed=t.signed)
        assert c == expect
        assert t.pattern(c) == p
        assert t.lo <= c <= t.hi


def test_code_pattern_refuses_what_is_neither_code_nor_pattern() -> None:
    i32, u8 = CODE_FORMATS["i32"], CODE_FORMATS["u8"]
    assert i32.pattern(-(2**31)) == 0x80000000
    for bad in (-(2**31) - 1, 2**32):
        with pytest.raises(ValueError, match="i32"):
            i32.pattern(bad)
    with pytest.raises(ValueError):
        u8.pattern(-1)  # unsigned codes have no negative spelling


def test_operand_format_names_both_kinds() -> None:
    assert operand_format("half") is FORMATS["f16"]
    assert operand_format("UNORM8") is CODE_FORMATS["unorm8"]
    with pytest.raises(ValueError, match="float format or one of"):
        operand_format("f8")


@pytest.mark.parametrize("name", [*FORMATS, *CODE_FORMATS])
def test_float_format_of(name: str) -> None:
    """Codes compute in f32 (D3D converts codes to and from float32); floats in themselves."""
    f = float_format_of(name)
    assert f is (FORMATS[name] if name in FORMATS else F32)
