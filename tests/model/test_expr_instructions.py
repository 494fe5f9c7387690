"""The expression layer's instruction rows (model/expr/instructions.py) cover every
instruction a lowering emits, and the two exact-value entries (engine/exact/: bounded vector,
scalar) and the engine agree on the set of instructions."""

from __future__ import annotations

from fpinspector.model.engine.exact.bounded import step_of
from fpinspector.model.engine.exact.scalar import entry
from fpinspector.model.engine.optable import OPS
from fpinspector.model.expr import lower
from fpinspector.model.expr.contract import contract_fma
from fpinspector.model.expr.instructions import INSTRUCTIONS

TEXTS = ["a + b", "a * b + c", "dot(float3(a, b, c), float3(c, b, a))", "dot(a, b)",
         "dot(float2(a, b), float2(c, a))", "dot(float4(a, b, c, a), float4(c, b, a, c))",
         "min(a, b) - max(b, c)", "sqrt(a) * rsqrt(b) / rcp(c)", "exp2(a) + log2(b)",
         "frac(a) + floor(b) + ceil(c) + round(a) + trunc(b)", "a < b ? a : c",
         "a == b ? a : (a != c ? b : c)", "a >= b ? 1.0 : 0.0", "saturate(a * b)",
         "f16tof32(f32tof16(a))", "asfloat(asuint(-a))", "lerp(a, b, c)", "saturate(abs(a))"]


def test_every_emitted_instruction_has_a_row_and_both_exact_entries() -> None:
    seen = set()
    for text in TEXTS:
        prog = lower(text, {"a": "float", "b": "float", "c": "float"})
        seen |= {s.op for s in prog.steps}
    assert seen <= set(INSTRUCTIONS), seen - set(INSTRUCTIONS)
    assert {"mad", "dp2", "dp3", "dp4", "movc", "mov", "f32tof16", "f16tof32", "lt", "ge"} <= seen
    for name in INSTRUCTIONS:  # KeyError / None: an instruction without an exact entry
        assert callable(step_of(name, OPS.get(name))), name
        assert entry(name, OPS.get(name)) is not None, name


def test_the_engine_evaluates_every_row_marked_engine() -> None:
    """An ``engine`` row names an op of the engine's table (the step is one evaluate call)."""
    assert all(r.name in OPS for r in INSTRUCTIONS.values() if r.engine)
    assert not INSTRUCTIONS["movc"].engine and INSTRUCTIONS["movc"].selects


def test_mul_feeding_add_contracts_through_the_rows() -> None:
    """contract_fma fuses a once-used mul into the add that reads it (add.fuses_product_to,
    mul.product): a * b + c becomes mad(a, b, c) with the mul left unused; a sum of sums
    has nothing to contract."""
    prog = lower("a * b + c", {"a": "float", "b": "float", "c": "float"})
    fused = contract_fma(prog)
    assert fused is not None
    assert [s.op for s in fused.steps] == ["mul", "mad"]
    assert [(r.src, r.index) for r in fused.steps[1].args] == [
        ("input", 0), ("input", 1), ("input", 2)]
    assert contract_fma(lower("a + b + c", {"a": "float", "b": "float", "c": "float"})) is None
