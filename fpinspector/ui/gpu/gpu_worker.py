"""Runs GPU captures on their own thread so edits stay instant; coalesces to the latest request.

A GL context belongs to the thread that made it, so the session is opened, used and closed
inside one QThread. The UI sends requests with :meth:`GpuRunner.request`; while a capture is
running only the newest waiting request is kept (older ones are stale by definition).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from PySide6 import QtCore

from ...gpu.conversion_route import convert_via_f32
from ...gpu.errors import error_text

__all__ = ["GpuRunner", "NO_GPU_PREFIX", "device_message", "import_gpu_layer", "unsupported_reason"]

NO_GPU_PREFIX = "No GPU"


def _open_session(path: str, choice: Any = None) -> Any:
    """Open the default device (``open_session``, looked up at call time so tests can
    monkeypatch ``fpinspector.gpu``) or a chosen one (``open_device``: in this process
    when Mesa allows it, else in a GPU child process). The GPU layer was imported on the
    UI thread (:func:`import_gpu_layer`) when the runner started."""
    from ... import gpu  # noqa: PLC0415 - (looked up here: tests monkeypatch it)
    from ...gpu.devices import selected_device  # noqa: PLC0415

    if choice is None:  # the process-wide choice (gui --device/--driver, environment)
        choice = selected_device()
    if choice.is_default:
        return gpu.open_session(path)
    return gpu.open_device(choice, path)


def import_gpu_layer() -> None:
    """Import the GPU modules here, on the UI thread, before a thread that opens the GPU
    starts (about 100 ms, once). Why: a first import on another thread runs PySide6's
    import hook there (it reads each new module's source) while this thread may be
    collecting garbage, and that crashed the process now and then (a segfault in the
    collector; seen in tests/ui). A missing moderngl is left to the worker, which reports
    it as "No GPU"."""
    try:
        import fpinspector.gpu.devices  # noqa: F401, PLC0415
        import fpinspector.gpu.expr_capture  # noqa: F401, PLC0415
        import fpinspector.gpu.fidelity  # noqa: F401, PLC0415
        import fpinspector.gpu.report  # noqa: F401, PLC0415
    except ImportError:
        pass


def device_message(info: dict) -> str:
    """Status-bar words for the open device: renderer, GL version, device, backend, and
    whether it runs in a GPU child process (results say which device produced them)."""
    renderer = info.get("renderer") or info.get("vendor") or "OpenGL"
    text = f"GPU: {renderer} ({info.get('version', '')})".replace(" ()", "")
    where = []
    if info.get("device") is not None:
        where.append(f"device {info['device']}")
    if info.get("backend"):
        where.append(str(info["backend"]))
    if info.get("process") == "child":
        where.append("GPU process")
    return text + (f" · {', '.join(where)}" if where else "")


def _unavailable_message(exc: BaseException) -> str:
    msg = error_text(exc)
    return f"{NO_GPU_PREFIX}: {msg}. The model works fully without one."


class _Worker(QtCore.QObject):
    """Lives on the GPU thread; owns the session."""

    opened = QtCore.Signal(object)  # info dict
    unavailable = QtCore.Signal(str)
    captured = QtCore.Signal(int, object)  # request id, ndarray
    failed = QtCore.Signal(int, str)  # also means the worker is free again
    switched = QtCore.Signal(object)  # info dict of the new device
    switch_failed = QtCore.Signal(str)  # the previous device (if any) stays
    fidelity = QtCore.Signal(object)  # {path: fidelity dict} of the open session

    def __init__(self, path: str, choice: Any = None) -> None:
        super().__init__()
        self.posted = threading.Event()  # set when a job's result signal has been posted
        self._path = path
        self._choice = choice
        self._session: Any = None

    @QtCore.Slot(object)
    def switch(self, choice: Any) -> None:
        """Open ``choice``; only when it opened, close the old session and use the new one."""
        try:
            new = _open_session(self._path, choice)
        except Exception as exc:  # GpuUnavailable / DeviceUnavailable / driver failure
            self.switch_failed.emit(error_text(exc))
            return
        old, self._session, self._choice = self._session, new, choice
        if old is not None:
            try:
                old.close()
            except Exception:  # noqa: BLE001 - a dead child process: nothing left to close
                pass
        self.switched.emit(dict(getattr(new, "info", {}) or {}))

    @QtCore.Slot()
    def check_fidelity(self) -> None:
        """Raw-move fidelity of each capture path (gpu/fidelity.py); silent when the session
        cannot run it (test doubles)."""
        try:
            from fpinspector.gpu.fidelity import check_fidelity

            fid = {p: f.to_dict() for p, f in check_fidelity(self._session).items()}
        except Exception:  # noqa: BLE001 - informative only: no marks without it
            return
        self.fidelity.emit(fid)

    @QtCore.Slot()
    def open(self) -> None:
        try:
            self._session = _open_session(self._path, self._choice)
        except ImportError as exc:
            self.unavailable.emit(_unavailable_message(exc))
        except Exception as exc:  # GpuUnavailable and any driver failure: no GPU, app goes on
            self.unavailable.emit(_unavailable_message(exc))
        else:
            self.opened.emit(dict(getattr(self._session, "info", {}) or {}))

    @QtCore.Slot(int, object)
    def run_job(self, req_id: int, job: tuple) -> None:
        """``job`` is ("capture", op, operands, fmt), ("convert", bits, src, dst) or
        ("route", bits, src, dsts): the render-target row for any source format ("route-ahead":
        the same, asked ahead of the edits that will show it)."""
        try:
            if self._session is None:
                raise RuntimeError("no GPU session")
            if job[0] == "report":  # the rules report of this device (seconds)
                from fpinspector.gpu.report import build_report

                out = build_report(self._session, samples=job[1])
            elif job[0] in ("route", "route-ahead"):  # any source, through f32 (gpu_route)
                _, bits, src, dsts = job
                out = convert_via_f32(self._session, bits, src, dsts)
            elif job[0] == "capture":
                _, op, operands, fmt = job
                why = unsupported_reason(self._session, op, fmt)
                if why:
                    raise RuntimeError(why)
                out = np.asarray(self._session.capture(op, *operands, format=fmt))
            else:
                _, bits, src, dsts = job
                if isinstance(dsts, str):
                    out = np.asarray(self._session.convert(bits, src, dsts))
                else:  # several targets: {dst: patterns or the reason it failed}
                    out = {}
                    for dst in dsts:
                        try:
                            out[dst] = np.asarray(self._session.convert(bits, src, dst))
                        except Exception as exc:  # one target missing is not fatal
                            out[dst] = error_text(exc)
        except Exception as exc:  # a failed capture is shown, never raised into Qt
            self.failed.emit(req_id, error_text(exc))
        else:
            # one signal carries the result and "the worker is free" (the runner treats it
            # as idle): a second emit would hand the GIL to the UI thread between the two
            self.captured.emit(req_id, out)
        self.posted.set()  # after the emit: the result event is in the UI thread's queue

    @QtCore.Slot()
    def close(self) -> None:
        if self._session is not None:
            try:
                self._session.close()
            finally:
                self._session = None


def unsupported_reason(session: Any, op: str, fmt: str) -> str | None:
    """Why ``session`` cannot capture ``op`` on ``fmt`` (None when it can).

    Why: the GPU column should say what is missing (the session's own
    ``unsupported_reason``, e.g. the half-float extension), not a generic "cannot run".
    Sessions without that method fall back to ``supports``.
    """
    reason_of = getattr(session, "unsupported_reason", None)
    if reason_of is not None:
        why = reason_of(op, fmt)
        return None if not why else str(why)
    supports = getattr(session, "supports", None)
    if supports is not None and not supports(op, fmt):
        return f"this GPU cannot run {op} on {fmt} operands"
    return None


class GpuRunner(QtCore.QObject):
    """Facade on the UI thread.

    Signals
    -------
    ready(dict) : a session opened; the dict is ``GpuSession.info``.
    unavailable(str) : no GPU; the message is for the status bar.
    captured(int, object) : request id and the captured result patterns (ndarray).
    failed(int, str) : request id and why that capture could not run.
    """

    ready = QtCore.Signal(object)
    unavailable = QtCore.Signal(str)
    captured = QtCore.Signal(int, object)
    failed = QtCore.Signal(int, str)
    switched = QtCore.Signal(object)  # info of the device switched to (ready is sent too)
    switch_failed = QtCore.Signal(str)  # why; the previous device stays
    fidelity_ready = QtCore.Signal(object)  # {path: fidelity} (also in info["fidelity"])
    _do_open = QtCore.Signal()
    _do_job = QtCore.Signal(int, object)
    _do_close = QtCore.Signal()
    _do_switch = QtCore.Signal(object)
    _do_fidelity = QtCore.Signal()

    def __init__(self, path: str = "auto", parent: QtCore.QObject | None = None,
                 choice: Any = None) -> None:
        super().__init__(parent)
        self.available: bool | None = None  # None until the session opened or failed
        self.info: dict = {}
        self.message = "GPU: starting…"
        #: the DeviceChoice in use (None: the process-wide selection at start)
        self.choice = choice
        self.switching = False
        self._pending_choice = self.choice
        self._next_id = 0
        self._busy = False
        self._pending: dict[str, tuple] = {}  # newest waiting request per job kind
        self._thread = QtCore.QThread()
        self._thread.setObjectName("fpinspector-gpu")
        self._worker = _Worker(path, self.choice)
        self._worker.moveToThread(self._thread)
        self._do_open.connect(self._worker.open)
        self._do_job.connect(self._worker.run_job)
        self._do_switch.connect(self._worker.switch)
        self._do_fidelity.connect(self._worker.check_fidelity)
        self._do_close.connect(self._worker.close, QtCore.Qt.ConnectionType.BlockingQueuedConnection)
        self._worker.opened.connect(self._on_opened)
        self._worker.unavailable.connect(self._on_unavailable)
        self._worker.captured.connect(self._on_captured)
        self._worker.failed.connect(self._on_failed)
        self._worker.switched.connect(self._on_switched)
        self._worker.switch_failed.connect(self._on_switch_failed)
        self._worker.fidelity.connect(self._on_fidelity)
        import_gpu_layer()
        self._thread.start()
        self._do_open.emit()

    def switch(self, choice: Any) -> None:
        """Switch to ``choice`` (a DeviceChoice): the worker opens it, and only when that
        worked drops the old session; ``switched`` or ``switch_failed`` says how it went."""
        self.switching = True  # requests wait until the switch is done
        self._pending_choice = choice
        self._do_switch.emit(choice)

    def request_report(self, samples: int) -> int:
        """Queue the GPU rules report of this device (``GpuReport`` via ``captured``)."""
        return self._queue(("report", int(samples)))

    def request(self, op: str, operands: tuple, fmt: str) -> int:
        """Queue a capture of ``op`` on ``operands`` (patterns); returns its request id."""
        return self._queue(("capture", op, tuple(operands), fmt))

    def request_convert(self, bits: object, src: str, dst: str | tuple[str, ...]) -> int:
        """Queue a hardware conversion (render target / sampler) of patterns ``bits``."""
        return self._queue(("convert", bits, src, dst))

    def request_route(self, bits: object, src: str, dsts: tuple[str, ...],
                      ahead: bool = False) -> int:
        """Queue the render-target row for ``src`` patterns: through f32 (see gpu_route).
        ``ahead``: for values not shown yet; it goes after every other waiting request and
        never takes the place of one."""
        return self._queue(("route-ahead" if ahead else "route", bits, src, tuple(dsts)))

    @property
    def idle(self) -> bool:
        """No job running and none waiting."""
        return not self._busy and not self._pending

    def deliver_ready(self, wait_s: float = 0.0) -> bool:
        """Deliver the running job's result now if it is back within ``wait_s`` seconds.

        The wait releases the GIL, so a sub-millisecond capture finishes and shows in the
        same frame as the edit instead of after the repaint; a slower GPU simply answers
        later through the usual queued signal. Returns whether a result was delivered.
        """
        if self._busy and not self._worker.posted.wait(wait_s):
            return False
        QtCore.QCoreApplication.sendPostedEvents(self, QtCore.QEvent.Type.MetaCall)
        return True

    def _queue(self, job: tuple) -> int:
        self._next_id += 1
        req = (self._next_id, job)
        if self.available is False:
            self.failed.emit(self._next_id, self.message)
        elif self._busy or self.available is None or self.switching:
            self._pending[job[0]] = req  # only the newest waiting request matters
        else:
            self._send(req)
        return self._next_id

    def _send(self, req: tuple) -> None:
        self._busy = True
        self._worker.posted.clear()
        self._do_job.emit(*req)

    def _on_captured(self, req: int, out: object) -> None:
        self._on_idle()  # the next request goes out before this result is drawn
        self.captured.emit(req, out)

    def _on_failed(self, req: int, message: str) -> None:
        self._on_idle()
        self.failed.emit(req, message)

    def _on_idle(self) -> None:
        self._busy = False
        if self._pending and self.available and not self.switching:
            kinds = sorted(self._pending, key=lambda k: (k != "capture", k == "route-ahead"))
            self._send(self._pending.pop(kinds[0]))  # the op result first: it is what users
            # watch; what was asked ahead of the edits last

    def _on_opened(self, info: dict) -> None:
        self.available = True
        self.info = info
        self.message = device_message(info)
        self.ready.emit(info)
        self._on_idle()
        self._do_fidelity.emit()  # after the first requests: marks come a moment later

    def _on_switched(self, info: dict) -> None:
        from fpinspector.gpu.devices import select_device

        self.switching = False
        self.choice = self._pending_choice
        select_device(self.choice)  # sweeps and other new GPU work follow the app's device
        self.switched.emit(info)
        self._on_opened(info)

    def _on_switch_failed(self, message: str) -> None:
        self.switching = False
        self.switch_failed.emit(message)
        self._on_idle()

    def _on_fidelity(self, fid: dict) -> None:
        self.info = {**self.info, "fidelity": fid}
        self.fidelity_ready.emit(fid)

    def _on_unavailable(self, message: str) -> None:
        self.available = False
        self.message = message
        self.unavailable.emit(message)
        pending, self._pending = self._pending, {}
        for req in pending.values():
            self.failed.emit(req[0], message)

    def shutdown(self) -> None:
        """Close the session on its own thread and stop the thread (call before exit)."""
        if self._thread.isRunning():
            self._do_close.emit()
            self._thread.quit()
            self._thread.wait(5000)
