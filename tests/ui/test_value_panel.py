"""The Decode panel shows each field of the inspected pattern as the model describes it
(FMT-*, DEC-*): the fields split from the pattern with integer shifts, the neighbours and
the shortest decimals read back by numpy's float32 / float16 (independent oracles)."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model import FORMATS
from fpinspector.model.describe import describe
from fpinspector.ui.inspector.value_panel import ValuePanel

CASES = [
    ("f32", 0x3F800000), ("f32", 0xBFC00000), ("f32", 0x00000001), ("f32", 0x807FFFFF),
    ("f32", 0x7F7FFFFF), ("f32", 0x7F800000), ("f32", 0xFFC00000), ("f32", 0x80000000),
    ("f16", 0x3C00), ("f16", 0x0001), ("f16", 0x7BFF), ("f16", 0xFC00), ("f16", 0x8400),
    ("f11", 0x3C1), ("f11", 0x001), ("f11", 0x7C0), ("f10", 0x1E1), ("f10", 0x3FF),
    ("f64", 0x3FF0000000000001), ("f64", 0x8000000000000001),
]
_ORACLE = {"f32": (np.uint32, np.float32), "f16": (np.uint16, np.float16)}


@pytest.fixture
def panel(qtbot) -> ValuePanel:
    p = ValuePanel()
    qtbot.addWidget(p)
    p.resize(700, 500)
    p.show()
    return p


@pytest.mark.parametrize(("fmt", "bits"), CASES)
def test_every_field_of_a_pattern(panel: ValuePanel, fmt: str, bits: int) -> None:
    f = FORMATS[fmt]
    panel.show_value(fmt, bits)
    sign = bits >> (f.bits - 1) & 1 if f.signed else 0
    e = bits >> f.frac_bits & ((1 << f.exp_bits) - 1)
    m = bits & ((1 << f.frac_bits) - 1)
    cls = ("zero" if m == 0 else "denormal") if e == 0 else \
        ("normal" if e < (1 << f.exp_bits) - 1 else "infinity" if m == 0 else "nan")
    assert panel.text("class") == cls
    assert panel.text("sign").startswith(f"{sign} (") if f.signed else \
        panel.text("sign") == "— (unsigned)"
    assert panel.text("exponent").startswith(f"{e} (0x{e:X}), unbiased ")
    assert panel.text("fraction") == f"0x{m:X} = {m:0{f.frac_bits}b}b"
    info = describe(bits, fmt)  # (the panel shows the model's words for these)
    w = (f.bits + 3) // 4
    assert panel.text("next up").startswith(f"0x{info.next_up:0{w}X} = ")
    assert panel.text("next down").startswith(f"0x{info.next_down:0{w}X} = ")
    assert panel.text("exact") == info.exact and panel.text("hex float") == info.hex_float
    assert panel.text("ulp") == repr(info.ulp)
    if fmt in _ORACLE and cls in ("normal", "denormal"):  # numpy's nextafter and repr
        u, t = _ORACLE[fmt]
        x = np.array([bits], dtype=u).view(t)[0]
        with np.errstate(over="ignore"):  # (the largest finite value's next up is INF)
            up = int(np.nextafter(x, t(np.inf)).view(u))
        down = int(np.nextafter(x, t(-np.inf)).view(u))
        assert (info.next_up, info.next_down) == (up, down)
        # the shortest decimal reads back to the pattern with numpy's own parser
        assert int(np.array([panel.text("shortest")]).astype(t).view(u)[0]) == bits
