"""A GPU session in a child process, with the GpuSession API, and ``open_device`` to pick one.

Why a child process: Mesa picks its driver once per process and device (see
:mod:`.devices`), so switching from llvmpipe to softpipe at run time needs a fresh process;
a driver that crashes takes only the child down; and moderngl holds the GIL for a whole
capture, so a child lets the CPU model run while the GPU computes. Operands and results
travel through shared memory, requests and small replies over a pipe (:mod:`.shm_channel`;
the child's side is :mod:`.gpu_server`); :meth:`ChildSession.connect` gives another
process (a sweep worker) a connection of its own.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
from typing import Any

import numpy as np

from ..model.sweep.child_start import main_not_rerun
from .capture_formats import SHADER_FLOAT
from .devices import DeviceChoice, selected_device
from .errors import DeviceUnavailable, DriverSwitchNeeded, GpuUnavailable
from .gpu_server import serve
from .shm_channel import GpuClient, ShmChannel, rebuild_error

__all__ = ["ChildSession", "GpuClient", "open_device"]

START_TIMEOUT_S = 60.0


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
        self._proc = ctx.Process(target=serve, args=(child, path, self.choice.to_dict()),
                                 daemon=True, name="fpinspector-gpu")
        self._lock = threading.Lock()
        self._chan = ShmChannel(self._conn, self.choice.label())
        self._info: dict[str, Any] = {}
        self._closed = False
        with main_not_rerun():  # (a user's unguarded script is not run again in the child)
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
            raise rebuild_error(payload)
        self._info = {**payload, "process": "child"}

    # -- the GpuSession API -------------------------------------------------------------
    @property
    def info(self) -> dict[str, Any]:
        return dict(self._info)

    @property
    def path(self) -> str:
        """The default capture path of the session in the child."""
        return str(self._info.get("path", "fragment"))

    def capture(self, op: str, *operand_bits: Any, format: str = SHADER_FLOAT,
                path: str | None = None, out: np.ndarray | None = None) -> np.ndarray:
        arrays = tuple(np.asarray(a) for a in operand_bits)
        return self._call("capture", op, format, path, arrays=arrays, out=out)

    def convert(self, bits: Any, src: str, dst: str, path: str = "auto") -> np.ndarray:
        return self._call("convert", src, dst, path, arrays=(np.asarray(bits),))

    def run_kernel(self, kernel: Any, *words: np.ndarray, path: str | None = None
                   ) -> np.ndarray:
        return self._call("run_kernel", kernel, path, arrays=tuple(np.asarray(w) for w in words))

    def supports(self, op: str, format: str = SHADER_FLOAT, path: str | None = None) -> bool:
        return bool(self._call("supports", op, format, path))

    def unsupported_reason(self, op: str, format: str = SHADER_FLOAT,
                           path: str | None = None) -> str | None:
        return self._call("unsupported_reason", op, format, path)

    def ops(self, format: str = SHADER_FLOAT) -> list[str]:
        return list(self._call("ops", format))

    def route(self, op: str, format: str = SHADER_FLOAT) -> str:
        """The child session's route: a WebGPU adapter's differs from GL's (WGSL, texture
        formats)."""
        return str(self._call("route", op, format))

    def conversions(self) -> list[tuple[str, str, str]]:
        """The conversions of the session in the child (a WebGPU adapter lists those its
        features allow)."""
        return [(str(s), str(d), str(p)) for s, d, p in self._call("conversions")]

    def readback_seconds(self, n: int, itemsize: int = 4, repeats: int = 3) -> float:
        return float(self._call("readback", n, itemsize, repeats))

    # -- expressions (ExprRunner's API, run by the session in the child) ------------------
    def expr_run(self, program: Any, slots: Any, *, path: str | None = None,
                 variant: str = "precise") -> list[np.ndarray]:
        """:meth:`~.expr_capture.ExprRunner.run` in the GPU process: the words per step
        ("precise") or per result component ("free"), input-shaped; the slots' words and
        the result travel through the shared block."""
        arrays = tuple(np.asarray(s) for s in slots)
        try:
            n = int(np.prod(np.broadcast_shapes(*(a.shape for a in arrays)), dtype=np.int64))
        except ValueError:  # the runner in the child says which shapes do not broadcast
            n = max((a.size for a in arrays), default=1)
        width = len(program.steps) if variant == "precise" else len(program.outputs)
        out = self._call("expr", program, path, variant, arrays=arrays,
                         result_bytes=4 * max(width, 1) * max(n, 1))
        return [out[k, ...].copy() for k in range(out.shape[0])]  # (0-d stays 0-d)

    def expr_unsupported_reason(self, program: Any, path: str | None = None) -> str | None:
        """Why ``program`` cannot run on the child's session (None when it can)."""
        why = self._call("expr_unsupported", program, path)
        return None if why is None else str(why)

    def connect(self) -> GpuClient:
        """A connection to this GPU process for another process (a sweep worker): captures
        through it are served beside this session's own; picklable until first used."""
        with self._lock:
            if self._closed:
                raise ValueError("this GPU session is closed; open a new one")
            mine, theirs = mp.get_context("spawn").Pipe()
            try:
                self._conn.send(("connect", (theirs,), [], "", 0))
                self._chan.receive()
            except GpuUnavailable:
                mine.close()
                raise
            finally:
                theirs.close()
        return GpuClient(mine, self.choice.label())

    # -- transport ----------------------------------------------------------------------
    def _call(self, cmd: str, *args: Any, arrays: tuple[np.ndarray, ...] = (),
              out: np.ndarray | None = None, result_bytes: int = 0) -> Any:
        with self._lock:
            if self._closed:
                raise ValueError("this GPU session is closed; open a new one")
            try:
                return self._chan.call(cmd, *args, arrays=arrays, out=out,
                                       result_bytes=result_bytes)
            except GpuUnavailable:
                raise GpuUnavailable(f"the GPU process ({self.choice.label()}) stopped "
                                     f"(exit code {self._proc.exitcode})") from None

    @property
    def alive(self) -> bool:
        """Is the GPU process still running (False once it stopped or was closed)?"""
        return not self._closed and self._proc.is_alive()

    @property
    def exitcode(self) -> int | None:
        """The GPU process's exit code once it stopped (None while it runs)."""
        return self._proc.exitcode

    def kill(self) -> None:
        """Stop the GPU process now, without waiting for the request in flight (which then
        fails with GpuUnavailable); :meth:`close` still frees the rest."""
        if self._proc.is_alive():
            self._proc.terminate()

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
                self._chan.close()

    def __enter__(self) -> ChildSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
    if choice.api != "gl":
        return open_session(path, api=choice.api, adapter=choice.adapter, chunk=chunk)
    try:
        return open_session(path, device=choice.index, driver=choice.driver,
                            backend=choice.backend, chunk=chunk)
    except DriverSwitchNeeded:
        return ChildSession(path, choice)
