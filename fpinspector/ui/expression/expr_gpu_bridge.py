"""The expression panel's GPU: an expression runner on the selected device, opened off the
UI thread, requests answered by Qt signals (the newest request wins while one is running).

The runner is an ExprGpu in this process where Mesa allows it (no pipe round trip), else an
ExprChild in a GPU child process (:func:`fpinspector.gpu.expr_child.open_expr_gpu`), so the
dock follows GPU ▸ Device onto any driver, as the inspector and the maps do."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from ...gpu.errors import error_text
from ..gpu.gpu_worker import import_gpu_layer

__all__ = ["ExprGpuBridge", "unavailable_text"]


def unavailable_text(exc: BaseException, choice: Any) -> str:
    """Why the dock has no GPU on ``choice``: the error's own words, prefixed with the
    device where they do not name it."""
    text = error_text(exc)
    where = choice.label() if choice is not None else ""
    if where and where not in text:
        text = f"{where}: {text}"
    return text


def _stopped_text(exc: BaseException) -> str:
    """A GPU process that stopped during a capture: what happened and what comes next."""
    text = error_text(exc)
    return f"{text}; the next evaluation starts it again"


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

    def __init__(self, path: str = "auto", parent: QObject | None = None, *,
                 process: bool | None = None) -> None:
        super().__init__(parent)
        #: True: run in a GPU child process (no GL in this process); None: this process
        #: where Mesa allows the device, else a child
        self.process = process
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
                    self._import_layer()
                    threading.Thread(target=self._open, daemon=True).start()
                return req[0]
            self._busy = True
        self._send(req)
        return req[0]

    def _import_layer(self, process: bool | None = None) -> None:
        """Import the GPU modules on this, the UI thread (see ``import_gpu_layer``): only
        the GL-free child-process ones when the runner will be a child."""
        if process or (process is None and self.process):
            import fpinspector.gpu.expr_child  # noqa: F401, PLC0415
        else:
            import_gpu_layer()

    def _open(self) -> None:
        from ...gpu.expr_child import open_expr_gpu  # noqa: PLC0415

        while True:  # (again when the device was switched while this one opened)
            with self._lock:
                choice, process = self.choice, self.process
            try:
                gpu = open_expr_gpu(self.path, choice, process=process)
            except Exception as exc:  # GpuUnavailable or a driver failure: say so, go on
                with self._lock:
                    switched = (choice, process) != (self.choice, self.process)
                if switched:
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
            with self._lock:  # (a switch now either sees this runner or is seen here)
                current = (choice, process) == (self.choice, self.process)
                if current:
                    self.gpu, self.info, self._opening = gpu, dict(gpu.info), False
            if current:
                break
            gpu.close()
        self.ready.emit(self.info)
        self._next_pending()

    def follow(self, runner: Any) -> None:
        """Run on the device of ``runner`` (the app's GpuRunner) and re-open on each of its
        switches (GPU ▸ Device), so the Expression dock's GPU column is the device the rest
        of the window shows."""
        self.choice = runner.choice
        runner.switched.connect(lambda info: self.switch_to(
            runner.choice, process=True if (info or {}).get("process") == "child" else None))

    def switch_to(self, choice: Any, process: bool | None = None) -> None:
        """Drop the session and open ``choice`` (off the UI thread); a request waits for
        it, and ``reopening`` is sent so the panel asks again. ``process=True``: the
        window's runner opened that device in a GPU process, so the dock goes straight to
        one (this process could not open it either)."""
        if self._closed:
            return
        self._import_layer(process)
        with self._lock:
            old, self.gpu = self.gpu, None
            self.choice, self.process, self.info, self.message = choice, process, {}, ""
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
                if getattr(gpu, "alive", True) is False:  # its GPU process stopped
                    self._drop(gpu)
                    self._refused.emit(rid, _stopped_text(exc))
                else:
                    self._refused.emit(rid, error_text(exc))
            self._done()

        gpu.submit_job(job).add_done_callback(finished)

    def _drop(self, gpu: Any) -> None:
        """Forget a runner whose GPU process stopped: the next request opens a new one.
        (Closed on a thread of its own: this runs on the runner's only thread.)"""
        with self._lock:
            if self.gpu is gpu:
                self.gpu, self.info = None, {}
        threading.Thread(target=gpu.close, daemon=True).start()

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
