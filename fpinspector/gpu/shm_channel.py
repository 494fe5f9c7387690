"""Requests to a GPU process: small messages over a pipe, operands and results through a
shared-memory block this side owns (:class:`ShmChannel`), and :class:`GpuClient`, a
connection a sweep worker process takes along to capture its own chunks.

Message: ``(cmd, args, specs, block name, result offset)``; ``specs`` are the operands'
(dtype, shape, offset) in the block; the reply is ``("array", (dtype, shape))`` (the result
at the result offset), ``("value", x)`` or ``("error", (type name, message[, fields]))``
(``fields``: what rebuilds a :class:`~.errors.ShaderError` with its op, log and source).
A request may reserve more room for its result than the widest single result
(``result_bytes``: an expression capture's words of every step).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .capture_formats import SHADER_FLOAT
from .errors import DeviceUnavailable, DriverSwitchNeeded, GpuUnavailable, ShaderError, error_text
from .operands import result_array

__all__ = ["ShmChannel", "GpuClient", "error_payload", "rebuild_error"]

_ERRORS: dict[str, type[Exception]] = {
    "ValueError": ValueError, "GpuUnavailable": GpuUnavailable,
    "DeviceUnavailable": DeviceUnavailable, "DriverSwitchNeeded": DriverSwitchNeeded,
    "KeyError": KeyError, "TypeError": TypeError,
}


def error_payload(exc: BaseException) -> tuple:
    """What an ``("error", payload)`` reply carries for ``exc`` (see :func:`rebuild_error`)."""
    message = error_text(exc)
    if isinstance(exc, ShaderError):
        return (type(exc).__name__, message,
                {"op": exc.op, "log": exc.log, "source": exc.source})
    return (type(exc).__name__, message)


def rebuild_error(payload: tuple) -> Exception:
    """The exception for an ``("error", payload)`` reply: the same type as the GPU
    process raised where it is one of the GPU layer's or a builtin the callers tell apart
    (a :class:`ShaderError` with its op, log and source), else a RuntimeError."""
    name, message = payload[0], payload[1]
    if name == "ShaderError":
        fields = payload[2] if len(payload) > 2 and isinstance(payload[2], dict) else {}
        if fields:
            return ShaderError(str(fields.get("op", "")), str(fields.get("log", "")),
                               str(fields.get("source", "")))
        return RuntimeError(message)
    return _ERRORS.get(name, RuntimeError)(message)


class ShmChannel:
    """One connection to a GPU process and the shared block its requests use.

    Not thread-safe: one request at a time (callers lock, or own the channel alone).
    """

    def __init__(self, conn: Any, label: str) -> None:
        self.conn = conn
        self.label = label
        self._shm: Any = None
        self._res_off = 0

    def _block(self, arrays: tuple[np.ndarray, ...], result_bytes: int = 0
               ) -> list[tuple[str, tuple, int]]:
        """Copy ``arrays`` into the shared block (grown as needed); their (dtype, shape,
        offset) specs. The result follows them (8 bytes per element of the broadcast
        operands, the widest single result, or ``result_bytes`` where more)."""
        specs, off = [], 0
        for a in arrays:
            specs.append((a.dtype.str, a.shape, off))
            off += -(-a.nbytes // 64) * 64
        try:
            n = int(np.prod(np.broadcast_shapes(*(a.shape for a in arrays)), dtype=np.int64))
        except ValueError:  # the session in the GPU process says which shapes do not broadcast
            n = max(a.size for a in arrays)
        need = off + max(8 * n, int(result_bytes)) + 64
        if self._shm is None or self._shm.size < need:
            from multiprocessing import shared_memory

            self.drop_block()
            self._shm = shared_memory.SharedMemory(create=True, size=max(need, 1 << 20))
        for a, (_, _, o) in zip(arrays, specs):
            flat = np.ascontiguousarray(a).view(np.uint8).reshape(-1)
            np.frombuffer(self._shm.buf, np.uint8, a.nbytes, o)[:] = flat
        self._res_off = off
        return specs

    def send(self, cmd: str, *args: Any, arrays: tuple[np.ndarray, ...] = (),
             result_bytes: int = 0) -> None:
        """Send a request (its operands copied into the block first; ``result_bytes``
        reserves room for an array result even without operands)."""
        block = bool(arrays) or result_bytes > 0
        specs = self._block(arrays, result_bytes) if block else []
        name = self._shm.name if self._shm is not None else ""
        try:
            self.conn.send((cmd, args, specs, name, self._res_off if block else 0))
        except (EOFError, OSError, BrokenPipeError):
            raise GpuUnavailable(f"the GPU process ({self.label}) stopped") from None

    def receive(self, out: np.ndarray | None = None) -> Any:
        """The reply to the last request: an array (a copy, or written into ``out``), a
        value, or the GPU process's error raised here."""
        try:
            kind, payload = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            raise GpuUnavailable(f"the GPU process ({self.label}) stopped") from None
        if kind == "array":
            dtype, shape = payload
            n = int(np.prod(shape, dtype=np.int64))
            res = np.frombuffer(self._shm.buf, dtype, n, self._res_off).reshape(shape)
            if out is None:
                return res.copy()
            dst = result_array(out, np.dtype(dtype), tuple(shape))
            dst[...] = res
            return dst
        if kind == "error":
            raise rebuild_error(payload)
        return payload

    def call(self, cmd: str, *args: Any, arrays: tuple[np.ndarray, ...] = (),
             out: np.ndarray | None = None, result_bytes: int = 0) -> Any:
        self.send(cmd, *args, arrays=arrays, result_bytes=result_bytes)
        return self.receive(out)

    def drop_block(self) -> None:
        if self._shm is not None:
            self._shm.close()
            self._shm.unlink()
            self._shm = None

    def close(self) -> None:
        self.drop_block()
        self.conn.close()


class _Pending:
    """A capture sent to the GPU process; ``result()`` waits for its reply."""

    def __init__(self, client: GpuClient) -> None:
        self._client = client
        self._value: Any = None
        self._done = False

    def result(self) -> np.ndarray:
        if not self._done:
            self._value = self._client._finish()
            self._done = True
        return self._value


class GpuClient:
    """Captures on a GPU process's session from any process: what a sweep worker gets.

    Made by :meth:`ChildSession.connect` (a connection of its own, served beside the
    parent's); picklable until first used, so a worker process can take it along. The
    capture API of :class:`~.sweep_capture.GpuCapture`: ``submit`` (returns a pending
    result, so the model evaluates the chunk while the GPU computes it) and calling it.
    """

    def __init__(self, conn: Any, label: str) -> None:
        self._conn = conn
        self.label = label
        self._chan: ShmChannel | None = None
        self._pending: _Pending | None = None
        self.timings: dict[str, float] = {}

    def __getstate__(self) -> dict[str, Any]:
        if self._chan is not None:
            raise TypeError("a GpuClient in use stays in its process")
        return {"conn": self._conn, "label": self.label}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._conn, self.label = state["conn"], state["label"]
        self._chan, self._pending, self.timings = None, None, {}

    def _channel(self) -> ShmChannel:
        if self._chan is None:
            self._chan = ShmChannel(self._conn, self.label)
        return self._chan

    def submit(self, op: str, *operands: np.ndarray, format: str = SHADER_FLOAT) -> _Pending:
        """Start a capture; ``.result()`` of the returned object gives the result bits."""
        if self._pending is not None:
            self._pending.result()  # one request at a time on this connection
        chan = self._channel()
        chan.send("capture", op, format, None, arrays=tuple(np.asarray(o) for o in operands))
        self._pending = _Pending(self)
        return self._pending

    def _finish(self) -> Any:
        self._pending = None
        return self._channel().receive()

    def __call__(self, op: str, *operands: np.ndarray, format: str = SHADER_FLOAT) -> np.ndarray:
        return self.submit(op, *operands, format=format).result()

    def close(self) -> None:
        """Drop the connection (the GPU process forgets it) and the shared block."""
        if self._chan is not None:
            self._chan.close()
            self._chan = None
        else:
            self._conn.close()
