"""F32-FUSED against an enumerator of evaluation orders written in the test: for mad, dp2,
dp3 and dp4, every product, every association of the sums (left to right and balanced:
for dp4 the 12 chains and the 3 pairings), each step rounded within its window (0.5 ULP:
nearest even; 1 ULP: every pattern of the window, both neighbours), with flushes,
overflow to INF and INF - INF = NaN (tests/model/_allowed_oracle.py, Fractions). The
engine's allowed set must equal the union of what the orders give plus the correctly
rounded fused result, under both step widths and both rule sets.

The default run takes a bounded sample; the slow test takes ten times as many cases per op
and reading, or ``FPINSPECTOR_SERIAL_CASES=N`` of them (``pytest -m slow -k serial``).
"""

from __future__ import annotations

import os
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest
from _allowed_oracle import INFP, SIGN, bits32, rn
from _allowed_oracle import fused_oracle as oracle

from fpinspector.model import evaluate

OPS = {"mad": 3, "dp2": 4, "dp3": 6, "dp4": 8}
#: (rule set, options, step width)
READINGS = [("d3d11", None, 0.5), ("d3d11", {"fused_step_ulp": 1.0}, 1.0), ("d3d10", None, 1.0),
            ("d3d11", {"ftz_output": "either"}, 0.5)]
DEFAULT_CASES = {"mad": 80, "dp2": 60, "dp3": 30, "dp4": 20}


def _value(rng: np.random.Generator, kind: str) -> float:
    if kind == "ordinary":
        return float(rng.choice([-1, 1]) * rng.uniform(1, 2) * 2.0 ** int(rng.integers(-6, 7)))
    if kind == "top":
        return float(rng.choice([-1, 1]) * rng.uniform(1, 2) * 2.0 ** int(rng.integers(62, 65)))
    if kind == "bottom":
        return float(rng.choice([-1, 1]) * rng.uniform(1, 2) * 2.0 ** int(rng.integers(-66, -60)))
    raise ValueError(kind)


def sample(op: str, n: int, seed: int) -> list[list[int]]:
    """Random and edge cases: ordinary values, cancelling sums (one product the negation
    of another, nudged by a few ULPs), products near FLT_MAX (overflow in some orders)
    and near 2^-126 (flushes), signed zeros, denormals, INF and NaN operands."""
    rng = np.random.default_rng(seed)
    arity = OPS[op]
    out: list[list[int]] = []
    specials = [0, SIGN, 1, SIGN | 3, INFP, INFP | SIGN, 0x7FC00000, bits32(1.0),
                bits32(-1.0), 0x7F7FFFFF, 0x00800000]
    for i in range(n):
        mode = i % 5
        kind = ["ordinary", "ordinary", "top", "bottom", "ordinary"][mode]
        vals = [_value(rng, kind) for _ in range(arity)]
        pats = [bits32(v) for v in vals]
        if mode == 1 and arity >= 4:  # cancel: a1*b1 = -(a0*b0) nudged
            h = arity // 2 if op != "mad" else 1
            pats[1] = (pats[0] ^ SIGN) + int(rng.integers(-3, 4))
            pats[h + 1] = pats[h]
        if mode == 1 and op == "mad":  # c = -(a*b) rounded, nudged
            pats[2] = bits32(-float(np.float32(vals[0]) * np.float32(vals[1]))) \
                + int(rng.integers(-2, 3))
        if mode == 4:
            for j in rng.choice(arity, size=int(rng.integers(1, 3)), replace=False):
                pats[int(j)] = int(rng.choice(specials))
        out.append([p & 0xFFFFFFFF for p in pats])
    return out


def _check(op: str, rules: str, opts: dict | None, t: float, n: int, seed: int) -> None:
    cases = sample(op, n, seed)
    cols = [np.array([c[k] for c in cases], dtype=np.uint32) for k in range(OPS[op])]
    ftz = (opts or {}).get("ftz_output", "strict")
    for paths in ("reference", "fast"):
        ev = evaluate(op, *cols, rules=rules, options=opts, paths=paths)
        for i, c in enumerate(cases):
            got = ev.allowed_set(i)
            want = oracle(op, c, t, ftz)
            assert (got.keys, got.any_nan) == want, (op, rules, opts, paths,
                                                     [hex(p) for p in c])


@pytest.mark.parametrize("rules,opts,t", READINGS)
@pytest.mark.parametrize("op", list(OPS))
def test_allowed_set_is_the_union_of_every_serial_order_F32_FUSED(op, rules, opts, t):
    _check(op, rules, opts, t, DEFAULT_CASES[op], seed=34)


def test_balanced_dp4_order_is_allowed_F32_FUSED():
    """(p0 + p3) + (p1 + p2) in plain float32 arithmetic is a serial order (default
    d3d11): GPUs reduce in trees. Before, only left-to-right chains were."""
    a = np.array([0xBED5C730, 0x3E87C5AD, 0x3CBB6A43, 0xBE6DEA48], np.uint32).view(np.float32)
    b = np.array([0xBE4B8D4F, 0x3E13AB9B, 0x3EDE4CFE, 0xBF62879E], np.uint32).view(np.float32)
    p = a * b
    bal = np.float32((p[0] + p[3]) + (p[1] + p[2]))
    chains = []
    for order in permutations(range(4)):
        s = p[order[0]]
        for j in order[1:]:
            s = np.float32(s + p[j])
        chains.append(s)
    assert bal not in chains  # the case needs the tree
    fused = rn(sum(Fraction(float(x)) for x in p))
    assert int(bal.view(np.uint32)) != fused
    ev = evaluate("dp4", *a.view(np.uint32), *b.view(np.uint32))
    assert ev.allowed(bal.view(np.uint32))


def test_one_ulp_steps_give_a_set_not_a_hull_F32_FUSED():
    """dp2 with cancelling products under 1-ULP steps: each product may be either
    neighbour, so the exact sums are a few values an ULP of the products apart, each
    with its own small window; the values between those clusters are produced by no
    order (before: the hull between the extremes was allowed)."""
    a0, b0 = bits32(1.0 + 2.0**-20), bits32(3.0)
    a1, b1 = bits32(-(1.0 + 2.0**-20)), bits32(3.0 - 2.0**-22)
    ev = evaluate("dp2", a0, a1, b0, b1, rules="d3d10")
    want = oracle("dp2", [a0, a1, b0, b1], 1.0, "strict")
    assert (ev.allowed_set(0).keys, ev.allowed_set(0).any_nan) == want
    assert len(want[0]) > 1  # several clusters


@pytest.mark.slow
@pytest.mark.parametrize("rules,opts,t", READINGS)
@pytest.mark.parametrize("op", list(OPS))
def test_serial_orders_bigger_sample_F32_FUSED(op, rules, opts, t):
    n = int(os.environ.get("FPINSPECTOR_SERIAL_CASES", 10 * DEFAULT_CASES[op]))
    _check(op, rules, opts, t, n, seed=3434)
