"""The expression panel's GPU: an ExprGpu opened off the UI thread, requests answered by
Qt signals (the newest request wins while one is running)."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from ..gpu.gpu_worker import import_gpu_layer

__all__ = ["ExprGpuBridge", "unavailable_text"]


def unavailable_text(exc: BaseException, choice: Any) -> str:
    """Why the dock has no GPU, and what the user can do where the reason is Mesa's one
    driver per process and device (a real limit: a second context asking for softpipe
    after llvmpipe gets llvmpipe again, released or not; a fresh process gets softpipe).
    The window's inspector and maps switch by starting a GPU process of their own; the
    expression runner lives in the window's process, so it names the ways to get the
    expression onto that driver: the app started on it, or the CLI's expr on it."""
    from ...gpu.errors import DriverSwitchNeeded  # noqa: PLC0415 (no GL at import)

    text = str(getattr(exc, "message", None) or exc)
    if not isinstance(exc, DriverSwitchNeeded):
        return text
    driver = getattr(choice, "driver", None)
    if driver:
        how = (f"start the app with fpinspector gui --driver {driver} (on the command "
               f"line: fpinspector expr \"…\" --gpu --driver {driver})")
    else:
        how = "start the app without --driver"
    where = choice.label() if choice is not None else "that device"
    return (f"{text}. Expressions run in this window's own process; to run them on "
            f"{where}: {how}")


class ExprGpuBridge(QObject):
    """Runs expressions on the GPU for the panel.

    Signals
    -------
    ready(dict) : the session opened (its info).
    reopening(object) : the device changed (its DeviceChoice): the session is re-opened.
    unavailable(str) : no GPU (the message says why).
    captured(int, object, object) : request id, per-step words, free-variant words.
    failed(int, str) : request id and why it could not run.
    """

    ready = Signal(object)
    reopening = Signal(object)
    unavailable = Signal(str)
    captured = Signal(int, object, object)
    failed = Signal(int, str)
    # a job's answer, always delivered through the event loop: a job done before its
    # callback was attached runs the callback inside request(), and the panel would get
    # the answer before it knows the request's id (and drop it as stale)
    _answered = Signal(int, object, object)
    _refused = Signal(int, str)

    def __init__(self, path: str = "auto", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._answered.connect(self.captured, Qt.ConnectionType.QueuedConnection)
        self._refused.connect(self.failed, Qt.ConnectionType.QueuedConnection)
        self.path = path
        self.gpu: Any = None
        #: the device to open (a DeviceChoice; None: the process-wide selected device)
        self.choice: Any = None
        self.info: dict = {}
        self.message = ""
        self._lock = threading.Lock()
        self._opening = False
        self._busy = False
        self._pending: tuple | None = None
        self._next = 0
        self._closed = False

    @property
    def available(self) -> bool | None:
        """True once open, False when no GPU, None before the first request."""
        if self.gpu is not None:
            return True
        return False if self.message else None

    def request(self, program: Any, slots: list) -> int:
        """Queue a run of ``program`` on ``slots``; returns the request id."""
        self._next += 1
        req = (self._next, program, list(slots))
        with self._lock:
            if self.message:
                self.failed.emit(req[0], self.message)
                return req[0]
            if self.gpu is None or self._busy:
                self._pending = req
                if self.gpu is None and not self._opening:
                    self._opening = True
                    import_gpu_layer()  # (on this, the UI thread: see there)
                    threading.Thread(target=self._open, daemon=True).start()
                return req[0]
            self._busy = True
        self._send(req)
        return req[0]

    def _open(self) -> None:
        from ...gpu.expr_capture import ExprGpu  # noqa: PLC0415

        while True:  # (again when the device was switched while this one opened)
            choice = self.choice
            try:
                gpu = ExprGpu(self.path, choice=choice)
            except Exception as exc:  # GpuUnavailable or a driver failure: say so, go on
                if choice != self.choice:
                    continue
                self.message = unavailable_text(exc, choice)
                self._opening = False
                self.unavailable.emit(self.message)
                with self._lock:
                    pending, self._pending = self._pending, None
                if pending is not None:
                    self.failed.emit(pending[0], self.message)
                return
            if self._closed:
                gpu.close()
                return
            if choice == self.choice:
                break
            gpu.close()
        with self._lock:
            self.gpu, self.info, self._opening = gpu, dict(gpu.info), False
        self.ready.emit(self.info)
        self._next_pending()

    def follow(self, runner: Any) -> None:
        """Run on the device of ``runner`` (the app's GpuRunner) and re-open on each of its
        switches (GPU ▸ Device), so the Expression dock's GPU column is the device the rest
        of the window shows."""
        self.choice = runner.choice
        runner.switched.connect(lambda _info: self.switch_to(runner.choice))

    def switch_to(self, choice: Any) -> None:
        """Drop the session and open ``choice`` (off the UI thread); a request waits for
        it, and ``reopening`` is sent so the panel asks again."""
        if self._closed:
            return
        with self._lock:
            old, self.gpu = self.gpu, None
            self.choice, self.info, self.message = choice, {}, ""
            start, self._opening = not self._opening, True
        self.reopening.emit(choice)

        def reopen() -> None:
            if old is not None:
                old.close()  # (after the job it runs: its pool is one thread)
            if start:  # (else the open in flight sees the new choice and opens it)
                self._open()

        threading.Thread(target=reopen, daemon=True).start()

    def _send(self, req: tuple) -> None:
        rid, program, slots = req
        gpu = self.gpu
        if gpu is None:  # switched away meanwhile: it waits for the new device
            with self._lock:
                self._pending, self._busy = req, False
            return

        def job(runner: Any) -> tuple:  # on the GL thread: nothing here may wait on it
            why = runner.unsupported_reason(program)
            if why:
                return (why,)
            return runner.run(program, slots), runner.run(program, slots, variant="free")

        def finished(fut: Any) -> None:
            try:
                out = fut.result()
                if len(out) == 1:
                    self._refused.emit(rid, out[0])
                else:
                    self._answered.emit(rid, out[0], out[1])
            except Exception as exc:  # shown in the panel, never raised into Qt
                self._refused.emit(rid, str(getattr(exc, "message", None) or exc))
            self._done()

        gpu.submit_job(job).add_done_callback(finished)

    def _done(self) -> None:
        with self._lock:
            self._busy = False
        self._next_pending()

    def _next_pending(self) -> None:
        with self._lock:
            req, self._pending = self._pending, None
            if req is None or self.gpu is None or self._busy:
                if req is not None:
                    self._pending = req
                return
            self._busy = True
        self._send(req)

    def shutdown(self) -> None:
        """Release the GPU (call on exit)."""
        self._closed = True
        if self.gpu is not None:
            try:
                self.gpu.close()
            finally:
                self.gpu = None
