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

__all__ = ["GpuCapture", "ProcessGpuCapture", "make_stage", "gpu_only_stage", "SweepBackend"]


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


class ProcessGpuCapture(GpuCapture):
    """:class:`GpuCapture` whose GL context lives in a child process.

    Why: moderngl holds the GIL for a whole capture (llvmpipe runs the shader inside the
    call), so in-process the CPU model and the GPU take turns; a 2^32 f32 sweep spends
    ~15 s of its wall time with every Python thread blocked. In a child process the GPU
    computes a chunk while the model evaluates it. Operands and results travel as raw
    bytes over a pipe (~1 MiB per 2^18-element chunk each way); the results are the same
    patterns the in-process capture returns (the same session code runs them).
    """

    def __init__(self, path: str = "auto") -> None:
        import multiprocessing as mp  # noqa: PLC0415

        ctx = mp.get_context("spawn")  # no fork of a process with threads / GL state
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_child_main, args=(child, path), daemon=True,
                                 name="fpinspector-gpu")
        self._proc.start()
        child.close()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="gpu-pipe")
        self._shm: Any = None
        self.timings = {}
        try:
            self._info = self._call("info")
        except (EOFError, OSError) as exc:
            self.close()
            raise GpuUnavailable(f"the GPU process did not start ({exc})") from None
        except BaseException:
            self.close()
            raise

    def _call(self, cmd: str, *args: Any, arrays: tuple[np.ndarray, ...] = ()) -> Any:
        """One request / reply (on the pipe thread only: replies come back in order).
        Operands and the result go through one shared-memory block (no pipe copies)."""
        arrays = tuple(np.ascontiguousarray(a) for a in arrays)
        specs, off = [], 0
        for a in arrays:
            specs.append((a.dtype.str, a.shape, off))
            off += -(-a.nbytes // 64) * 64
        need = max(off, 8 * sum(a.size for a in arrays[:1]) + 64)  # room for the result
        if self._shm is None or self._shm.size < need:
            from multiprocessing import shared_memory  # noqa: PLC0415

            if self._shm is not None:
                self._shm.close()
                self._shm.unlink()
            self._shm = shared_memory.SharedMemory(create=True, size=max(need, 1 << 20))
        buf = self._shm.buf
        for a, (_, _, o) in zip(arrays, specs):
            np.frombuffer(buf, np.uint8, a.nbytes, o)[:] = a.view(np.uint8).reshape(-1)
        self._conn.send((cmd, args, specs, self._shm.name))
        kind, payload = self._conn.recv()
        if kind == "array":
            dtype, shape = payload
            n = int(np.prod(shape, dtype=np.int64))
            return np.frombuffer(buf, dtype, n).reshape(shape).copy()
        if kind == "unavailable":
            raise GpuUnavailable(payload)
        if kind == "error":
            raise ValueError(payload)
        return payload

    @property
    def info(self) -> dict[str, Any]:
        return self._info

    def supports(self, op: str, format: str = "f32") -> bool:
        return bool(self._pool.submit(self._call, "supports", op, format).result())

    def _capture(self, op: str, operands: tuple[np.ndarray, ...], format: str) -> np.ndarray:
        t = time.perf_counter()
        out = self._call("capture", op, format, arrays=operands)
        self.timings["gpu"] = self.timings.get("gpu", 0.0) + time.perf_counter() - t
        return out

    def readback_seconds(self, n: int, itemsize: int = 4, repeats: int = 3) -> float:
        return float(self._pool.submit(self._call, "readback", n, itemsize, repeats).result())

    def close(self) -> None:
        """Stop the child process (its GL context goes with it) and the pipe thread."""
        try:
            if self._proc.is_alive():
                self._pool.submit(self._conn.send, ("close", (), [], "")).result(timeout=10)
                self._proc.join(timeout=10)
        except Exception:  # noqa: BLE001 - closing: the child may already be gone
            pass
        finally:
            if self._proc.is_alive():
                self._proc.terminate()
            self._pool.shutdown(wait=True)
            self._conn.close()
            if self._shm is not None:
                self._shm.close()
                self._shm.unlink()
                self._shm = None


def _child_main(conn: Any, path: str) -> None:
    """The GPU process: opens the session, then answers requests until "close"."""
    from multiprocessing import shared_memory  # noqa: PLC0415

    try:
        cap = GpuCapture(path)
    except GpuUnavailable as exc:
        conn.recv()
        conn.send(("unavailable", exc.message))
        return
    shm = None
    try:
        while True:
            cmd, args, specs, name = conn.recv()
            if cmd == "close":
                return
            if specs and (shm is None or shm.name != name.lstrip("/")):
                if shm is not None:
                    shm.close()
                shm = shared_memory.SharedMemory(name=name)
            arrays = [np.frombuffer(shm.buf, d, int(np.prod(sh, dtype=np.int64)), o).reshape(sh)
                      for d, sh, o in specs]
            try:
                if cmd == "capture":
                    op, fmt = args
                    out = np.ascontiguousarray(cap(op, *arrays, format=fmt))
                    del arrays
                    if out.nbytes > shm.size:
                        raise ValueError("GPU process: result larger than the shared buffer")
                    np.frombuffer(shm.buf, np.uint8, out.nbytes)[:] = out.view(np.uint8).reshape(-1)
                    conn.send(("array", (out.dtype.str, out.shape)))
                    continue
                if cmd == "info":
                    res: Any = dict(cap.info)
                elif cmd == "supports":
                    res = cap.supports(*args)
                elif cmd == "readback":
                    res = GpuCapture.readback_seconds(cap, *args)
                else:
                    raise ValueError(f"unknown GPU process request {cmd!r}")
                conn.send(("value", res))
            except ValueError as exc:
                conn.send(("error", str(exc)))
    finally:
        if shm is not None:
            shm.close()
        cap.close()
