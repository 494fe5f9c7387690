"""Class counts of sweep chunks (zero, denormal, normal, infinity, NaN; DEC rules): chunks
of one class (taken by two reductions) and chunks across class edges count as numpy's own
float32 / float16 classification says."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model.formats import FORMATS
from fpinspector.model.sweep.hist import class_counts


def _numpy_counts(bits: np.ndarray, ftype: type) -> list[int]:
    v = bits.view(ftype)
    zero, nan, inf = v == 0, np.isnan(v), np.isinf(v)
    den = ~zero & ~nan & ~inf & (np.abs(v) < np.finfo(ftype).smallest_normal)
    normal = ~zero & ~nan & ~inf & ~den
    return [int(m.sum()) for m in (zero, den, normal, inf, nan)]


@pytest.mark.parametrize("name, ftype", [("f32", np.float32), ("f16", np.float16)])
def test_runs_at_every_class_edge_DEC_CLASS(name, ftype):
    f = FORMATS[name]
    edges = [0, 1, (1 << f.frac_bits) - 1, 1 << f.frac_bits, f.pos_inf - 1, f.pos_inf,
             f.pos_inf + 1, f.mask >> 1]
    for sign in (0, f.sign_mask):
        for e in edges:
            for start in range(max(0, e - 3), e + 1):
                for n in (1, 2, 3, 6):
                    stop = min(start + n, (f.mask >> 1) + 1)
                    bits = (np.arange(start, stop, dtype=np.uint64) | sign).astype(f.dtype)
                    assert class_counts(f, bits).tolist() == _numpy_counts(bits, ftype), (
                        hex(start), n, sign)
    assert class_counts(f, np.zeros(0, f.dtype)).tolist() == [0] * 5


@pytest.mark.parametrize("name, ftype", [("f32", np.float32), ("f16", np.float16)])
def test_both_signs_between_first_and_last_DEC_CLASS(name, ftype):
    """First and last pattern normal, of opposite signs, a negative denormal between: the
    patterns' own extremes (+1.0 and -1.0) are both normal, the magnitudes' are not."""
    f = FORMATS[name]
    one = int(np.array(1.0, ftype).view(f.dtype))
    bits = np.array([one, f.sign_mask | 1, f.sign_mask | one], dtype=f.dtype)
    assert class_counts(f, bits).tolist() == _numpy_counts(bits, ftype) == [0, 1, 2, 0, 0]
