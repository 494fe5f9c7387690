"""Feed sweep chunks to the GPU: a capture adapter that owns its GL context on one thread.

A GL context is current on one thread only, while sweeps run in worker threads (the
runner's prefetch, the UI's QThread). :class:`GpuCapture` therefore opens the session on
its own single worker thread and sends every capture there; ``submit`` returns a Future,
so the rule engine evaluates a chunk on the CPU while the GPU computes the same chunk.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from ..model.engine import OPS
from ..model.sweep.processes import WorkerPool
from ..model.sweep.runner import default_workers
from ..model.sweep.stages import ModelStage, engine_format, op_arity, result_format_of
from .capture_formats import SHADER_FLOAT
from .child_session import ChildSession, GpuClient, open_device
from .devices import DeviceChoice, selected_device
from .errors import GpuUnavailable
from .gpu_server import readback_seconds

__all__ = ["GpuCapture", "ProcessGpuCapture", "make_stage", "gpu_only_stage", "SweepBackend",
           "device_meta", "readback_seconds"]


class GpuCapture:
    """Callable GPU capture bound to one thread: ``cap(op, *bits, format=)`` -> result bits.

    Parameters
    ----------
    path : {"auto", "compute", "fragment"}
        Capture path passed to :func:`fpinspector.gpu.open_device`.
    device : DeviceChoice, optional
        Device and driver (default: the process-wide :func:`devices.selected_device`).
    process : bool, optional
        True: the GL context lives in a child process; None: only when Mesa cannot give
        this process that driver (see :func:`fpinspector.gpu.open_device`).

    Raises
    ------
    GpuUnavailable
        When no usable GL context can be created (raised here, from the constructor).
    """

    def __init__(self, path: str = "auto", device: DeviceChoice | None = None,
                 process: bool | None = None) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="gpu-capture")
        self.timings: dict[str, float] = {}
        self._path, self._device = path, device
        self._helper: ChildSession | None = None  # serves worker processes (see connect)
        try:
            self.session: Any = self._pool.submit(open_device, device, path,
                                                  process=process).result()
        except BaseException:
            self._pool.shutdown(wait=False)
            raise
        self._info = dict(self.session.info)

    @property
    def info(self) -> dict[str, Any]:
        return self._info

    def supports(self, op: str, format: str = SHADER_FLOAT) -> bool:
        """Whether the GPU can capture ``op`` on ``format`` operands."""
        return bool(self._pool.submit(self.session.supports, op, format).result())

    def unsupported_reason(self, op: str, format: str = SHADER_FLOAT) -> str | None:
        """Why the GPU cannot capture ``op`` on ``format`` (None when it can)."""
        return self._pool.submit(self.session.unsupported_reason, op, format).result()

    def _capture(self, op: str, operands: tuple[np.ndarray, ...], format: str) -> np.ndarray:
        t = time.perf_counter()
        out = self.session.capture(op, *operands, format=format)
        self.timings["gpu"] = self.timings.get("gpu", 0.0) + time.perf_counter() - t
        return out

    def submit(self, op: str, *operands: np.ndarray, format: str = SHADER_FLOAT) -> Future:
        """Start a capture on the GPU thread; the Future resolves to the result bits."""
        return self._pool.submit(self._capture, op, operands, format)

    def __call__(self, op: str, *operands: np.ndarray, format: str = SHADER_FLOAT) -> np.ndarray:
        return self.submit(op, *operands, format=format).result()

    def connect(self) -> GpuClient:
        """A connection to the GPU for a sweep worker process (:class:`GpuClient`).

        Where the GL context lives in this process, no other process can reach it: a
        helper GPU process on the same device is started on the first call (and closed
        with this capture); its results are the same session code's."""
        connect = getattr(self.session, "connect", None)
        if connect is not None:
            return self._pool.submit(connect).result()
        if self._helper is None:
            self._helper = ChildSession(self._path, self._device or selected_device())
        return self._helper.connect()

    def readback_seconds(self, n: int, itemsize: int = 4, repeats: int = 3) -> float:
        """Best time to read ``n`` result words back from a GPU buffer (for benchmarks).

        Why: a capture is upload + dispatch + read-back in one call; timing a plain
        buffer read of the same size splits the read-back share out of it.
        """
        if hasattr(self.session, "readback_seconds"):  # a child session times it there
            return float(self._pool.submit(self.session.readback_seconds, n, itemsize,
                                           repeats).result())
        return float(self._pool.submit(readback_seconds, self.session, n, itemsize,
                                       repeats).result())

    def close(self) -> None:
        """Release the GL context (on its own thread) and stop the worker."""
        try:
            self._pool.submit(self.session.close).result()
        finally:
            self._pool.shutdown(wait=True)
            if self._helper is not None:
                self._helper.close()
                self._helper = None

    def __enter__(self) -> GpuCapture:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def device_meta(info: dict[str, Any]) -> dict[str, Any]:
    """What a sweep records about the GPU that produced it: renderer and device in words."""
    dev = info.get("device")
    where = "default device" if dev is None else f"device {dev}"
    return {"renderer": info.get("renderer", ""),
            "device": f"{info.get('renderer', '?')} ({where}, {info.get('backend', '?')})"}


def make_stage(op: str, fmt: str, rules: str = "d3d11", *, gpu: GpuCapture | None = None,
               options: Any = None) -> ModelStage:
    """The standard sweep stage (model + exact + verdicts), with the GPU when given.

    Raises ``ValueError`` when the GPU cannot run ``op`` on ``fmt``.
    """
    if gpu is not None and not gpu.supports(op, engine_format(fmt)):
        raise ValueError(f"this GPU cannot capture {op} on {fmt}")
    return ModelStage(op, fmt, rules, options=options, gpu=gpu)


def gpu_only_stage(gpu: GpuCapture, op: str, fmt: str
                   ) -> Callable[[tuple[np.ndarray, ...]], dict[str, np.ndarray]]:
    """A stage that only captures (``{"gpu": bits}``): for timing the GPU stage alone."""

    def stage(operands: tuple[np.ndarray, ...]) -> dict[str, np.ndarray]:
        return {"gpu": gpu(op, *operands, format=fmt)}

    return stage


class SweepBackend:
    """What a sweep UI needs, without Qt: op list, arity, and stages (model + GPU on demand).

    The GPU capture and the sweep worker processes are started on first use and kept until
    :meth:`close`.
    """

    #: Sweeps from this many elements run in the worker processes (a 1024 x 1024 map);
    #: smaller ones finish in stage threads before processes would have started.
    PROCESS_MIN = 1 << 20

    def __init__(self, path: str = "auto", workers: int | None = None) -> None:
        self._path = path
        self._gpu: GpuCapture | None = None
        self._device: DeviceChoice | None = None
        self.workers = default_workers() if workers is None else max(1, int(workers))
        self._workers: WorkerPool | None = None

    def pool_for(self, size: int) -> WorkerPool | None:
        """The worker processes for a sweep of ``size`` elements (started on first use and
        kept), or None: too small a sweep, or one worker (stage threads then)."""
        if self.workers < 2 or size < self.PROCESS_MIN:
            return None
        if self._workers is not None and not self._workers.alive:  # (a worker died)
            self._workers.close()
            self._workers = None
        if self._workers is None:
            self._workers = WorkerPool(self.workers)
        return self._workers

    def capture(self) -> GpuCapture:
        """The GPU capture on the process-wide selected device, reopened when the selection
        changed since it was opened (the app's GPU menu); ValueError when it cannot open."""
        choice = selected_device()
        if self._gpu is not None and self._device is not None and self._device != choice:
            self.close()  # (a capture handed in from outside, device unknown, is kept)
        if self._gpu is None:
            try:
                self._gpu = GpuCapture(self._path, choice)
            except GpuUnavailable as exc:
                raise ValueError(exc.message) from None
            self._device = choice
        return self._gpu

    def ops(self) -> list[str]:
        """Ops a map can show (one or two operands)."""
        return sorted(n for n, s in OPS.items() if s.arity in (1, 2))

    def arity(self, op: str) -> int:
        return op_arity(op)

    def make(self, op: str, fmt: str, rules: str, gpu: bool) -> tuple[Any, str, dict[str, Any]]:
        """(stage, result format, extra metadata); ValueError when it cannot be done."""
        meta: dict[str, Any] = {}
        cap = self.capture() if gpu else None
        if cap is not None:
            meta.update(device_meta(cap.info))
        return make_stage(op, fmt, rules, gpu=cap), result_format_of(op, fmt, rules), meta

    def close(self) -> None:
        if self._gpu is not None:
            self._gpu.close()
            self._gpu = None
            self._device = None
        if self._workers is not None:
            self._workers.close()
            self._workers = None


class ProcessGpuCapture(GpuCapture):
    """:class:`GpuCapture` whose GL context lives in a child process (:class:`ChildSession`).

    Why: moderngl holds the GIL for a whole capture (llvmpipe runs the shader inside the
    call), so in-process the CPU model and the GPU take turns; a 2^32 f32 sweep spends
    ~15 s of its wall time with every Python thread blocked. In a child process the GPU
    computes a chunk while the model evaluates it. Operands and results travel through
    shared memory; the results are the patterns the in-process capture returns (the same
    session code runs them).
    """

    def __init__(self, path: str = "auto", device: DeviceChoice | None = None) -> None:
        super().__init__(path, device, process=True)

    @property
    def _proc(self) -> Any:
        """The child process (tests check it is gone after close)."""
        return self.session._proc
