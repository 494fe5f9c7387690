"""One comparison of two finished sweeps for the resume and interrupt tests: the same
summary, columns, fired-rule masks and metadata (but the keys a run may differ in)."""

from __future__ import annotations

import numpy as np


def assert_same_sweep(a, b, meta_ignored: tuple[str, ...] = ("timings",)) -> None:
    assert a.complete and b.complete and a.n_done == b.n_done
    assert a.summary.to_dict() == b.summary.to_dict()
    assert a.columns.keys() == b.columns.keys() and a.fired.keys() == b.fired.keys()
    for k in a.columns:
        assert np.array_equal(a.columns[k], b.columns[k], equal_nan=True), k
    for k in a.fired:
        assert np.array_equal(a.fired[k], b.fired[k]), k
    assert {k: v for k, v in a.meta.items() if k not in meta_ignored} == {
        k: v for k, v in b.meta.items() if k not in meta_ignored}
