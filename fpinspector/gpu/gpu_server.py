"""The GPU process's side: open the session, then answer requests from the parent and from
any connection it hands over (sweep workers) until the parent says "close" or goes.

Each connection has its own shared block (named in its requests): operands are read from
it in place and a shader capture writes its result straight into it (no copies). An
expression capture ("expr") runs on an :class:`~.expr_capture.ExprRunner` of the session,
made on the first one, and writes its words, one row per step, into the block.
"""

from __future__ import annotations

import time
from multiprocessing.connection import wait
from typing import Any

import numpy as np

from . import routes
from .devices import DeviceChoice
from .errors import GpuUnavailable
from .shaders import KERNELS
from .shm_channel import error_payload

__all__ = ["serve", "readback_seconds"]


def serve(conn: Any, path: str, choice: dict[str, Any]) -> None:
    """The child: open the session, say "ready" with its info, answer until "close"."""
    from .session import open_session

    c = DeviceChoice.from_dict(choice)
    try:
        session = open_session(path, device=c.index, driver=c.driver, backend=c.backend,
                               api=c.api, adapter=c.adapter)
    except (GpuUnavailable, ValueError) as exc:
        conn.send(("unavailable", (type(exc).__name__, getattr(exc, "message", str(exc)))))
        return
    conn.send(("ready", session.info))
    blocks: dict[Any, Any] = {}  # connection -> its shared block, opened here
    runners: dict[str, Any] = {}  # "expr": the session's expression runner, once used
    conns: list[Any] = [conn]
    try:
        while True:
            ready: list[Any] = wait(conns)
            for c_ready in ready:
                try:
                    msg: Any = c_ready.recv()
                except (EOFError, OSError):
                    if c_ready is conn:
                        return
                    _drop(c_ready, conns, blocks)  # a worker went: forget it
                    continue
                cmd, args = msg[0], msg[1]
                if cmd == "close" and c_ready is conn:
                    return
                if cmd == "connect":  # a connection for another process, served beside ours
                    conns.append(args[0])
                    c_ready.send(("value", True))
                    continue
                _reply(session, c_ready, msg, blocks, runners)
    finally:
        for c_other in list(conns[1:]):
            _drop(c_other, conns, blocks)
        for shm in blocks.values():
            shm.close()
        if "expr" in runners:
            runners["expr"].close()
        session.close()


def _drop(c: Any, conns: list[Any], blocks: dict[Any, Any]) -> None:
    conns.remove(c)
    shm = blocks.pop(c, None)
    if shm is not None:
        shm.close()
    c.close()


def _reply(session: Any, conn: Any, msg: tuple, blocks: dict[Any, Any],
           runners: dict[str, Any]) -> None:
    from multiprocessing import shared_memory

    cmd, args, specs, name, res_off = msg
    shm = blocks.get(conn)
    try:
        if name and (shm is None or shm.name != name.lstrip("/")):
            if shm is not None:
                shm.close()
            shm = blocks[conn] = shared_memory.SharedMemory(name=name)
        arrays = _views(shm, specs)
        res = _answer(session, cmd, args, arrays, shm, res_off, runners)
        del arrays
        if isinstance(res, np.ndarray):
            if shm is None:
                raise ValueError("GPU process: an array result needs array operands")
            if not _at(res, shm, res_off):  # (a capture wrote it there itself)
                out = np.ascontiguousarray(res)
                if res_off + out.nbytes > shm.size:
                    raise ValueError("GPU process: result larger than the shared buffer")
                np.frombuffer(shm.buf, np.uint8, out.nbytes, res_off)[:] = \
                    out.view(np.uint8).reshape(-1)
            conn.send(("array", (res.dtype.str, res.shape)))
        else:
            conn.send(("value", res))
        res = None  # no view of the block may outlive it (shm.close() refuses)
    except Exception as exc:  # noqa: BLE001 - one request's failure, not the process's:
        conn.send(("error", error_payload(exc)))  # the requester raises it (same type)


def _views(shm: Any, specs: list[tuple[str, tuple, int]]) -> list[np.ndarray]:
    """The operand arrays the requester put in the shared block, as views of it."""
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


def _expr_runner(session: Any, runners: dict[str, Any]) -> Any:
    runner = runners.get("expr")
    if runner is None:
        from .expr_capture import ExprRunner

        runner = runners["expr"] = ExprRunner(session)
    return runner


def _expr_into(runner: Any, args: tuple, arrays: list[np.ndarray], shm: Any,
               res_off: int) -> np.ndarray:
    """An expression capture: its words (W per element) as one (W, *shape) uint32 array,
    in the shared block at the result offset when it fits there (else a copy follows)."""
    program, path, variant = args
    words = runner.run(program, arrays, path=path, variant=variant)
    shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
    n = int(np.prod(shape, dtype=np.int64))
    out: np.ndarray | None = None
    if shm is not None and res_off + 4 * n * len(words) <= shm.size:
        out = np.frombuffer(shm.buf, np.uint32, n * len(words), res_off)
        out = out.reshape((len(words), *shape))
    else:
        out = np.empty((len(words), *shape), np.uint32)
    for k, w in enumerate(words):
        out[k] = w
    return out


def _answer(session: Any, cmd: str, args: tuple, arrays: list[np.ndarray], shm: Any = None,
            res_off: int = 0, runners: dict[str, Any] | None = None) -> Any:
    """The answer to one request (``runners`` keeps the session's expression runner)."""
    runners = {} if runners is None else runners
    if cmd == "capture":
        return _capture_into(session, args, arrays, shm, res_off)
    if cmd == "expr":
        return _expr_into(_expr_runner(session, runners), args, arrays, shm, res_off)
    if cmd == "expr_unsupported":
        program, path = args
        return _expr_runner(session, runners).unsupported_reason(program, path)
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
    if cmd == "route":
        return session.route(*args)
    if cmd == "conversions":
        return session.conversions()
    if cmd == "readback":
        return readback_seconds(session, *args)
    raise ValueError(f"unknown GPU process request {cmd!r}")


def readback_seconds(session: Any, n: int, itemsize: int = 4, repeats: int = 3) -> float:
    """Best of ``repeats`` reads of ``n`` words from a GPU buffer of ``session``."""
    if hasattr(session, "readback_seconds"):  # a WebGPU session times its own read-back
        return float(session.readback_seconds(n, itemsize, repeats))
    ctx = session.ctx
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
