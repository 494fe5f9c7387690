"""Work off the UI thread: run a function on a Python thread and get its result (or its
error) back on the UI thread as a Qt queued call. For reading files, parsing big pastes
and reducing big sweeps, so the event loop never waits on them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6 import QtCore

__all__ = ["Background", "run_in_background"]


class Background(QtCore.QObject):
    """One piece of background work; :attr:`finished` or :attr:`failed` arrives on the
    thread that created it (the UI thread)."""

    finished = QtCore.Signal(object)
    failed = QtCore.Signal(object)

    def __init__(self, fn: Callable[[], Any], parent: QtCore.QObject | None = None) -> None:
        super().__init__(parent)
        self._fn = fn
        self.thread = threading.Thread(target=self._run, daemon=True, name="fpinspector-bg")

    def _run(self) -> None:
        try:
            out = self._fn()
        except Exception as exc:  # noqa: BLE001 - handed to the UI as a message
            self.failed.emit(exc)
            return
        self.finished.emit(out)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work is done (tests, shutdown); True when it is."""
        self.thread.join(timeout)
        return not self.thread.is_alive()


_RUNNING: set[Background] = set()


def run_in_background(fn: Callable[[], Any], done: Callable[[Any], None],
                      error: Callable[[Exception], None]) -> Background:
    """Run ``fn()`` on a thread; ``done(result)`` or ``error(exc)`` then runs on the UI
    thread (the caller's). The job is kept alive until it reports."""
    job = Background(fn)
    _RUNNING.add(job)

    def finish(cb: Callable[[Any], None], value: Any) -> None:
        _RUNNING.discard(job)
        cb(value)

    job.finished.connect(lambda v: finish(done, v), QtCore.Qt.ConnectionType.QueuedConnection)
    job.failed.connect(lambda e: finish(error, e), QtCore.Qt.ConnectionType.QueuedConnection)
    job.thread.start()
    return job


def wait_in_event_loop(fn: Callable[[], Any]) -> Any:
    """Run ``fn()`` on a thread while the event loop keeps running (repaints, input), and
    return its result or raise its exception: a blocking call for the caller, never a
    frozen window for the user."""
    app = QtCore.QCoreApplication.instance()
    if app is None or QtCore.QThread.currentThread() is not app.thread():
        return fn()  # no event loop to keep alive here
    box: dict[str, Any] = {}
    loop = QtCore.QEventLoop()

    def done(value: Any) -> None:
        box["value"] = value
        loop.quit()

    def failed(exc: Exception) -> None:
        box["error"] = exc
        loop.quit()

    job = run_in_background(fn, done, failed)
    if not box:  # the thread may be done already: its queued result is then waiting
        loop.exec()
    job.wait()
    if "error" in box:
        raise box["error"]
    return box["value"]
