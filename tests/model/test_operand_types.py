"""Operand types: float formats and integer code types (i32, u32, unorm8, snorm8, ...).

Oracle: Python's own integer arithmetic (``int.from_bytes``/``to_bytes`` for two's
complement), and the operand types the D3D conversion instructions are defined on
(docs/rules.md: itof takes int32, utof uint32, the UNORM/SNORM/sRGB decodes their codes).
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


def test_every_op_declares_operand_types_the_model_knows() -> None:
    from fpinspector.model import OPS

    for name, spec in OPS.items():
        types = spec.operand_types
        assert types and all(t.name in spec.formats for t in types), name


@pytest.mark.parametrize(("op", "code"), [
    ("itof", "i32"), ("utof", "u32"), ("from_unorm8", "unorm8"), ("from_unorm16", "unorm16"),
    ("from_snorm8", "snorm8"), ("from_snorm16", "snorm16"), ("from_srgb8", "srgb8"),
])
def test_code_ops_take_their_code_type_whatever_is_asked(op: str, code: str) -> None:
    """docs/rules.md: itof is int32 -> float, from_unorm8 a UNORM8 code -> float, ..."""
    from fpinspector.model import OPS

    spec = OPS[op]
    assert [t.name for t in spec.operand_types] == [code]
    for asked in ("f32", "f16", code):
        assert spec.operand_type(asked) is CODE_FORMATS[code]


def test_float_ops_take_the_asked_format_or_say_which_they_take() -> None:
    from fpinspector.model import OPS

    assert OPS["add"].operand_type("f16") is FORMATS["f16"]
    assert isinstance(OPS["to_f11"].operand_type("f64"), FloatFormat)
    assert OPS["ftoi"].operand_type("f16") is F32  # ftoi is defined on f32 only
    with pytest.raises(ValueError, match="add takes f32, f16, f64, bf16, e5m2, e4m3 operands, not f11"):
        OPS["add"].operand_type("f11")
