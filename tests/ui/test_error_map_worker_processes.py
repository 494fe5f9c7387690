"""A map of 2^20+ elements runs in the backend's worker processes (both cores), and the map
the user sees is the one a single stage thread draws: each chunk is reduced to its blocks
in the worker that computed it and merged in element order, whether or not per-element
columns are kept (beyond 2^22 elements they are not).

Oracles: the same sweep's result folded into a fresh BlockMap afterwards
(``BlockMap.from_result``, where columns are kept), and the same panel run on a stage
thread only.
"""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.gpu.map_backend import PanelSweepBackend
from fpinspector.model.sweep.map_blocks import ERROR_COLUMNS, BlockMap
from fpinspector.ui.maps.sweep_panel import SweepPanel


def _run_map(qtbot, workers: int, domain_a: str = "lin:-2:2:1024"
             ) -> tuple[object, BlockMap, object]:
    backend = PanelSweepBackend(workers=workers)
    panel = SweepPanel(backend=backend)
    qtbot.addWidget(panel)
    panel.use_gpu.setChecked(False)
    panel.op.setCurrentText("mul")
    panel.domain_a.setText(domain_a)
    panel.domain_b.setText("log:1e-39:1e3:1024")  # f32 denormals among B: F32-FTZ marks
    shown: list[tuple[object, BlockMap]] = []
    original = panel.show_result
    panel.show_result = lambda res, blocks=None: (shown.append((res, blocks)),
                                                  original(res, blocks))
    try:
        assert panel.start_sweep(), panel.map.info.text()
        where = "in 2 worker processes" if workers == 2 else "on a stage thread"
        size = panel.sweep.plan().domain.size
        assert panel.map.info.text().startswith(f"running: starting {size:,} elements {where}")
        qtbot.waitUntil(lambda: not panel.is_running(), timeout=120000)
        pool = backend._workers
    finally:
        panel.shutdown()
    res, blocks = shown[-1]
    return res, blocks, pool


def test_a_big_map_runs_in_worker_processes_and_draws_what_threads_draw_F32_FTZ(
        qtbot, monkeypatch):
    from fpinspector.model.sweep import runner

    in_processes: list[int] = []
    real = runner.run_chunks
    monkeypatch.setattr(runner, "run_chunks", lambda pool, *a, **k: (
        in_processes.append(pool.n), real(pool, *a, **k))[1])
    res, blocks, pool = _run_map(qtbot, workers=2)
    assert pool is not None and in_processes == [2]  # the chunks ran in the two workers
    assert res.complete and res.domain.size == 1 << 20
    again = BlockMap.from_result(res)
    threads_res, threads_blocks, no_pool = _run_map(qtbot, workers=1)
    assert no_pool is None and in_processes == [2]
    assert np.array_equal(res.columns["model"], threads_res.columns["model"])
    for other in (again, threads_blocks):
        _same_blocks(blocks, other)
    assert blocks.count.sum() == 1 << 20 and blocks.marks()["denormal"].any()


def _same_blocks(a: BlockMap, b: BlockMap) -> None:
    assert a.columns == b.columns and a.columns and a.columns <= set(ERROR_COLUMNS)
    for c in a.columns:
        v, m = a.values(c)
        w, n = b.values(c)
        assert np.array_equal(v, w, equal_nan=True) and m == n
        assert np.array_equal(a.worst[c], b.worst[c])
    for name, mark in a.marks().items():
        assert np.array_equal(mark, b.marks()[name]), name
    assert np.array_equal(a.count, b.count)


@pytest.mark.slow
def test_a_map_too_big_to_keep_also_runs_in_worker_processes_F32_FTZ(qtbot, monkeypatch):
    """8M elements (more than the 2^22 whose columns are kept): the blocks come from the
    workers' own reductions, and equal those of a stage-thread run."""
    from fpinspector.model.sweep import runner

    in_processes: list[int] = []
    real = runner.run_chunks
    monkeypatch.setattr(runner, "run_chunks", lambda pool, *a, **k: (
        in_processes.append(pool.n), real(pool, *a, **k))[1])
    res, blocks, pool = _run_map(qtbot, workers=2, domain_a="lin:-2:2:8192")
    assert pool is not None and in_processes == [2]
    assert res.complete and res.domain.size == 1 << 23 and res.columns == {}
    assert blocks.count.sum() == 1 << 23 and blocks.marks()["denormal"].any()
    threads_res, threads_blocks, _ = _run_map(qtbot, workers=1, domain_a="lin:-2:2:8192")
    assert in_processes == [2] and threads_res.columns == {}
    _same_blocks(blocks, threads_blocks)
    assert res.summary.to_dict() == threads_res.summary.to_dict()
