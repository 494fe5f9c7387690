"""f64's sign bit (2**63) in the int64 neighbour and key arithmetic (FMT-F64).

numpy >= 2.5 refuses a Python int that does not fit the array's dtype (2**63 into int64)
where earlier versions wrapped it silently: ``decode`` of any value and every f64
evaluation ended in OverflowError. The oracle is numpy's own float64 ``nextafter`` and
plain Python integers, never the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model.engine.grid import from_key as pattern_of
from fpinspector.model.engine.grid import to_key as key_of
from fpinspector.model.formats import F32, F64

EDGES64 = [0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
           0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF0000000000000,
           0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF]


def _nextafter_bits(p: int, toward: float) -> int:
    x = np.array([p], np.uint64).view(np.float64)
    with np.errstate(over="ignore"):  # the largest finite value steps to INF
        return int(np.nextafter(x, toward).view(np.uint64)[0])


@pytest.mark.parametrize("p", EDGES64)
def test_f64_next_up_and_down_match_nextafter_FMT_F64(p):
    up = int(F64.next_up(np.array([p], np.uint64))[0])
    down = int(F64.next_down(np.array([p], np.uint64))[0])
    want_up = _nextafter_bits(p, np.inf)
    want_down = _nextafter_bits(p, -np.inf)
    # nextafter steps over zero (+0 <-> -0 are one value); the format steps -0 <-> +min too
    if p == 0x8000000000000001:
        want_up = 0x8000000000000000
    if p == 0x0000000000000000:
        want_down = 0x8000000000000001
    assert (up, down) == (want_up, want_down)


def test_f64_neighbours_of_a_python_int_scalar_FMT_F64():
    """The scalar path (what `fpinspector decode` uses) takes a Python int."""
    assert int(F64.next_up(0x8000000000000001)) == 0x8000000000000000
    assert int(F64.next_down(0)) == 0x8000000000000001


def test_f64_value_keys_order_like_the_values_FMT_F64():
    """key_of orders f64 patterns by value, -0 below +0; pattern_of inverts it."""
    pats = np.array(EDGES64, np.uint64)
    keys = key_of(pats, F64)
    vals = pats.view(np.float64)
    order = np.lexsort((np.signbit(vals) == 0, vals))  # by value, -0 before +0
    assert list(np.argsort(keys, kind="stable")) == list(order)
    for p, k in zip(EDGES64, keys.tolist()):  # oracle: sign-magnitude in Python ints
        mag = p & ((1 << 63) - 1)
        assert k == (-mag - 1 if p >> 63 else mag)
    assert pattern_of(keys, F64).tolist() == EDGES64


def test_f32_keys_unchanged_FMT_F32():
    pats = np.array([0, 0x80000000, 1, 0x80000001, 0x7F800000], np.uint32)
    assert key_of(pats, F32).tolist() == [0, -1, 1, -2, 0x7F800000]
