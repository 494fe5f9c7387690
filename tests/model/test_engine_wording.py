"""What the engine says, in words a reader can trust:

- F32-NANOUT ("NaN in gives NaN out") fires only where a NaN went in; an invalid
  operation's NaN without a NaN operand names its own rule (F32-SQRTNEG, F32-INFINF,
  F32-LOG0, F32-DIV0), in the fired rules, the Why steps and the verdict.
- A select is not rounded: min(NaN, 1) returning 1 is "the operand min/max selects", not
  "correctly rounded" (F32-MINMAX-NAN).
- One line per rule: a reading of the rule (F32-PREC's strict d3d11 reading) goes on that
  rule's line instead of a second "F32-PREC: ..." line.

Oracle: IEEE 754's invalid operations (sqrt of a negative, INF - INF, 0 x INF, 0/0, log of a
negative) and its NaN propagation, written out per case; Python's math for which results
are NaN."""

from __future__ import annotations

import math
import struct

import pytest

from fpinspector.model.engine import evaluate


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


NAN = 0x7FC00000
INF = f32(math.inf)


# (op, operands, the invalid operation's rule) — IEEE 754 §7.2 invalid operations
INVALID = [
    ("sqrt", (f32(-1.0),), "F32-SQRTNEG"),
    ("rsq", (f32(-4.0),), "F32-SQRTNEG"),
    ("log", (f32(-2.0),), "F32-LOG0"),
    ("add", (INF, f32(-math.inf)), "F32-INFINF"),
    ("mul", (0, INF), "F32-INFINF"),
    ("div", (0, 0), "F32-DIV0"),
    ("div", (INF, INF), "F32-INFINF"),
]


@pytest.mark.parametrize(("op", "ops", "rule"), INVALID)
@pytest.mark.parametrize("rules", ["d3d11", "d3d10", "ieee754"])
def test_an_invalid_operation_names_its_rule_not_F32_NANOUT(op, ops, rule, rules):
    ev = evaluate(op, *ops, format="f32", rules=rules)
    assert math.isnan(float(ev.exact.reshape(-1)[0]))  # (the oracle: an invalid operation)
    fired = ev.rules_at(0)
    assert rule in fired and "F32-NANOUT" not in fired, fired
    step = next(s for s in ev.steps_at(0) if s.startswith("result is NaN"))
    assert f"({rule})" in step and "F32-NANOUT" not in step, step
    v = ev.verdict(0, 0xFFC00001)  # another NaN: allowed, and the reason names the rule
    assert v.conformant and v.reason == f"NaN, and any NaN is allowed here ({rule})", v.reason


@pytest.mark.parametrize(("op", "ops"), [("add", (NAN, f32(1.0))), ("sqrt", (NAN,)),
                                         ("mul", (f32(2.0), 0xFF800001))])
def test_a_nan_operand_fires_F32_NANOUT_and_F32_NANPROP(op, ops):
    ev = evaluate(op, *ops, format="f32", rules="d3d11")
    assert {"F32-NANOUT", "F32-NANPROP"} <= set(ev.rules_at(0))
    assert ev.verdict(0, 0x7FC00123).reason == "NaN, and any NaN is allowed here (F32-NANOUT)"


@pytest.mark.parametrize("rules", ["d3d11", "d3d10"])
@pytest.mark.parametrize("op", ["min", "max"])
def test_a_select_is_not_called_rounded_F32_MINMAX_NAN(op, rules):
    ev = evaluate(op, NAN, f32(1.0), format="f32", rules=rules)
    v = ev.verdict(0, f32(1.0))  # minNum/maxNum: the other operand
    assert v.conformant
    assert "rounded" not in v.reason and "the operand min/max selects" in v.reason, v.reason
    assert "F32-MINMAX-NAN" in v.reason
    mul = evaluate("mul", f32(1.5), f32(1.25), format="f32", rules=rules)
    assert mul.verdict(0, int(mul.bits.reshape(-1)[0])).reason.startswith(
        "the model's result: correctly rounded")


def test_each_rule_on_one_line_F32_PREC():
    ev = evaluate("mul", f32(1.1), f32(1.3), format="f32", rules="d3d11")
    lines = ev.explain_at(0)
    prec = [s for s in lines if s.startswith("F32-PREC")]
    assert len(prec) == 1, lines
    assert "strict d3d11 reading" in prec[0] and "correctly rounded" in prec[0]
    # where F32-PREC did not fire (an exact identity), its reading still shows, once
    ev = evaluate("mul", f32(1.0), f32(1.5), format="f32", rules="d3d11")
    assert [s for s in ev.explain_at(0) if s.startswith("F32-PREC")] == [
        "F32-PREC: strict d3d11 reading (0.5 ULP, D3D11.3 §3.1.3)"]
