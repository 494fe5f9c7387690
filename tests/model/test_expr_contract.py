"""What a freely compiled expression is compared with: the step list, or the step list
with mul + add contracted into one fused multiply-add (an FMA: one rounding, Fraction
oracle)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from _engine_oracle import bits32, f32, round_f32

from fpinspector.model import evaluate_expr
from fpinspector.model.expr import lower
from fpinspector.model.expr.contract import contract_fma, free_notes

T = {"a": "float", "b": "float", "c": "float"}


def test_contraction_rewrites_add_of_a_once_used_mul():
    assert contract_fma(lower("a * b + c", T)).listing()[1] == "r1 = mad a, b, c"
    assert contract_fma(lower("c - a * b", T)).listing()[1] == "r1 = mad -a, b, c"
    assert contract_fma(lower("saturate(a * b + c)", T)).listing()[1] == "r1 = mad_sat a, b, c"
    assert contract_fma(lower("lerp(a, b, c)", T)) is None
    assert contract_fma(lower("a * b", T)) is None  # the mul is the result itself


def test_free_notes_tell_the_step_list_from_its_fma_contraction():
    a, b, c = 1.0000001, 1.0000001, -1.0000002
    r = evaluate_expr("a * b + c", {"a": a, "b": b, "c": c})
    exact = Fraction(f32(bits32(a))) ** 2 + Fraction(f32(bits32(c)))
    fma = np.uint32(bits32(round_f32(exact)))  # one rounding of the exact a*b+c
    assert int(r.bits) == 0 and fma != 0  # two roundings lose everything here
    notes = free_notes(r, [np.array([int(r.bits), int(fma), 12345], np.uint32)])
    assert notes[0].tolist() == [0, 1, 2]
