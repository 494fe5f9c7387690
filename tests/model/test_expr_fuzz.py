"""Garbage in, a message out: random token soups and random valid-looking expressions are
either evaluated or refused with ExprError/BindingError (with a position), nothing else."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fpinspector.model.expr import BindingError, ExprError, evaluate_expr

TOKENS = ["a", "b", "n", "u", "x", "1", "0.5", "1e-40", "0x7f800001", "2u", "+", "-", "*",
          "/", "<", "<=", "==", "!=", ">", "?", ":", ",", "(", ")", ".", "xyz", "x", "w",
          "dot", "mad", "saturate", "rsqrt", "lerp", "asfloat", "asuint", "f32tof16",
          "f16tof32", "abs", "frac", "min", "float3", "uint2", "[", "'", "lambda", "__x",
          "=", ";", "%", "!", " "]
BINDS = {"a": 1.5, "b": "-0", "n": "float3(1e-20, 0, 0)", "u": "uint(0x3c00)", "x": "nan"}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), min_size=0, max_size=14))
def test_token_soup_is_evaluated_or_refused_with_a_position(tokens):
    text = " ".join(tokens)
    try:
        r = evaluate_expr(text, BINDS)
    except ExprError as exc:
        assert 0 <= exc.pos <= len(text) and exc.message
        exc.caret(text)
        return
    except BindingError:
        return
    for s in r.steps:  # a valid expression: every step has bits, a verdict and a set
        assert s.allowed(s.bits).all()
        s.allowed_set(0)
        s.rules_at(0)
    r.ulp_error()


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_any_patterns_through_a_rich_expression(a, b, c):
    text = "saturate(lerp(a, b, c)) + (a < b ? rsqrt(abs(c)) : frac(b)) - f16tof32(f32tof16(a))"
    r = evaluate_expr(text, {"a": np.uint32(a), "b": np.uint32(b), "c": np.uint32(c)})
    for s in r.steps:
        assert s.allowed(s.bits).all()  # the model's own result is always allowed
    assert np.shape(r.exact[0]) == ()
