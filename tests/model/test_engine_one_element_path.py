"""An app's one-element evaluation gives what the same element gives inside a larger
array (the array path is the reference): bits, exact value, allowed set, fired rules,
sentences, steps and verdicts, for every arithmetic, compare and move op, edge operands
(+/-0, denormals, max, INF, NaN) and every rule set (F32-FTZ, F32-NANOUT, F32-PREC...).

Why: a one-element evaluation takes shortcuts an array does not (no broadcast when the
operands' shapes agree; no search of the kernel's left elements when it left none), and
in the array the edge elements are left by the fast kernels to the general path while
their neighbours (random normal operands) are vouched for."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model import evaluate
from fpinspector.model.engine import OPS, RULE_SETS
from fpinspector.model.formats import get_format

#: edge patterns per format: zeros, denormals at both ends, min normal, max, one, INF,
#: quiet and signaling NaN (both signs where the format has them)
_EDGES = {
    "f32": [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF,
            0xFF7FFFFF, 0x3F800000, 0xC0400000, 0x7F800000, 0xFF800000, 0x7FC00000,
            0xFFA00001],
    "f16": [0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0xC200,
            0x7C00, 0xFC00, 0x7E00, 0xFD01],
}
#: ordinary operands (normal, not +/-1) and +/-1 per format: an identity among ordinary
#: operands (x * 1, x / -1, 1 * y + z) is the one thing that makes their element not an
#: ordinary one (finish/fired.py), and no edge tuple holds it
_PLAIN = {"f32": (0x40400000, 0x3FC00000, 0xC0A00000), "f16": (0x4200, 0x3E00, 0xC500)}
_ONES = {"f32": (0x3F800000, 0xBF800000), "f16": (0x3C00, 0xBC00)}
_OPS = [name for name, spec in OPS.items() if not spec.traits.converts]
_PAIRS = 18  # operand tuples per (op, format, rule set)


def _operand_tuples(arity: int, fmt: str) -> list[tuple]:
    """Edge operands against edge operands (strided so each edge meets the others in
    each operand position), then ordinary operands alone and with +/-1 in each position."""
    edges, plain = _EDGES[fmt], _PLAIN[fmt]
    n = len(edges)
    out = [tuple(edges[(i * (k + 1) + k) % n] for k in range(arity)) for i in range(_PAIRS)]
    out.append(tuple(plain[j % len(plain)] for j in range(arity)))
    out += [tuple(one if j == k else plain[j % len(plain)] for j in range(arity))
            for k in range(arity) for one in _ONES[fmt]]
    return out


def _answers(ev, i: int) -> tuple:
    bits = int(np.asarray(ev.bits).reshape(-1)[i]) if ev.result_format != "bool" else \
        bool(np.asarray(ev.bits).reshape(-1)[i])
    exact = np.asarray(ev.exact, dtype=np.float64).reshape(-1)[i]
    lo = np.asarray(ev.exact_lo, dtype=np.float64).reshape(-1)[i]
    observed = [bits] if ev.result_format == "bool" else [bits, bits ^ 1, 0, 0x7C00 if
                                                          ev.format == "f16" else 0x7FC00000]
    verdicts = [ev.verdict(i, o) for o in observed]
    # (the float64 patterns: a NaN's sign bit and a zero's sign count too)
    return (bits, hex(int(np.float64(exact).view(np.uint64))),
            hex(int(np.float64(lo).view(np.uint64))),
            str(ev.allowed_set(i)), ev.rules_at(i),
            # (the fired masks: an array's come from its chunk's facts, not the element's)
            sorted(k for k, m in ev.fired.items() if m.reshape(-1)[i]),
            ev.explain_at(i), ev.steps_at(i),
            [(v.conformant, v.reason, v.ulp_error, v.ulp_note) for v in verdicts])


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("fmt", sorted(_EDGES))
@pytest.mark.parametrize("op", _OPS)
def test_one_element_equals_its_element_in_an_array_F32_FTZ_F32_NANOUT(op, fmt, rules) -> None:
    spec = OPS[op]
    if fmt not in spec.formats:
        pytest.skip(f"{op} has no {fmt}")
    f = get_format(fmt)
    rng = np.random.default_rng(36)
    tuples = _operand_tuples(spec.arity, fmt)
    # the array: each edge tuple between random normal operands (the kernels vouch for
    # those and leave the edges), so the array path mixes vouched and left elements
    filler = 2 * len(tuples) + 1
    one = f.dtype.type(0x3F800000 if fmt == "f32" else 0x3C00)
    cols = []
    for k in range(spec.arity):
        col = np.full(len(tuples) + filler, one, dtype=f.dtype)
        col[: len(tuples)] = [t[k] for t in tuples]
        rand = rng.integers(0x3E000000, 0x41000000, filler) if fmt == "f32" else \
            rng.integers(0x3000, 0x5000, filler)
        col[len(tuples):] = rand.astype(f.dtype)
        cols.append(col)
    order = rng.permutation(len(cols[0]))
    cols = [c[order] for c in cols]
    where = {int(j): int(i) for i, j in enumerate(order)}
    try:
        whole = evaluate(op, *cols, format=fmt, rules=rules)
    except ValueError as exc:  # (a format the rule set gives no arithmetic: none here)
        pytest.fail(f"{op} {fmt} {rules}: {exc}")
    for k, t in enumerate(tuples):
        alone = evaluate(op, *(np.array([v], dtype=f.dtype) for v in t), format=fmt,
                         rules=rules)
        assert _answers(alone, 0) == _answers(whole, where[k]), (op, fmt, rules,
                                                                 [hex(v) for v in t])
