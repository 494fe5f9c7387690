"""The ULP errors' NaN elements set to 0 where the observation is the exact INF itself or
any NaN for an exact NaN (``ulp.zero_same_specials``), against the definition written
here on whole arrays: sizes that are and are not multiples of 8, NaN errors absent,
single, in runs (a sweep chunk's NaN operand patterns), scattered, and on most elements
(half of an exhaustive sqrt sweep), with exact values and observations of every class
(finite, +/-INF, NaN) in f16, f32 and f64.

Why: the NaN errors are found by 8-element words of the mask, then the words' elements;
a word boundary or a tail past the last whole word must change nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model.engine import ulp
from fpinspector.model.formats.float_format import get_format

VIEW = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _case(fmtname: str, n: int, kind: str, seed: int):
    """(err, hi, obs): err NaN on the chosen elements (finite elsewhere), hi and obs of
    every class there (NaN, the same INF, the other INF, finite), finite elsewhere."""
    fmt = get_format(fmtname)
    rng = np.random.default_rng(seed)
    vt = VIEW[fmtname]
    err = rng.normal(size=n)
    if kind == "none":
        nan = np.zeros(n, dtype=bool)
    elif kind == "single":
        nan = np.zeros(n, dtype=bool)
        nan[rng.integers(0, n)] = True
    elif kind == "runs":
        nan = np.zeros(n, dtype=bool)
        for s in rng.integers(0, n, 3):
            nan[s:s + int(rng.integers(1, 40))] = True
        nan[-1] = True  # (the tail past the last whole word)
    elif kind == "scattered":
        nan = rng.random(n) < 0.01
    else:  # "most"
        nan = rng.random(n) < 0.6
    err[nan] = np.nan
    specials = np.array([np.nan, np.inf, -np.inf, 1.5], dtype=vt)
    hi_v = np.full(n, 2.0, dtype=vt)
    obs_v = np.full(n, 2.0, dtype=vt)
    k = np.flatnonzero(nan)
    hi_v[k] = specials[rng.integers(0, 4, k.size)]
    obs_v[k] = specials[rng.integers(0, 4, k.size)]
    return err, hi_v.astype(np.float64), obs_v.view(fmt.dtype).copy()


@pytest.mark.parametrize("fmtname", ["f16", "f32", "f64"])
@pytest.mark.parametrize("n", [1, 7, 8, 9, 1000, 4097, 1 << 17])
@pytest.mark.parametrize("kind", ["none", "single", "runs", "scattered", "most"])
def test_zero_same_specials_equals_the_definition(fmtname, n, kind) -> None:
    """0 where the error is NaN and the exact value and the observation are both NaN or
    both not (then the same INF); every other element unchanged (NaN stays NaN)."""
    err, hi, obs = _case(fmtname, n, kind, seed=n + len(kind))
    want = err.copy()
    obs_nan = np.isnan(obs.view(VIEW[fmtname]))
    want[np.isnan(want) & (np.isnan(hi) == obs_nan)] = 0.0
    got = err.copy()
    ulp.zero_same_specials(got, hi, obs, get_format(fmtname))
    assert np.array_equal(got, want, equal_nan=True)
    if n >= 1000 and kind in ("runs", "scattered", "most"):  # (both outcomes met)
        assert np.isnan(want).any() and (np.isnan(err) & (want == 0)).any()
