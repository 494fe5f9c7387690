"""SweepPlan (what the sweep CLI and the app's panel build) and the Qt-free SweepState.

Oracles: struct for f32 patterns of C, Python integers for code ranges, and the stage the
plan replaces (a hand-built ModelStage over the same domain) for the sweep itself.
"""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, GridDomain, ModelStage, run_sweep
from fpinspector.model.sweep.plan import SweepPlan, default_domain, sweepable_ops
from fpinspector.model.sweep.state import SweepSettings, SweepState


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def test_mad_plan_reads_c_as_value_or_pattern_F32_FUSED() -> None:
    for c in ("0.5", "0x3F000000"):
        plan = SweepPlan.build("mad", "f32", domain="lin:-4:4:9", c=c)
        assert plan.domain.shape == (9, 9) and plan.result_format == "f32"
        assert [int(x) for x in plan.fixed] == [_f32(0.5)]
        assert plan.meta()["fixed"] == {"c": "0x3F000000"}
        assert plan.describe().endswith("with C = 0x3F000000")


def test_plan_sweeps_a_code_ops_own_type_CONV_ITOF() -> None:
    """itof takes int32 codes whatever format is asked; its domain is over the codes."""
    plan = SweepPlan.build("itof", "f16", domain="bits:-5:5")
    assert (plan.fmt, plan.result_format) == ("i32", "f32")
    assert list(plan.domain.operands(0, plan.domain.size)[0]) == list(range(-5, 6))


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"op": "pow"}, "unknown op"),
    ({"op": "add", "rules": "d3d12"}, "unknown rule set"),
    ({"op": "add", "fmt": "f11"}, "add takes f32, f16, f64, bf16, e5m2, e4m3 operands, not f11"),
    ({"op": "mad"}, r"give C \(the C field\): one value or pattern"),
    ({"op": "mad", "c": "1 2"}, "the C field takes one value, got 2"),
    ({"op": "mul", "c": "1"}, "the C field is for 3-operand ops"),
    ({"op": "sqrt", "domain_b": "all"}, "the B domain is for two-operand sweeps"),
    ({"op": "dp4"}, "sweeps cover 1, 2 or mad's 3"),
    ({"op": "sqrt", "fmt": "f99"}, "unknown format"),
    ({"op": "sqrt", "domain": "log:1:0:x"}, "bad domain"),
])
def test_bad_inputs_are_clear_errors(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        SweepPlan.build(**kwargs)


def test_plan_reads_format_names_as_the_cli_gives_them() -> None:
    """``-f F32`` and ``-f ' f16 '`` name the formats; integer codes keep their names."""
    assert SweepPlan.build("sqrt", " F32 ", domain="bits:0:3").fmt == "f32"
    assert SweepPlan.build("from_unorm8", "UNORM8").fmt == "unorm8"


def test_plan_run_equals_the_hand_built_sweep_F32_FTZ() -> None:
    """The plan adds nothing to what it runs: same columns and summary as run_sweep with the
    ModelStage written out (mul of f32 denormals: F32-FTZ fires)."""
    plan = SweepPlan.build("mul", "f32", domain="bits:0x00000001:0x00000040",
                           domain_b="lin:0.5:4:8")
    got = plan.run(chunk_size=100)
    domain = GridDomain(Axis.bit_range("f32", 1, 0x40), Axis.linear("f32", 0.5, 4.0, 8))
    want = run_sweep(domain, ModelStage("mul", "f32"), result_format="f32", chunk_size=100)
    assert np.array_equal(got.columns["model"], want.columns["model"])
    assert (json.dumps(got.summary.to_dict(), default=repr)
            == json.dumps(want.summary.to_dict(), default=repr))
    assert got.meta["op"] == "mul" and got.meta["result_format"] == "f32"


@pytest.mark.parametrize(("fmt", "spec"), [
    ("unorm8", "all"), ("snorm16", "all"), ("i32", "bits:-32768:32767"),
    ("u32", "bits:0:65535"), ("f32", "log:1e-40:1e3:512")])
def test_default_domain_per_operand_type(fmt: str, spec: str) -> None:
    assert default_domain(fmt) == spec


def test_sweepable_ops_cover_one_two_and_three_operands() -> None:
    ops = set(sweepable_ops())
    assert {"sqrt", "mul", "mad", "itof", "from_unorm8"} <= ops
    assert not {"dp3", "dp4"} & ops


def test_state_follows_code_ops_and_restores_the_float_choice() -> None:
    """Picking a code op shows its code type and a code domain; a float op brings back the
    float format and A domain last used."""
    seen: list[frozenset] = []
    s = SweepState()
    s.connect(seen.append)
    s.update(fmt="f16", domain_a="bits:0:15")
    assert s.update(op="from_unorm8") == {"op", "fmt", "domain_a"}
    assert (s.settings.fmt, s.settings.domain_a, s.fmt_fixed, s.b_used) == (
        "unorm8", "all", True, False)
    s.update(op="itof")
    assert (s.settings.fmt, s.settings.domain_a) == ("i32", "bits:-32768:32767")
    s.update(op="mad")
    assert (s.settings.fmt, s.settings.domain_a, s.c_used) == ("f16", "bits:0:15", True)
    assert seen[-1] == {"op", "fmt", "domain_a"}
    assert s.update(op="mad") == frozenset()  # no change, no event
    assert len(seen) == 4


def test_state_plan_uses_b_and_c_only_where_the_op_has_them() -> None:
    s = SweepState(SweepSettings(op="sqrt", domain_a="bits:0x3F800000:0x3F800010",
                                 domain_b="nonsense", c="nonsense"))
    assert s.plan().domain.size == 17
    s.update(op="mad", domain_b="bits:0x3F800000:0x3F800001", c="2")
    assert s.plan().domain.shape == (17, 2)
    with pytest.raises(ValueError, match="unknown compare"):
        s.update(compare="bogus")
