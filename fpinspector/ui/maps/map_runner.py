"""A sweep's job on a QThread: progress, result or error as Qt signals.

Why one class for every map (the op sweep panel, expression maps): the job runs off the UI
thread; an error becomes a line in the panel, never a traceback; progress carries Python
ints, since a map of every f32 pattern counts to 2^32, past a C int.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QProgressBar

__all__ = ["SweepJob", "SweepProgress", "progress_text"]


class SweepJob(QObject):
    """Runs ``job(progress, cancel)`` when its thread starts (``QThread.started`` ->
    :meth:`run`) and emits what it gives.

    Signals
    -------
    progress(done, total) : Python ints, after each chunk.
    done(object) : what the job returned.
    failed(str) : the job's error, in words (an exception's ``message`` where it has one).
    """

    progress = Signal(object, object)
    done = Signal(object)
    failed = Signal(str)

    def __init__(self, job: Callable[[Callable[[int, int], None], threading.Event], Any],
                 cancel: threading.Event) -> None:
        super().__init__()
        self._job, self._cancel = job, cancel

    @Slot()
    def run(self) -> None:
        try:
            res = self._job(lambda d, t: self.progress.emit(int(d), int(t)), self._cancel)
        except Exception as exc:  # shown to the user, never a traceback
            self.failed.emit(str(getattr(exc, "message", None) or exc))
            return
        self.done.emit(res)


def progress_text(done: int, total: int, seconds: float, rate: float | None = None) -> str:
    """``done of total (rate/s, time left)``: what the progress bar says while running.

    ``rate``: the measured throughput (patterns/s) where the caller has one; by default
    ``done / seconds``. No time left is said without a rate (—)."""
    if rate is None:
        rate = done / seconds if seconds > 0 else 0.0
    left = (total - done) / rate if rate > 0 else float("inf")
    eta = ("—" if left == float("inf") else f"{left:.0f} s" if left < 120 else
           f"{left / 60:.0f} min" if left < 7200 else f"{left / 3600:.1f} h")
    unit = f"{rate / 1e6:.2f} M" if rate >= 1e5 else f"{rate:,.0f} "
    return f"{done:,} of {total:,} ({unit}patterns/s, {eta} left)"


class SweepProgress:
    """A map panel's progress bar while its sweep runs: how far and how fast
    (:func:`progress_text`), at most ten updates a second (every f32 pattern is 65,536
    chunks: one update each would keep the UI thread busy)."""

    #: How much of the past the throughput is measured over (seconds, newest samples).
    WINDOW_S = 2.0

    def __init__(self, bar: QProgressBar) -> None:
        self.bar = bar
        self._started = self._shown = 0.0
        self._samples: list[tuple[float, int]] = []  # (time, done) since the first chunk

    def start(self) -> None:
        """A sweep starts now: the bar at 0, its clock at 0."""
        self._started, self._shown = time.perf_counter(), 0.0
        self._samples = []
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)

    def rate(self, now: float, done: int) -> float | None:
        """Patterns per second over the last WINDOW_S, measured from the first chunk done
        on (not from the start: opening the GPU and building the stage took seconds, and a
        3 s sweep said "5 min left"); None until two chunks were done."""
        self._samples.append((now, done))
        while len(self._samples) > 2 and now - self._samples[1][0] > self.WINDOW_S:
            self._samples.pop(0)
        (t0, d0), (t1, d1) = self._samples[0], self._samples[-1]
        return (d1 - d0) / (t1 - t0) if t1 > t0 and d1 > d0 else None

    def show(self, done: int, total: int) -> str | None:
        """Update the bar (``SweepJob.progress``); the text shown, or None when this
        update was skipped (the last one is never skipped)."""
        now = time.perf_counter()
        rate = self.rate(now, done)
        if done < total and now - self._shown < 0.1:
            return None
        self._shown = now
        self.bar.setValue(int(1000 * done / max(total, 1)))
        text = progress_text(done, total, now - self._started, rate if rate is not None else 0.0)
        self.bar.setFormat(text)
        return text
