"""convert() works in cache-sized slices (the table encoder and the fired-rule masks): an
element's pattern and rules depend on that element alone, so a long array converts exactly
as each element converted on its own, across slice edges, for every kind of source and
variant (CONV-F2F-RTZ, CONV-F2F-SAT, CONV-DENORM, CONV-UNSIGNED, F11-CLAMP, CONV-NAN,
CONV-INF, F32-FTZ, VARIANT-QUIRK)."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model import convert
from fpinspector.model.convert.rules import CHUNK as RULES_CHUNK
from fpinspector.model.convert.table_encoder import CHUNK as TABLE_CHUNK
from fpinspector.model.formats import FORMATS

N = 3 * max(RULES_CHUNK, TABLE_CHUNK) + 7
SPECIAL_F32 = [0, 0x80000000, 1, 0x807FFFFF, 0x00800000, 0x38800000, 0x387FC000, 0x477FE000,
               0x477FF000, 0x47800000, 0xC7800000, 0x7F800000, 0xFF800000, 0x7FC00000,
               0xFFC00001, 0x7F800001, 0x3F800000, 0xBF800000, 0x2E000000, 0x33800000]


def _sources(src: str) -> np.ndarray:
    """Random patterns with the special ones placed at and next to every slice edge."""
    fmt = FORMATS[src]
    rng = np.random.default_rng(11)
    pats = rng.integers(0, 1 << fmt.bits, N, dtype=np.uint64).astype(fmt.dtype)
    if src == "f32":
        special = np.array(SPECIAL_F32, np.uint32)
    else:
        special = np.array([0, 1, fmt.pos_inf, fmt.quiet_nan, fmt.max_finite_bits,
                            fmt.mask], dtype=np.uint64).astype(fmt.dtype)
    for edge in range(0, N, min(RULES_CHUNK, TABLE_CHUNK)):
        lo = max(0, edge - special.size // 2)
        pats[lo:lo + special.size] = special[: N - lo]
    return pats


@pytest.mark.parametrize("src, dst, variant", [
    ("f32", "f16", "d3d"), ("f32", "f16", "ieee"), ("f32", "f11", "d3d"),
    ("f32", "f10", "directxmath"), ("f32", "f11", "mesa"), ("f32", "f16", "llvmpipe"),
    ("f16", "f11", "d3d"), ("f64", "f16", "d3d"), ("f64", "f32", "d3d"), ("f16", "f32", "d3d"),
])
def test_long_arrays_convert_as_their_elements_do(src, dst, variant):
    pats = _sources(src)
    whole = convert(pats, src, dst, variant)
    fired = whole.fired
    rng = np.random.default_rng(5)
    edges = [e + d for e in range(0, N, min(RULES_CHUNK, TABLE_CHUNK)) for d in (-2, -1, 0, 1)]
    picks = sorted({i for i in edges if 0 <= i < N} | set(rng.integers(0, N, 300).tolist()))
    fired_somewhere = set()
    for i in picks:
        one = convert(pats[i:i + 1], src, dst, variant)
        assert int(one.bits[0]) == int(whole.bits[i]), (i, hex(int(pats[i])))
        rules = sorted(r for r, m in one.fired.items() if m[0])
        assert sorted(r for r, m in fired.items() if m[i]) == rules, (i, hex(int(pats[i])))
        fired_somewhere.update(rules)
    assert all(m.shape == pats.shape and m.any() for m in fired.values())
    assert fired_somewhere, "the sample must make rules fire"


def test_variant_quirk_is_explained_with_the_nominal_encoders_pattern():
    """DirectXMath gives 0x020 for 2^-46 into f10 where a plain RTZ encoder gives 0."""
    r = convert(np.full(RULES_CHUNK + 3, 0x28800000, np.uint32), "f32", "f10", "directxmath")
    assert r.fired["VARIANT-QUIRK"].all()
    text = " ".join(r.explain_at(RULES_CHUNK + 1))
    assert "0x020" in text and "0x000" in text
