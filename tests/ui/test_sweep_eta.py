"""The sweep's time left comes from the measured throughput since the first chunk, not
from the start (opening the GPU and building the stage took seconds: a 3.2 s sweep said
"5 min left"). A fake clock drives SweepProgress: 2 s of start-up, then 1 M patterns/s."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QProgressBar

from fpinspector.ui.maps import map_runner
from fpinspector.ui.maps.map_runner import SweepProgress


def test_time_left_is_from_the_throughput_after_start_up(qtbot, monkeypatch) -> None:
    now = [100.0]
    monkeypatch.setattr(map_runner.time, "perf_counter", lambda: now[0])
    bar = QProgressBar()
    qtbot.addWidget(bar)
    p = SweepProgress(bar)
    p.start()
    total, chunk = 4_000_000, 250_000
    now[0] += 2.0  # opening the GPU, building the stage
    first = p.show(chunk, total)
    assert first is not None and "— left" in first  # one chunk: no rate yet
    texts = []
    for k in range(2, 9):
        now[0] += chunk / 1e6  # 1 M patterns/s from here on
        texts.append(p.show(k * chunk, total))
    last = texts[-1]
    assert "1.00 M patterns/s" in last, last
    left = (total - 8 * chunk) / 1e6  # 2 s at the measured rate
    assert f"{left:.0f} s left" in last, last


@pytest.mark.parametrize(("done", "total", "rate", "want"),
                         [(10, 100, 0.0, "— left"), (50, 100, 10.0, "5 s left"),
                          (0, 36_000, 10.0, "60 min left"), (0, 360_000, 10.0, "10.0 h left")])
def test_progress_text(done, total, rate, want) -> None:
    assert want in map_runner.progress_text(done, total, 1.0, rate)
