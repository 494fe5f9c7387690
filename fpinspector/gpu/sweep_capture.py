"""Feed sweep chunks to the GPU: a capture adapter that owns its GL context on one thread.

A GL context is current on one thread only, while sweeps run in worker threads (the
runner's prefetch, the UI's QThread). :class:`GpuCapture` therefore opens the session on
its own single worker thread and sends every capture there; ``submit`` returns a Future,
so the rule engine evaluates a chunk on the CPU while the GPU computes the same chunk.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from ..model.sweep.stages import ModelStage, engine, engine_format, op_arity, result_format_of
from .errors import GpuUnavailable
from .session import GpuSession, open_session

__all__ = ["GpuCapture", "make_stage", "gpu_only_stage", "SweepBackend"]


class GpuCapture:
    """Callable GPU capture bound to one thread: ``cap(op, *bits, format=)`` -> result bits.

    Parameters
    ----------
    path : {"auto", "compute", "fragment"}
        Capture path passed to :func:`fpinspector.gpu.open_session`.

    Raises
    ------
    GpuUnavailable
        When no usable GL context can be created (raised here, from the constructor).
    """

    def __init__(self, path: str = "auto") -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="gpu-capture")
        self.timings: dict[str, float] = {}
        try:
            self.session: GpuSession = self._pool.submit(open_session, path).result()
        except BaseException:
            self._pool.shutdown(wait=False)
            raise

    @property
    def info(self) -> dict[str, Any]:
        return self._pool.submit(lambda: self.session.info).result()

    def supports(self, op: str, format: str = "f32") -> bool:
        """Whether the GPU can capture ``op`` on ``format`` operands."""
        return bool(self._pool.submit(self.session.supports, op, format).result())

    def _capture(self, op: str, operands: tuple[np.ndarray, ...], format: str) -> np.ndarray:
        t = time.perf_counter()
        out = self.session.capture(op, *operands, format=format)
        self.timings["gpu"] = self.timings.get("gpu", 0.0) + time.perf_counter() - t
        return out

    def submit(self, op: str, *operands: np.ndarray, format: str = "f32") -> Future:
        """Start a capture on the GPU thread; the Future resolves to the result bits."""
        return self._pool.submit(self._capture, op, operands, format)

    def __call__(self, op: str, *operands: np.ndarray, format: str = "f32") -> np.ndarray:
        return self.submit(op, *operands, format=format).result()

    def readback_seconds(self, n: int, itemsize: int = 4, repeats: int = 3) -> float:
        """Best time to read ``n`` result words back from a GPU buffer (for benchmarks).

        Why: a capture is upload + dispatch + read-back in one call; timing a plain
        buffer read of the same size splits the read-back share out of it.
        """
        def measure() -> float:
            ctx = self.session.ctx
            with ctx:
                buf = ctx.buffer(reserve=n * itemsize)
                dst = np.empty(n * itemsize, np.uint8)
                best = float("inf")
                for _ in range(repeats):
                    t = time.perf_counter()
                    buf.read_into(dst)
                    best = min(best, time.perf_counter() - t)
                buf.release()
            return best

        return float(self._pool.submit(measure).result())

    def close(self) -> None:
        """Release the GL context (on its own thread) and stop the worker."""
        try:
            self._pool.submit(self.session.close).result()
        finally:
            self._pool.shutdown(wait=True)

    def __enter__(self) -> "GpuCapture":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def make_stage(op: str, fmt: str, rules: str = "d3d11", *, gpu: GpuCapture | None = None,
               options: Any = None) -> ModelStage:
    """The standard sweep stage (model + exact + verdicts), with the GPU when given.

    Raises ``ValueError`` when the GPU cannot run ``op`` on ``fmt``.
    """
    if gpu is not None and not gpu.supports(op, engine_format(fmt)):
        raise ValueError(f"this GPU cannot capture {op} on {fmt}")
    return ModelStage(op, fmt, rules, options=options, gpu=gpu)


def gpu_only_stage(gpu: GpuCapture, op: str, fmt: str):
    """A stage that only captures (``{"gpu": bits}``): for timing the GPU stage alone."""

    def stage(operands: tuple[np.ndarray, ...]) -> dict[str, np.ndarray]:
        return {"gpu": gpu(op, *operands, format=fmt)}

    return stage


FALLBACK_OPS = ("mul", "add", "sub", "div", "min", "max", "sqrt", "rcp", "rsq", "log", "exp",
                "frc", "to_f16")


class SweepBackend:
    """What a sweep UI needs, without Qt: op list, arity, and stages (model + GPU on demand).

    The GPU capture is opened on first use and kept until :meth:`close`.
    """

    def __init__(self, path: str = "auto") -> None:
        self._path = path
        self._gpu: GpuCapture | None = None

    def ops(self) -> list[str]:
        """Ops a map can show (one or two operands)."""
        try:
            return sorted(n for n, s in engine().OPS.items() if s.arity in (1, 2))
        except ValueError:
            return list(FALLBACK_OPS)

    def arity(self, op: str) -> int:
        return op_arity(op)

    def make(self, op: str, fmt: str, rules: str, gpu: bool) -> tuple[Any, str, dict[str, Any]]:
        """(stage, result format, extra metadata); ValueError when it cannot be done."""
        meta: dict[str, Any] = {}
        if gpu and self._gpu is None:
            try:
                self._gpu = GpuCapture(self._path)
            except GpuUnavailable as exc:
                raise ValueError(exc.message) from None
        cap = self._gpu if gpu else None
        if cap is not None:
            meta["renderer"] = cap.info["renderer"]
        return make_stage(op, fmt, rules, gpu=cap), result_format_of(op, fmt, rules), meta

    def close(self) -> None:
        if self._gpu is not None:
            self._gpu.close()
            self._gpu = None
