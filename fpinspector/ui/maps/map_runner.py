"""The one map runner of the Sweep and Expression panels: a sweep's job on a QThread,
progress, result or error as Qt signals, Run/Cancel, the map drawn while it fills, teardown.

Why one for every map (the op sweep panel, expression maps): the job runs off the UI
thread; an error becomes a line in the panel, never a traceback; progress carries Python
ints, since a map of every f32 pattern counts to 2^32, past a C int; and a window closed
while a map runs tears down the same way in both panels.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot
from PySide6.QtWidgets import QAbstractButton, QProgressBar

from ...gpu.errors import error_text

__all__ = ["MapRunner", "SweepJob", "SweepProgress", "progress_text"]


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
            self.failed.emit(error_text(exc))
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
    unit = f"{rate / 1e6:.2f} M " if rate >= 1e5 else f"{rate:,.0f} "
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


class MapRunner(QObject):
    """One map panel's run: its job on a QThread (:class:`SweepJob`), the cancel event,
    the progress bar (:class:`SweepProgress`), Run and Cancel enabled while it runs, the
    map drawn from its blocks while they fill, and the teardown.

    Why one for the Sweep and the Expression panels: the teardown is the subtle part (a
    window closed while a map runs must cancel, wait for the thread and release the job
    before Qt deletes the widgets), and both panels need exactly the same one.

    Signals
    -------
    progressed(str) : the progress bar's text, at most ten times a second.
    done(object) : what the job returned, once its thread has finished.
    failed(str) : the job's error in words, once its thread has finished.
    """

    progressed = Signal(str)
    done = Signal(object)
    failed = Signal(str)

    #: How often the map is drawn from its blocks while they fill (ms).
    FILL_MS = 150

    def __init__(self, parent: QObject, bar: QProgressBar, run_button: QAbstractButton,
                 cancel_button: QAbstractButton,
                 draw: Callable[[Any, dict[str, Any]], None]) -> None:
        super().__init__(parent)
        self.meter = SweepProgress(bar)
        self._run_button, self._cancel_button = run_button, cancel_button
        self._draw = draw
        self._thread: QThread | None = None
        self._job: SweepJob | None = None
        self._cancel = threading.Event()
        #: (block feed, map metadata) of the running map: set by the job (on its thread)
        #: once its blocks exist; the fill timer draws them.
        self.live: tuple[Any, dict[str, Any]] | None = None
        self._fill_timer = QTimer(self)
        self._fill_timer.setInterval(self.FILL_MS)
        self._fill_timer.timeout.connect(self._draw_live)
        cancel_button.setEnabled(False)

    def is_running(self) -> bool:
        return self._thread is not None

    def start(self, job: Callable[[Callable[[int, int], None], threading.Event], Any]) -> bool:
        """Run ``job(progress, cancel)`` on a thread of its own; False while one runs."""
        if self._thread is not None:
            return False
        self._cancel = threading.Event()
        self._thread = QThread(self)
        self._job = SweepJob(job, self._cancel)
        self._job.moveToThread(self._thread)
        self._thread.started.connect(self._job.run)
        self._job.progress.connect(self._on_progress)
        self._job.done.connect(self._on_done)
        self._job.failed.connect(self._on_failed)
        self.meter.start()
        self._run_button.setEnabled(False)
        self._cancel_button.setEnabled(True)
        self._thread.start()
        self._fill_timer.start()
        return True

    def cancel(self) -> None:
        """Ask the running job to stop after the chunks in flight (it keeps what was done)."""
        self._cancel.set()

    def shutdown(self) -> None:
        """Cancel, wait for the thread and release the job (a panel closing, the app exiting)."""
        self.cancel()
        self._finish()

    def _draw_live(self) -> None:
        live = self.live
        if live is not None and live[0].done():
            self._draw(live[0].blocks, live[1])

    def _on_progress(self, done: int, total: int) -> None:
        text = self.meter.show(done, total)
        if text is not None:
            self.progressed.emit(text)

    def _finish(self) -> None:
        self._fill_timer.stop()
        self.live = None
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait()
            if self._job is not None:
                self._job.deleteLater()
            self._thread.deleteLater()
            self._thread = self._job = None
        self._run_button.setEnabled(True)
        self._cancel_button.setEnabled(False)

    def _on_done(self, result: object) -> None:
        self._finish()
        self.done.emit(result)

    def _on_failed(self, message: str) -> None:
        self._finish()
        self.failed.emit(message)
