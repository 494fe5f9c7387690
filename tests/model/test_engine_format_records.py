"""The format and rule-set records as the engine reads them: D3D defines no arithmetic for
bf16 and the OCP FP8 formats (FMT-BF16, FMT-E5M2, FMT-E4M3), so evaluate refuses an op on
them under the D3D rule sets with that sentence, while the formats D3D defines arithmetic
for (FMT-F32, FMT-F16, FMT-F64) evaluate as before."""

from __future__ import annotations

import pytest

from fpinspector.model import FORMATS, evaluate
from fpinspector.model.engine.rules import RULE_SET_RECORDS, RULES, arithmetic_gap


@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
@pytest.mark.parametrize("name", ["bf16", "e5m2", "e4m3"])
def test_no_d3d_arithmetic_FMT_BF16_FMT_E5M2_FMT_E4M3(name: str, rules: str) -> None:
    """Under d3d10/d3d11 an op on bf16/e5m2/e4m3 is refused with the rule ID and why."""
    one = int(FORMATS[name].encode(1.0))
    with pytest.raises(ValueError, match=f"D3D defines no arithmetic for {name} "
                                         rf"\({FORMATS[name].rule_id}\)"):
        evaluate("add", one, one, format=name, rules=rules)
    assert FORMATS[name].rule_id in RULES  # the record brings its rule row


def test_the_d3d_formats_keep_their_arithmetic_FMT_F32_FMT_F16_FMT_F64() -> None:
    """The records say D3D defines arithmetic in f32/f16/f64: no gap, the op evaluates."""
    for name in ("f32", "f16", "f64"):
        for rules in RULE_SET_RECORDS:
            assert arithmetic_gap(name, rules) is None
    assert int(evaluate("add", 0x3C00, 0x3C00, format="f16").bits) == 0x4000
    assert [r.name for r in RULE_SET_RECORDS.values() if not r.d3d] == ["ieee754"]
