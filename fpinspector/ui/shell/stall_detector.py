"""A stall detector: how late the UI thread's event loop runs a timer that should fire
every few milliseconds. The worst lateness is the longest the UI was frozen (a click or a
repaint would have waited that long). Used by the UI tests and the stall benchmark."""

from __future__ import annotations

import time

from PySide6 import QtCore

__all__ = ["StallDetector"]


class StallDetector(QtCore.QObject):
    """Start it, do the work (spinning the event loop), read :attr:`worst` (seconds).

    Parameters
    ----------
    interval_ms : int
        The timer's period; lateness is measured beyond it.
    """

    def __init__(self, interval_ms: int = 4, parent: QtCore.QObject | None = None) -> None:
        super().__init__(parent)
        self.interval = interval_ms / 1000
        self._timer = QtCore.QTimer(self)
        self._timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)
        self._last = 0.0
        self.worst = 0.0
        self.ticks = 0
        self.gaps: list[float] = []

    def start(self) -> StallDetector:
        self.worst, self.ticks, self.gaps = 0.0, 0, []
        self._last = time.perf_counter()
        self._timer.start()
        return self

    def stop(self) -> float:
        """Stop measuring (a last tick counts the time since the previous one); returns
        the worst stall in seconds."""
        self._tick()
        self._timer.stop()
        return self.worst

    def _tick(self) -> None:
        now = time.perf_counter()
        late = max(0.0, now - self._last - self.interval)
        self._last = now
        self.ticks += 1
        self.gaps.append(late)
        if late > self.worst:
            self.worst = late

    def __enter__(self) -> StallDetector:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
