"""A chunk reduced to its map blocks (BlockGrid.part, what a sweep worker computes beside
each chunk) against a per-block oracle written out with numpy: every element's signed-log
error, its extremes, the element with the largest finite error (the last of equals),
non-conformant / NaN / INF / denormal-input counts; a chunk inside one block (an
exhaustive f32 sweep's) and one across two blocks."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, UnaryDomain
from fpinspector.model.sweep.map_blocks import BlockMap, signed_log


def _oracle(k0: int, ops: np.ndarray, out: dict, fb: int) -> dict[int, dict]:
    blocks: dict[int, dict] = {}
    for b in np.unique((np.arange(k0, k0 + ops.size)) // fb):
        sel = ((np.arange(k0, k0 + ops.size)) // fb) == b
        e = out["err_model"][sel]
        z = signed_log(e)
        finite_z = z[~np.isnan(z)]
        a = np.abs(e)
        fin = np.isfinite(a)
        peak_e = a[~np.isnan(a)].max() if (~np.isnan(a)).any() else None
        worst = -1
        if peak_e is not None and np.isfinite(peak_e):
            worst = int(k0 + np.flatnonzero(sel)[np.flatnonzero((a == peak_e) & fin)[-1]])
        exp = (ops[sel] >> 23) & 0xFF
        blocks[int(b)] = {
            "hi": finite_z.max() if finite_z.size else -np.inf,
            "lo": finite_z.min() if finite_z.size else np.inf,
            "worst": worst,
            "count": int(sel.sum()),
            "bad": int((~out["ok_model"][sel]).sum()),
            "den": int(((exp == 0) & ((ops[sel] & 0x7FFFFF) != 0)).sum()),
            "nan": int(np.isnan(out["model"][sel].view(np.float32)).sum()),
        }
    return blocks


@pytest.mark.parametrize("k0, n", [(3 * 65536, 65536), (3 * 65536 + 100, 65536)])
def test_a_chunk_reduced_to_its_blocks_equals_the_oracle(k0: int, n: int) -> None:
    rng = np.random.default_rng(k0)
    dom = UnaryDomain(Axis.every("f32"))
    bm = BlockMap(dom, "f32")
    assert bm.fb == 65536
    ops = dom.operands(k0, k0 + n)[0]
    err = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 9, n)
    err[rng.integers(0, n, 50)] = np.nan
    err[7] = err[9] = np.nanmax(np.abs(err)) * 2  # a tie for the largest: the later wins
    err[n - 1] = np.inf  # a block with an INF error has no finite worst (the last block)
    model = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    out = {"err_model": err, "ok_model": rng.random(n) < 0.9, "model": model}
    bm.add(k0, (ops,), out)
    want = _oracle(k0, ops, out, bm.fb)
    hi, lo = bm.hi["err_model"], bm.lo["err_model"]
    for b, w in want.items():
        assert hi[b] == w["hi"] and lo[b] == w["lo"], b
        assert bm.worst["err_model"][b] == w["worst"], b
        assert bm.count[b] == w["count"] and bm.bad[b] == w["bad"], b
        assert bm.denormal[b] == w["den"] and bm.nan[b] == w["nan"], b
    assert bm.count.sum() == n and len(want) == (1 if k0 % 65536 == 0 else 2)
    first, last = min(want), max(want)
    assert want[first]["worst"] == (k0 + 9 if first != last else -1)
    assert want[last]["worst"] == -1
