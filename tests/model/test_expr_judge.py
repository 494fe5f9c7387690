"""Judging a GPU's per-step results without a GPU: synthetic step words stand for what a
driver returned. Each step is judged against the model fed with the GPU's own inputs."""

from __future__ import annotations

import numpy as np
from _engine_oracle import bits32

from fpinspector.model import evaluate, evaluate_expr
from fpinspector.model.expr import judge_gpu

U32 = np.uint32


def words(r):
    return [np.array(s.bits, dtype=U32 if s.bits.dtype != bool else U32) for s in r.steps]


def test_a_gpu_equal_to_the_model_is_conformant_everywhere():
    a = np.array([bits32(x) for x in (1.5, -2.0, 1e-3, 7.0)], U32)
    r = evaluate_expr("saturate(rcp(a) * a + 0.5)", {"a": a})
    j = judge_gpu(r, words(r))
    assert j.first_bad.tolist() == [-1] * 4 and all(ok.all() for ok in j.ok)


def test_an_allowed_difference_moves_the_next_step_onto_the_gpu_inputs():
    """rcp may be 1 ULP off (F32-SQRT-RCP); the mul after it is judged on that input."""
    a = np.array([bits32(3.0)], U32)
    r = evaluate_expr("rcp(a) * 3.0", {"a": a})
    w = words(r)
    w[0] = w[0] + U32(1)  # another allowed rcp
    assert bool(evaluate("rcp", a).allowed(w[0])[0])
    fed = np.asarray(evaluate("mul", w[0], U32(bits32(3.0))).bits)
    assert fed[0] != r.steps[1].bits[0]  # the model's chain would judge step 1 wrongly
    w[1] = fed
    j = judge_gpu(r, w)
    assert j.first_bad.tolist() == [-1]
    assert j.fed[1].tolist() == fed.tolist()
    w[1] = fed + U32(1)  # now step 1 itself is off by one ULP: mul must be exact (F32-PREC)
    j = judge_gpu(r, w)
    assert j.first_bad.tolist() == [1] and j.ok[0].all() and not j.ok[1].any()


def test_a_kept_denormal_is_the_first_divergence():
    """llvmpipe's compute path keeps denormals (F32-FTZ broken at step 0)."""
    r = evaluate_expr("n * rsqrt(dot(n, n))", {"n": "float3(1e-20, 0, 0)"})
    w = words(r)
    w[0] = np.array(71362, U32)  # the denormal dot product, unflushed
    w[1] = np.array(bits32(float(np.float32(1.0) / np.sqrt(np.float32(1e-40)))), U32)
    j = judge_gpu(r, w)
    assert int(j.first_bad) == 0 and not bool(j.ok[0])


def test_select_and_comparisons_judge_bits_and_booleans():
    a = np.array([bits32(1.0), bits32(3.0)], U32)
    r = evaluate_expr("a < 2 ? -a : asfloat(0x7fc00001)", {"a": a})
    w = words(r)
    w[0] = np.array([1, 0], U32)  # comparisons come back as 0/1 words
    j = judge_gpu(r, w)
    assert j.first_bad.tolist() == [-1, -1]
    w[1] = np.array([bits32(-1.0), 0x7FC00000], U32)  # movc must copy the NaN's bits
    j = judge_gpu(r, w)
    assert j.first_bad.tolist() == [-1, 1]


def test_engine_allowed_sets_and_verdict_sentences_are_used_where_the_engine_has_them(
        monkeypatch):
    """Evaluation.allowed_set(i) / verdict(i, obs) (the engine's per-element set and reason)
    replace the expression layer's own reconstruction when they exist."""
    from types import SimpleNamespace

    from fpinspector.model.engine import Evaluation
    from fpinspector.model.expr.report import element_report

    fake = SimpleNamespace(ranges=[(0x3F800000, 0x3F800001)], any_nan=True)
    monkeypatch.setattr(Evaluation, "allowed_set", lambda self, i: fake, raising=False)
    monkeypatch.setattr(Evaluation, "verdict",
                        lambda self, i, obs: SimpleNamespace(reason="one sentence"))
    r = evaluate_expr("rcp(a) * 3.0", {"a": np.array([bits32(3.0)], U32)})
    s = r.steps[0].allowed_set(0)
    assert s.ranges == ((0x3F800000, 0x3F800001),) and s.any_nan
    rep = element_report(r, 0, judge_gpu(r, words(r)))
    assert rep["steps"][0]["gpu_why"] == "one sentence"


def test_the_gpu_why_of_a_step_is_the_engines_one_sentence_reason():
    """F32-PREC: mul is correctly rounded; a GPU word 5 ULP off it is refused, and the report
    gives the engine's sentence for that word (Verdict.reason), not the verdict record."""
    from fpinspector.model.expr.report import element_report

    x, y = np.float32(1.1), np.float32(3.0)
    r = evaluate_expr("a * b", {"a": np.array([bits32(x)], U32), "b": np.array([bits32(y)], U32)})
    right = np.array([x * y], np.float32).view(U32)  # numpy's float32 mul rounds to nearest
    assert r.steps[0].bits.tolist() == right.tolist()
    off = right + U32(5)
    step = element_report(r, 0, judge_gpu(r, [off]))["steps"][0]
    assert step["gpu_allowed"] is False
    assert step["gpu_why"] == evaluate("mul", bits32(x), bits32(y)).verdict(0, off[0]).reason
    assert "F32-PREC" in step["gpu_why"] and not step["gpu_why"].startswith("Verdict(")


def test_an_f32tof16_word_with_bits_above_the_half_is_refused_with_a_reason():
    """CONV-F16-INSTR: f32tof16 writes the half in bits 0-15 and zeroes bits 16-31; a GPU
    word with an upper bit set is not allowed, and the report says why (no exception)."""
    from fpinspector.model.expr.report import element_report

    r = evaluate_expr("f32tof16(a)", {"a": np.array([bits32(3.0)], U32)})
    half = int(np.array([3.0], np.float16).view(np.uint16)[0])  # numpy's f16 encoding: 0x4200
    good = element_report(r, 0, judge_gpu(r, [np.array([half], U32)]))["steps"][0]
    assert good["gpu_allowed"] is True
    step = element_report(r, 0, judge_gpu(r, [np.array([half | 0x10000], U32)]))["steps"][0]
    assert step["gpu_allowed"] is False
    assert "CONV-F16-INSTR" in step["gpu_why"] and "0x00014200" in step["gpu_why"]
