"""A sweep worker process's side: build the stage from its recipe, then compute chunks (their
operands, the stage, the summary's part, the caller's ``chunk_part``) and send back the
parts, with the kept columns in a shared block of its own (see :mod:`.processes`)."""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Mapping
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from .chunk import GpuAhead, Stopped, compute_chunk

__all__ = ["work"]


class _Outbox:
    """The worker's shared block for per-element columns (grown as needed, reused)."""

    def __init__(self) -> None:
        self.block: Any = None

    def put(self, out: Mapping[str, Any], not_elements: frozenset[str]) -> tuple[str, list]:
        arrays: list[tuple[str, str, np.ndarray]] = []
        for name, arr in out.items():
            if name in not_elements:
                continue
            if name == "fired":
                arrays += [("fired", rule, np.ascontiguousarray(m, dtype=bool))
                           for rule, m in arr.items()]
            else:
                arrays.append(("column", name, np.ascontiguousarray(arr)))
        size = sum(-(-a.nbytes // 64) * 64 for _, _, a in arrays) or 64
        if self.block is None or self.block.size < size:
            from multiprocessing import shared_memory

            self.close()
            self.block = shared_memory.SharedMemory(create=True, size=max(size, 1 << 20))
        entries, off = [], 0
        for kind, key, a in arrays:
            np.frombuffer(self.block.buf, np.uint8, a.nbytes, off)[:] = a.view(np.uint8).ravel()
            entries.append((kind, key, a.dtype.str, a.size, off))
            off += -(-a.nbytes // 64) * 64
        return self.block.name, entries

    def close(self) -> None:
        if self.block is not None:
            self.block.close()
            self.block.unlink()
            self.block = None


class _Inbox:
    """The parent's messages, read ahead where the worker needs to know what comes: the
    parent sends a worker its next chunk before the current one is done (:class:`GpuAhead`
    starts that chunk's GPU request early), and may send "stop" while a span runs.

    After a "stop" the worker answers the span it is in and every chunk already sent to it
    with ("stopped", k0), without computing them, until the sweep ends ("end" or "begin").
    Why: a cancelled sweep then ends within a chunk, not after the spans in flight (two
    of :data:`.chunk.SPAN_SECONDS` each)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._held: deque[Any] = deque()
        #: a "stop" came during this sweep: chunks are answered "stopped", not computed
        self.stopping = False

    def recv(self) -> Any:
        msg = self._held.popleft() if self._held else self.conn.recv()
        if msg[0] == "stop":
            self.stopping = True
        elif msg[0] in ("end", "begin"):
            self.stopping = False
        return msg

    def _read_ahead(self) -> None:
        """Everything already in the pipe, held (a "stop" sets :attr:`stopping` at once)."""
        try:
            while self.conn.poll():
                msg = self.conn.recv()
                if msg[0] == "stop":
                    self.stopping = True
                    continue
                self._held.append(msg)
        except (EOFError, OSError):
            pass

    def stop_asked(self) -> bool:
        """Whether the parent asked this worker to stop (read between a span's chunks)."""
        if not self.stopping:
            self._read_ahead()
        return self.stopping

    def next_chunk(self) -> tuple[int, int] | None:
        """(k0, k1) of the next message when it is a chunk already sent, else None."""
        if not self._held:
            self._read_ahead()
        if not self._held or self.stopping:
            return None
        msg = self._held[0]
        return (msg[1], msg[2]) if msg[0] == "chunk" else None


def work(conn: Connection, tune_malloc: bool, environ: Mapping[str, str] | None = None
         ) -> None:
    """A worker's life: sweeps (begin, chunks, end) until "quit" or the parent goes.

    ``environ``: the parent's environment when it started the pool. A worker forked from
    the fork server has the server's, which may be older (the engine reads its settings,
    e.g. ``FPINSPECTOR_ENGINE_PATHS``, from the environment)."""
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # (now ignored)
    if tune_malloc:
        from .alloc import keep_freed_buffers

        keep_freed_buffers()
    from .summary import Summary

    outbox = _Outbox()
    stage: Any = None
    inbox = _Inbox(conn)
    ahead = GpuAhead(inbox.next_chunk)
    try:
        while True:
            try:
                msg = inbox.recv()
            except (EOFError, OSError):
                return
            if msg[0] == "quit":
                return
            if msg[0] == "begin":
                (_, domain, recipe, (fmt, rfmt, top_k, first_n), keep, not_elements,
                 chunk_part) = msg
                try:
                    stage = recipe.build()
                    summary = Summary(fmt, rfmt, top_k=top_k, first_n=first_n)
                except Exception as exc:  # noqa: BLE001 - the parent raises it
                    conn.send(("error", (type(exc).__name__, str(exc))))
                    continue
                conn.send(("ready",))
            elif msg[0] == "chunk":
                _, k0, k1, step, snapshot = msg
                if inbox.stopping:
                    conn.send(("stopped", k0))
                    continue
                conn.send(_chunk(domain, stage, summary, k0, k1, step, snapshot, keep,
                                 outbox, not_elements, chunk_part, ahead, inbox.stop_asked))
            elif msg[0] == "end":
                ahead.drain()
                timings = dict(getattr(stage, "timings", None) or {})
                close = getattr(stage, "close", None)
                if close is not None:
                    close()
                stage = None
                conn.send(("ended", timings))
    except ConnectionError:  # the parent went (killed) while this worker answered: nobody
        return  # to tell, and no traceback on the terminal the sweep ran in
    finally:
        outbox.close()
        ahead.drain()
        if stage is not None and getattr(stage, "close", None) is not None:
            stage.close()


def _chunk(domain: Any, stage: Any, summary: Any, k0: int, k1: int, step: int | None,
           snapshot: Any, keep: bool, outbox: _Outbox, not_elements: frozenset[str],
           chunk_part: Any, ahead: GpuAhead, stop: Any) -> tuple:
    try:
        _, out, prepared, part, timings = compute_chunk(
            domain, stage, k0, k1,
            lambda k, ops, out: summary.prepare(k, ops, out, snapshot=snapshot), chunk_part,
            step=step, ahead=ahead, fold=summary.fold_parts, stop=stop)
        if len(prepared) > 1:  # a span's chunks: one part to send and merge
            prepared = [summary.fold_parts(prepared)]
        prepared = [summary.packed(p) for p in prepared]  # (processes.next_done unpacks)
        manifest = outbox.put(out, not_elements) if keep else None
    except Stopped:
        return ("stopped", k0)
    except Exception as exc:  # noqa: BLE001 - handed to the parent with the partial result
        return ("failed", k0, (type(exc).__name__, str(exc) or type(exc).__name__))
    return ("done", k0, k1, prepared, timings, manifest, part)

