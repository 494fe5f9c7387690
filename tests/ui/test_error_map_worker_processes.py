"""A map of 2^20+ elements runs in the backend's worker processes (both cores), and the map
the user sees is the one a single stage thread draws: the blocks are filled from the
chunks' columns that come back from the workers, in element order.

Oracle: the same sweep's result folded into a fresh BlockMap afterwards
(``BlockMap.from_result``), and the same panel run on stage threads only.
"""

from __future__ import annotations

import numpy as np

from fpinspector.ui.map_blocks import ERROR_COLUMNS, BlockMap
from fpinspector.ui.sweep_backend import PanelSweepBackend
from fpinspector.ui.sweep_panel import SweepPanel


def _run_map(qtbot, workers: int) -> tuple[object, BlockMap, object]:
    backend = PanelSweepBackend(workers=workers)
    panel = SweepPanel(backend=backend)
    qtbot.addWidget(panel)
    panel.use_gpu.setChecked(False)
    panel.op.setCurrentText("mul")
    panel.domain_a.setText("lin:-2:2:1024")
    panel.domain_b.setText("log:1e-39:1e3:1024")  # f32 denormals among B: F32-FTZ marks
    shown: list[tuple[object, BlockMap]] = []
    original = panel.show_result
    panel.show_result = lambda res, blocks=None: (shown.append((res, blocks)),
                                                  original(res, blocks))
    try:
        assert panel.start_sweep(), panel.map.info.text()
        where = "in 2 worker processes" if workers == 2 else "on a stage thread"
        assert panel.map.info.text().startswith(f"running: starting 1,048,576 elements {where}")
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
        assert blocks.columns == other.columns and blocks.columns
        for c in ERROR_COLUMNS:
            if c in blocks.columns:
                v, m = blocks.values(c)
                w, n = other.values(c)
                assert np.array_equal(v, w, equal_nan=True) and m == n
                assert np.array_equal(blocks.worst[c], other.worst[c])
        for name, mark in blocks.marks().items():
            assert np.array_equal(mark, other.marks()[name]), name
        assert np.array_equal(blocks.count, other.count)
    assert blocks.count.sum() == 1 << 20 and blocks.marks()["denormal"].any()
