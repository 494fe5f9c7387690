"""The expression panel's GPU: an ExprGpu opened off the UI thread, requests answered by
Qt signals (the newest request wins while one is running)."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..gpu.gpu_worker import import_gpu_layer

__all__ = ["ExprGpuBridge"]


class ExprGpuBridge(QObject):
    """Runs expressions on the GPU for the panel.

    Signals
    -------
    ready(dict) : the session opened (its info).
    unavailable(str) : no GPU (the message says why).
    captured(int, object, object) : request id, per-step words, free-variant words.
    failed(int, str) : request id and why it could not run.
    """

    ready = Signal(object)
    unavailable = Signal(str)
    captured = Signal(int, object, object)
    failed = Signal(int, str)

    def __init__(self, path: str = "auto", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.gpu: Any = None
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
        try:
            from ...gpu.expr_capture import ExprGpu  # noqa: PLC0415

            gpu = ExprGpu(self.path)
        except Exception as exc:  # GpuUnavailable or a driver failure: say so, go on
            self.message = str(getattr(exc, "message", None) or exc)
            self.unavailable.emit(self.message)
            with self._lock:
                pending, self._pending = self._pending, None
            if pending is not None:
                self.failed.emit(pending[0], self.message)
            return
        if self._closed:
            gpu.close()
            return
        self.gpu, self.info = gpu, dict(gpu.info)
        self.ready.emit(self.info)
        self._next_pending()

    def _send(self, req: tuple) -> None:
        rid, program, slots = req

        def job(runner: Any) -> tuple:  # on the GL thread: nothing here may wait on it
            why = runner.unsupported_reason(program)
            if why:
                return (why,)
            return runner.run(program, slots), runner.run(program, slots, variant="free")

        def finished(fut: Any) -> None:
            try:
                out = fut.result()
                if len(out) == 1:
                    self.failed.emit(rid, out[0])
                else:
                    self.captured.emit(rid, out[0], out[1])
            except Exception as exc:  # shown in the panel, never raised into Qt
                self.failed.emit(rid, str(getattr(exc, "message", None) or exc))
            self._done()

        self.gpu.submit_job(job).add_done_callback(finished)

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
