"""One element's answers (allowed set, rules, sentences, steps, verdicts) read one facts
record, and never depend on which elements were asked before: each answer equals the
answer of a fresh evaluation asked about that element alone."""

from __future__ import annotations

import numpy as np
import pytest
from _engine_oracle import F32_SPECIALS

from fpinspector.model import evaluate
from fpinspector.model.engine import finish


def _answers(ev, i: int, observed: list[int]) -> tuple:
    verdicts = [ev.verdict(i, o) for o in observed]
    return (str(ev.allowed_set(i)), ev.rules_at(i), ev.explain_at(i), ev.steps_at(i),
            [(v.conformant, v.reason, v.ulp_error, v.ulp_note) for v in verdicts])


def test_one_element_reads_one_facts_record(monkeypatch) -> None:
    made = []
    real = finish.facts

    def counting(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(finish, "facts", counting)
    ev = evaluate("mul", np.array([0x40400001], np.uint32), np.array([0x3F800003], np.uint32))
    bits = int(ev.bits[0])
    _answers(ev, 0, [bits, bits + 1, 0x7FC00000])
    assert len(made) == 1


@pytest.mark.parametrize("exact_first", [False, True])
@pytest.mark.parametrize("op", ["mul", "div", "mad", "min", "sqrt"])
def test_answers_do_not_depend_on_the_elements_asked_before_F32_FTZ_F32_NANOUT(
        op, exact_first) -> None:
    """``exact_first``: the whole array's exact value is read first, so an element's
    facts come from its chunk's (which its neighbours decide how to compute)."""
    rng = np.random.default_rng(7)
    k = {"sqrt": 1, "mad": 3}.get(op, 2)
    pats = np.array(F32_SPECIALS, dtype=np.uint32)
    ops = [rng.permutation(pats) for _ in range(k)]
    ev = evaluate(op, *ops)
    if exact_first:
        ev.exact
    bits = ev.bits.reshape(-1)
    order = list(rng.permutation(len(pats))) + [3, 3, 0, len(pats) - 1, 0]
    for i in order:
        obs = [int(bits[i]), int(bits[i]) ^ 1, 0x00000001, 0x7FC00000]
        alone = evaluate(op, *(o[i:i + 1] for o in ops))
        assert _answers(ev, int(i), obs) == _answers(alone, 0, obs), (op, i)


@pytest.mark.parametrize("op", ["sqrt", "div", "add"])
def test_exact_value_does_not_depend_on_asking_for_bits_first(op) -> None:
    """The exact value (a NaN's sign included, which the steps print as the rounded
    pattern) is the same whether or not ``bits`` was read before it."""
    pats = np.array(F32_SPECIALS, dtype=np.uint32)
    ops = [pats] if op == "sqrt" else [pats, pats[::-1].copy()]
    first = evaluate(op, *ops)
    exact_first = first.exact.view(np.uint64)
    second = evaluate(op, *ops)
    second.bits
    assert np.array_equal(exact_first, second.exact.view(np.uint64))
    steps = [evaluate(op, *(o[i:i + 1] for o in ops)).steps_at(0) for i in range(len(pats))]
    for i, s in enumerate(steps):
        ev = evaluate(op, *(o[i:i + 1] for o in ops))
        ev.bits
        assert ev.steps_at(0) == s
