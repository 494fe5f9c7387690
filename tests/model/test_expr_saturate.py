"""_sat (EXPR-SAT): min(1, max(0, x)) with the min/max rules (D3D11.3 §22.19.1). The model
and the allowed set of ``op_sat`` (the image of ``op``'s allowed set under the clamp) are
checked against an oracle built from the min/max rules of docs/rules.md (_engine_oracle)."""

from __future__ import annotations

import numpy as np
import pytest
from _engine_oracle import bits32, d3d_binary_bits, f32, is_nan32, minmax_bits

from fpinspector.model import FORMATS, evaluate, evaluate_expr
from fpinspector.model.engine import AllowedSet
from fpinspector.model.engine.grid import to_key as key_of
from fpinspector.model.expr.allowed_sets import sat_image as set_sat_image

ONE, S = 0x3F800000, 0x80000000
F = FORMATS["f32"]
SPECIAL = [0x7FC00000, 0xFFC00123, 0xFF800000, bits32(-1.0), S, S | 1, S | 0x7FFFFF, 0, 1,
           0x7FFFFF, 0x00800000, bits32(0.5), 0x3F7FFFFF, ONE, 0x3F800001, bits32(2.0),
           0x7F800000]
CANDIDATES = sorted(set(SPECIAL) | {bits32(0.25), 0x3F7FFFFE, bits32(-0.5), 0x7FC00001})


def sat_image(inner: set[int] | None) -> set[int] | None:
    """{min(1, m) : m in max(+0, v), v in inner} by the min/max oracle (None: any NaN)."""
    out: set[int] = set()
    for v in inner:
        for m in minmax_bits("max", 0, v, "d3d11") or set():
            got = minmax_bits("min", ONE, m, "d3d11")
            out |= got if got is not None else set()
    return out


def test_model_clamps_with_the_recommended_reading():
    a = np.array(SPECIAL, np.uint32)
    got = np.asarray(evaluate_expr("saturate(a)", {"a": a}).bits).tolist()
    want = []
    for v in SPECIAL:
        x = f32(v)
        small = (v & 0x7FFFFFFF) < 0x00800000
        want.append(0 if is_nan32(v) or x <= 0 or small else (ONE if x >= 1 else v))
    assert got == want


def test_mov_sat_allowed_sets_match_the_min_max_oracle():
    a = np.array(SPECIAL, np.uint32)
    step = evaluate_expr("saturate(a)", {"a": a}).steps[0]
    for i, v in enumerate(SPECIAL):
        want = sat_image({v})
        cand = np.array(CANDIDATES, np.uint32)
        ok = np.asarray(step.allowed(np.broadcast_to(cand[:, None], (len(cand), len(SPECIAL)))))
        got = {int(c) for c, k in zip(cand, ok[:, i]) if k}
        assert got == want & set(CANDIDATES), (hex(v), sorted(map(hex, got)), sorted(map(hex, want)))
        s = step.allowed_set(i)
        assert {c for c in CANDIDATES if s.contains(c)} == want & set(CANDIDATES)


@pytest.mark.parametrize("text, rules, binds", [
    ("saturate(rcp(a))", "d3d11", {"a": [0x3F7FFFFF, 0x3F800001, 0x3F800000, 0x3F7FFFF0]}),
    ("saturate(a + b)", "d3d10", {"a": [0x00800001, 0x3F800000, S | 0x00800000, 0x3F7FFFFF],
                                  "b": [S | 0x00800000, 0x33800000, 0x00000000, 0x33800000]}),
    ("saturate(a / b)", "d3d11", {"a": [bits32(-1.0), bits32(1.0), bits32(-3.0), bits32(0.75)],
                                  "b": [0x7F000000, 0x7F000000, 0x7E800000, bits32(0.75)]}),
    ("saturate(sqrt(a))", "d3d11", {"a": [bits32(-1.0), 0x7FC00000, bits32(0.25), S]}),
    ("saturate(exp2(a))", "d3d11", {"a": [bits32(-0.000001), bits32(1e-7), 0, bits32(-200.0)]}),
])
def test_sat_allowed_set_is_the_image_of_the_instruction_set(text, rules, binds):
    """Brute force: o is allowed iff some pattern the instruction allows clamps to o."""
    arrays = {k: np.array(v, np.uint32) for k, v in binds.items()}
    r = evaluate_expr(text, arrays, rules=rules)
    step = r.steps[-1]
    op = step.step.op
    ins = [np.asarray(x) for x in step.inputs]
    for i in range(len(next(iter(binds.values())))):
        inner = evaluate(op, *[x[i] for x in ins], rules=rules)
        model = int(inner.bits)
        around = range(-40, 41)
        probe = {(model + d) & 0xFFFFFFFF for d in around} | {(ONE + d) for d in around}
        probe |= {d & 0xFFFFFFFF for d in range(-3, 4)} | {S | d for d in range(0, 4)}
        probe |= set(CANDIDATES)
        probe = sorted(p for p in probe if not is_nan32(p)) + [0x7FC00000]
        inner_ok = {p for p, k in zip(probe, inner.allowed(np.array(probe, np.uint32))) if k}
        if bool(inner.nan_ok):
            inner_ok.add(0x7FC00000)
        want = sat_image(inner_ok)
        got_ok = np.asarray(r.steps[-1].allowed(np.array(CANDIDATES + sorted(want), np.uint32)
                                                [:, None] * np.ones(len(ins[0]), np.uint32)))
        got = {c for c, k in zip(CANDIDATES + sorted(want), got_ok[:, i]) if k}
        assert got == want, (i, sorted(map(hex, got)), sorted(map(hex, want)))
        s = step.allowed_set(i)
        assert {p for p in sorted(want) + CANDIDATES if s.contains(p)} == want


def test_sat_of_a_nan_result_allows_only_plus_zero():  # EXPR-SAT: sat(NaN) = +0
    r = evaluate_expr("saturate(sqrt(a))", {"a": -1.0})
    st = r.steps[0]
    assert int(st.bits) == 0 and st.rules_at(0) == sorted(st.rules_at(0))
    assert "EXPR-SAT" in st.rules_at(0)
    assert st.allowed(np.array([0, S, 0x7FC00000], np.uint32)).tolist() == [True, False, False]
    assert st.allowed_set(0).hex_text() == "0x00000000"


def test_pattern_set_image_agrees_with_the_vectorized_verdict():
    """Differential: sat_image (per element) vs sat_allowed (whole arrays)."""
    rng = np.random.default_rng(4)
    a = rng.integers(0, 1 << 32, 400, dtype=np.uint64).astype(np.uint32)
    a[:50] = np.array(SPECIAL * 3, np.uint32)[:50]
    b = np.resize(np.array([bits32(0.5), bits32(-2.0), 0x00000001, bits32(3.0)], np.uint32), 400)
    r = evaluate_expr("saturate(a * b)", {"a": a, "b": b}, rules="d3d10")
    st = r.steps[0]
    cand = np.array(CANDIDATES, np.uint32)
    verdict = np.asarray(st.allowed(cand[:, None] * np.ones(400, np.uint32)))
    for i in range(0, 400, 7):
        s = st.allowed_set(i)
        assert [s.contains(int(c)) for c in cand] == verdict[:, i].tolist(), i


def test_pattern_set_sat_image_by_hand():
    f = F
    k = lambda p: int(key_of(np.uint32(p), f))  # noqa: E731
    s = AllowedSet.from_keys(f, [(k(bits32(-2.0)), k(S | 1))], False)  # [-2, -denormal_min]
    img = set_sat_image(s, f)
    assert [img.contains(p) for p in (0, S, S | 1, S | 2, bits32(-1.0))] == [True, True, True,
                                                                             True, False]
    s = AllowedSet.from_keys(f, [(k(bits32(0.5)), k(bits32(3.0)))], False)
    assert set_sat_image(s, f).hex_text() == "0x3F000000..0x3F800000 (8388609)"
    assert set_sat_image(AllowedSet.from_keys(f, [], True), f).hex_text() == "0x00000000"
    assert d3d_binary_bits("mul", 1, ONE) == 0  # the oracle flushes (sanity of the helper)
