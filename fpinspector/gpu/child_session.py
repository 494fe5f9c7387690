"""A GPU session in a child process, with the GpuSession API, and ``open_device`` to pick one.

Why a child process: Mesa picks its driver once per process and device (see
:mod:`.devices`), so switching from llvmpipe to softpipe at run time needs a fresh process;
a driver that crashes takes only the child down; and moderngl holds the GIL for a whole
capture, so a child lets the CPU model run while the GPU computes. Operands and results
travel through one shared-memory block, requests and small replies over a pipe.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
from typing import Any

import numpy as np

from . import routes
from .devices import DeviceChoice, selected_device
from .errors import DeviceUnavailable, DriverSwitchNeeded, GpuUnavailable, ShaderError
from .operands import result_array
from .shaders import KERNELS

__all__ = ["ChildSession", "open_device"]

START_TIMEOUT_S = 60.0
_ERRORS: dict[str, type[Exception]] = {
    "ValueError": ValueError, "GpuUnavailable": GpuUnavailable,
    "DeviceUnavailable": DeviceUnavailable, "DriverSwitchNeeded": DeviceUnavailable,
    "KeyError": KeyError, "TypeError": TypeError,
}


class ChildSession:
    """:class:`GpuSession`'s methods, run by a session that lives in a child process.

    Parameters
    ----------
    path : {"auto", "compute", "fragment"}
    choice : DeviceChoice, optional
        Device, driver and backend the child opens (default: the default device).

    Raises
    ------
    GpuUnavailable / DeviceUnavailable
        From the constructor, as :func:`open_session` would raise them in the child.
    """

    def __init__(self, path: str = "auto", choice: DeviceChoice | None = None,
                 timeout: float = START_TIMEOUT_S) -> None:
        self.choice = choice or DeviceChoice()
        ctx = mp.get_context("spawn")  # no fork of a process with threads / GL state
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(child, path, self.choice.to_dict()),
                                 daemon=True, name="fpinspector-gpu")
        self._lock = threading.Lock()
        self._shm: Any = None
        self._info: dict[str, Any] = {}
        self._closed = False
        self._proc.start()
        child.close()
        try:
            if not self._conn.poll(timeout):
                raise DeviceUnavailable(f"{self.choice.label()}: the GPU process did not "
                                        f"answer within {timeout:g} s")
            kind, payload = self._conn.recv()
        except (EOFError, OSError):
            self.close()
            raise DeviceUnavailable(f"{self.choice.label()}: the GPU process stopped while "
                                    f"opening the device (exit code {self._proc.exitcode})"
                                    ) from None
        except BaseException:
            self.close()
            raise
        if kind != "ready":
            self.close()
            raise _rebuild(payload)
        self._info = {**payload, "process": "child"}

    # -- the GpuSession API -------------------------------------------------------------
    @property
    def info(self) -> dict[str, Any]:
        return dict(self._info)

    @property
    def path(self) -> str:
        """The default capture path of the session in the child."""
        return str(self._info.get("path", "fragment"))

    def capture(self, op: str, *operand_bits: Any, format: str = "f32",
                path: str | None = None, out: np.ndarray | None = None) -> np.ndarray:
        arrays = tuple(np.asarray(a) for a in operand_bits)
        return self._call("capture", op, format, path, arrays=arrays, out=out)

    def convert(self, bits: Any, src: str, dst: str, path: str = "auto") -> np.ndarray:
        return self._call("convert", src, dst, path, arrays=(np.asarray(bits),))

    def run_kernel(self, kernel: Any, *words: np.ndarray, path: str | None = None
                   ) -> np.ndarray:
        return self._call("run_kernel", kernel, path, arrays=tuple(np.asarray(w) for w in words))

    def supports(self, op: str, format: str = "f32", path: str | None = None) -> bool:
        return bool(self._call("supports", op, format, path))

    def unsupported_reason(self, op: str, format: str = "f32",
                           path: str | None = None) -> str | None:
        return self._call("unsupported_reason", op, format, path)

    def ops(self, format: str = "f32") -> list[str]:
        return list(self._call("ops", format))

    @staticmethod
    def route(op: str, format: str = "f32") -> str:
        return routes.route(op, format)

    @staticmethod
    def conversions() -> list[tuple[str, str, str]]:
        from .session import GpuSession

        return GpuSession.conversions()

    def readback_seconds(self, n: int, itemsize: int = 4, repeats: int = 3) -> float:
        return float(self._call("readback", n, itemsize, repeats))

    # -- transport ----------------------------------------------------------------------
    def _block(self, arrays: tuple[np.ndarray, ...]) -> tuple[list[tuple[str, tuple, int]], int]:
        """Copy ``arrays`` into the shared block (grown as needed); their (dtype, shape,
        offset) specs and the offset of the result, which follows them (8 bytes per
        element of the broadcast operands: the widest result)."""
        specs, off = [], 0
        for a in arrays:
            specs.append((a.dtype.str, a.shape, off))
            off += -(-a.nbytes // 64) * 64
        try:
            n = int(np.prod(np.broadcast_shapes(*(a.shape for a in arrays)), dtype=np.int64))
        except ValueError:  # the session in the child says which shapes do not broadcast
            n = max(a.size for a in arrays)
        need = off + 8 * n + 64
        if self._shm is None or self._shm.size < need:
            from multiprocessing import shared_memory

            self._drop_block()
            self._shm = shared_memory.SharedMemory(create=True, size=max(need, 1 << 20))
        for a, (_, _, o) in zip(arrays, specs):
            flat = np.ascontiguousarray(a).view(np.uint8).reshape(-1)
            np.frombuffer(self._shm.buf, np.uint8, a.nbytes, o)[:] = flat
        return specs, off

    def _call(self, cmd: str, *args: Any, arrays: tuple[np.ndarray, ...] = (),
              out: np.ndarray | None = None) -> Any:
        with self._lock:
            if self._closed:
                raise ValueError("this GPU session is closed; open a new one")
            specs, res_off = self._block(arrays) if arrays else ([], 0)
            name = self._shm.name if self._shm is not None else ""
            try:
                self._conn.send((cmd, args, specs, name, res_off))
                kind, payload = self._conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                raise GpuUnavailable(f"the GPU process ({self.choice.label()}) stopped "
                                     f"(exit code {self._proc.exitcode})") from None
            if kind == "array":
                dtype, shape = payload
                n = int(np.prod(shape, dtype=np.int64))
                res = np.frombuffer(self._shm.buf, dtype, n, res_off).reshape(shape)
                if out is None:
                    return res.copy()
                dst = result_array(out, np.dtype(dtype), tuple(shape))
                dst[...] = res
                return dst
            if kind == "error":
                raise _rebuild(payload)
            return payload

    def _drop_block(self) -> None:
        if self._shm is not None:
            self._shm.close()
            self._shm.unlink()
            self._shm = None

    def close(self) -> None:
        """Stop the child (its GL context goes with it) and free the shared block."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                if self._proc.is_alive():
                    self._conn.send(("close", (), [], "", 0))
                    self._proc.join(timeout=10)
            except (OSError, ValueError, BrokenPipeError):
                pass
            finally:
                if self._proc.is_alive():
                    self._proc.terminate()
                    self._proc.join(timeout=5)
                self._conn.close()
                self._drop_block()

    def __enter__(self) -> ChildSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _rebuild(payload: tuple[str, str]) -> Exception:
    name, message = payload
    if name == "ShaderError":
        return RuntimeError(message)
    return _ERRORS.get(name, RuntimeError)(message)


def _serve(conn: Any, path: str, choice: dict[str, Any]) -> None:
    """The child: open the session, say "ready" with its info, answer until "close"."""
    from multiprocessing import shared_memory

    from .session import open_session

    c = DeviceChoice.from_dict(choice)
    try:
        session = open_session(path, device=c.index, driver=c.driver, backend=c.backend)
    except (GpuUnavailable, ValueError) as exc:
        conn.send(("unavailable", (type(exc).__name__, getattr(exc, "message", str(exc)))))
        return
    conn.send(("ready", session.info))
    shm: Any = None
    try:
        while True:
            try:
                cmd, args, specs, name, res_off = conn.recv()
            except EOFError:
                return
            if cmd == "close":
                return
            if specs and (shm is None or shm.name != name.lstrip("/")):
                if shm is not None:
                    shm.close()
                shm = shared_memory.SharedMemory(name=name)
            arrays = _views(shm, specs)
            try:
                res = _answer(session, cmd, args, arrays, shm, res_off)
                del arrays
                if isinstance(res, np.ndarray):
                    if shm is None:
                        raise ValueError("GPU process: an array result needs array operands")
                    if not _at(res, shm, res_off):  # (a capture wrote it there itself)
                        out = np.ascontiguousarray(res)
                        if res_off + out.nbytes > shm.size:
                            raise ValueError("GPU process: result larger than the shared "
                                             "buffer")
                        np.frombuffer(shm.buf, np.uint8, out.nbytes, res_off)[:] = \
                            out.view(np.uint8).reshape(-1)
                    conn.send(("array", (res.dtype.str, res.shape)))
                else:
                    conn.send(("value", res))
                res = None  # no view of the block may outlive it (shm.close() refuses)
            except (GpuUnavailable, ShaderError, ValueError, KeyError, TypeError,
                    RuntimeError) as exc:
                conn.send(("error", (type(exc).__name__, getattr(exc, "message", str(exc)))))
    finally:
        if shm is not None:
            shm.close()
        session.close()


def _views(shm: Any, specs: list[tuple[str, tuple, int]]) -> list[np.ndarray]:
    """The operand arrays the parent put in the shared block, as views of it."""
    return [np.frombuffer(shm.buf, d, int(np.prod(sh, dtype=np.int64)), o).reshape(sh)
            for d, sh, o in specs]


def _at(a: np.ndarray, shm: Any, offset: int) -> bool:
    """Is ``a`` the contiguous array that starts at ``offset`` in the shared block?"""
    if shm is None or not a.flags.c_contiguous:
        return False
    base = np.frombuffer(shm.buf, np.uint8, 1).ctypes.data
    return bool(a.ctypes.data == base + offset)


def _capture_into(session: Any, args: tuple, arrays: list[np.ndarray], shm: Any,
                  res_off: int) -> np.ndarray:
    """A shader capture writes its result straight into the shared block (no copy)."""
    op, fmt, path = args
    kernel = KERNELS.get((op, fmt))
    conversion = (op, fmt) in routes.CONVERSION_OPS or (op, fmt) in routes.TWO_STEP_OPS
    out = None
    if kernel is not None and not conversion and shm is not None:
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            shape = None
        if shape is not None:
            n = int(np.prod(shape, dtype=np.int64))
            dtype = kernel.result_dtype
            if res_off + n * dtype.itemsize <= shm.size:
                out = np.frombuffer(shm.buf, dtype, n, res_off).reshape(shape)
    return session.capture(op, *arrays, format=fmt, path=path, out=out)


def _answer(session: Any, cmd: str, args: tuple, arrays: list[np.ndarray], shm: Any = None,
            res_off: int = 0) -> Any:
    if cmd == "capture":
        return _capture_into(session, args, arrays, shm, res_off)
    if cmd == "convert":
        src, dst, path = args
        return session.convert(arrays[0], src, dst, path=path)
    if cmd == "run_kernel":
        kernel, path = args
        return session.run_kernel(kernel, *arrays, path=path)
    if cmd == "supports":
        return session.supports(*args)
    if cmd == "unsupported_reason":
        return session.unsupported_reason(*args)
    if cmd == "ops":
        return session.ops(*args)
    if cmd == "readback":
        from .sweep_capture import readback_seconds

        return readback_seconds(session, *args)
    raise ValueError(f"unknown GPU process request {cmd!r}")


def open_device(choice: DeviceChoice | None = None, path: str = "auto", *,
                process: bool | None = None, chunk: int | None = None) -> Any:
    """Open ``choice`` (default: the process-wide :func:`selected_device`) in this process
    when Mesa allows it, else in a child process; ``process=True`` always uses a child.

    Returns a :class:`GpuSession` or a :class:`ChildSession` (``info["process"]`` says
    which); both raise :class:`DeviceUnavailable` for a device or driver that cannot start.
    """
    from .session import open_session

    choice = selected_device() if choice is None else choice
    if process:
        return ChildSession(path, choice)
    try:
        return open_session(path, device=choice.index, driver=choice.driver,
                            backend=choice.backend, chunk=chunk)
    except DriverSwitchNeeded:
        return ChildSession(path, choice)
