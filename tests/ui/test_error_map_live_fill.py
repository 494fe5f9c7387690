"""The error map fills while the sweep runs ("watch it fill").

A slow numpy backend gives each element an error equal to A - B (as pattern integers), so
where every drawn value belongs is known from the grid alone: element k of a 512 x 512
bit-range grid has A = k // 512, B = k % 512. Expected pixels use sign(e) * log2(1 + |e|)
written out here, not the widget's helper.
"""

from __future__ import annotations

import time

import numpy as np
from _sweep_fakes import ThreadsOnlyBackend

from fpinspector.ui.maps.sweep_panel import SweepPanel


class _SlowDiffBackend(ThreadsOnlyBackend):
    ARITY = {"sub": 2}

    def make(self, op, fmt, rules, gpu):
        def stage(ops):
            time.sleep(0.3)
            a, b = (o.astype(np.float64) for o in ops)
            n = len(a)
            return {"model": ops[0], "exact": a - b, "err_model": a - b,
                    "ok_model": np.ones(n, bool)}

        return stage, "f32", {}


def test_map_fills_chunk_by_chunk_in_the_right_cells(qtbot) -> None:
    """FMT-F32 bit-range grid (no rule under test: UI streaming): partial map while running,
    drawn cells at their grid positions, undrawn cells NaN; the final map replaces it."""
    p = SweepPanel(backend=_SlowDiffBackend())
    qtbot.addWidget(p)
    p.use_gpu.setChecked(False)
    p.domain_a.setText("bits:0:511")
    p.domain_b.setText("bits:0:511")
    assert p.start_sweep()
    seen = []

    def partial() -> bool:
        v = p.map.values
        if v is not None and p.is_running():
            z = v.reshape(-1)  # rows = A: element order
            if 0 < np.isfinite(z).sum() < z.size:
                seen.append(z.copy())
                return True
        return False

    qtbot.waitUntil(partial, timeout=10000)
    z = seen[-1]
    k = np.flatnonzero(np.isfinite(z))
    assert k[0] == 0 and np.all(np.diff(k) == 1)  # chunks arrive in order from element 0
    e = (k // 512 - k % 512).astype(np.float64)
    assert np.array_equal(z[k], np.sign(e) * np.log2(1 + np.abs(e)))
    assert seen[-1].shape == (512 * 512,) and np.isnan(seen[-1][-1])  # last not computed yet
    qtbot.waitUntil(lambda: not p.is_running(), timeout=20000)
    assert p.result.complete and p.runner.live is None
    assert not np.isnan(p.map.values).any()
    p.shutdown()


def test_all_patterns_stream_into_a_bounded_map(qtbot) -> None:
    """A unary sweep over 2^23 patterns (twice the per-element limit, 128 chunks) keeps
    no per-element column past the limit and draws at most MAX_POINTS points; each point is
    the worst error of its bucket (A - 0 = A here: the bucket's last pattern)."""
    from fpinspector.model.sweep.map_blocks import MAX_POINTS
    from fpinspector.model.sweep.runner import KEEP_LIMIT

    class _Unary(_SlowDiffBackend):
        ARITY = {"sqrt": 1}

        def make(self, op, fmt, rules, gpu):
            def stage(ops):
                a = ops[0].astype(np.float64)
                return {"model": ops[0], "exact": a, "err_model": a,
                        "ok_model": np.ones(len(a), bool)}

            return stage, "f32", {}

    p = SweepPanel(backend=_Unary())
    qtbot.addWidget(p)
    p.use_gpu.setChecked(False)
    p.op.setCurrentText("sqrt")
    n = KEEP_LIMIT * 2
    p.domain_a.setText(f"bits:0:{n - 1}")
    assert p.start_sweep()
    qtbot.waitUntil(lambda: not p.is_running(), timeout=60000)
    res = p.result
    assert res.complete and res.columns == {}  # nothing per element was kept
    x, y = p.map.curve.getData()
    assert len(x) == MAX_POINTS
    per = n // MAX_POINTS
    last = np.arange(1, MAX_POINTS + 1) * per - 1  # the largest A of each bucket
    assert np.allclose(y, np.log2(1 + last))
    assert "elements/s" in p.progress.format()
    p.shutdown()


def test_a_live_frame_coloured_before_the_final_map_never_replaces_it(qtbot) -> None:
    """FMT-F32 (UI streaming): a live frame is coloured on a thread from the blocks as they
    were; if it arrives after the finished sweep was drawn (the same blocks, now full), it
    is dropped instead of putting "not computed yet" cells back on a finished map."""
    from fpinspector.model.sweep import Axis, GridDomain, run_sweep
    from fpinspector.model.sweep.map_blocks import BlockMap
    from fpinspector.ui.maps.error_map import ErrorMapWidget

    dom = GridDomain(Axis.bit_range("f32", 0, 255), Axis.bit_range("f32", 0, 255))
    res = run_sweep(dom, _diff, result_format="f32", keep_elements=True)
    blocks = BlockMap(dom, "f32")
    half = dom.size // 2
    blocks.add(0, dom.operands(0, half), {k: v[:half] for k, v in res.columns.items()})
    view = ErrorMapWidget()
    qtbot.addWidget(view)
    view.set_compare("model_vs_exact", redraw=False)
    view.show_blocks(blocks, dict(res.meta))  # coloured on a thread: half the map
    time.sleep(0.5)  # (its image is ready, and waits in the event queue)
    blocks.add(half, dom.operands(half, dom.size), {k: v[half:] for k, v in res.columns.items()})
    view.set_result(res, blocks=blocks)  # the finished map, drawn now
    assert not np.isnan(view.values).any()
    qtbot.wait(300)  # the stale frame is delivered here
    assert not np.isnan(view.values).any()


def _diff(ops):
    a, b = (o.astype(np.float64) for o in ops)
    return {"model": ops[0], "exact": a - b, "err_model": a - b,
            "ok_model": np.ones(len(a), bool)}
