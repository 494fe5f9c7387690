"""Worker processes for sweeps: each computes whole chunks (operands, stage, summary part)
from the chunk's element range alone, so chunks never travel between processes.

Why processes, not threads: most of a chunk's cost is many short numpy calls made while
holding Python's GIL, so stage threads took turns on one core. A worker builds its own
stage from a picklable recipe (:meth:`ModelStage.recipe`), generates the chunk's
operands itself, evaluates it and prepares its part of the summary; only that small
summary part comes back through a pipe. Kept per-element columns (maps) come back through
a shared-memory block the worker owns and the parent copies from. A GPU stage reaches the
GPU process over its own connection (the recipe carries it).

Signals: workers start with SIGINT held and then ignore it; the parent stops them (a
Ctrl-C is the parent's to turn into a cancel).
"""

from __future__ import annotations

import importlib
import multiprocessing as mp
import os
import sys
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection, wait
from typing import Any, Protocol

import numpy as np

from .child_start import interrupts_held, main_not_rerun
from .chunk import Spans
from .stages import NOT_ELEMENTS
from .summary import Summary
from .worker import work

__all__ = ["StageRecipe", "WorkerPool", "ChunkDone", "ChunkFailed", "ChunkStopped",
           "rebuild_error", "run_chunks"]

#: Exceptions a worker's failure is raised as in the parent (others: RuntimeError).
_ERRORS: dict[str, type[Exception]] = {"ValueError": ValueError, "KeyError": KeyError,
                                       "TypeError": TypeError, "MemoryError": MemoryError}
START_TIMEOUT_S = 120.0


def _import_popen_modules() -> None:
    """Import now, on the importing thread, what ``Process.start()`` imports lazily.

    Why: sweeps start their workers from a job or stage thread, and a first import there
    runs PySide6's import hook (in the app) on that thread; with the UI thread collecting
    garbage at that moment the process crashed (seen on Python 3.13 + PySide6 6.12: a
    segfault in shibokensupport's feature_import under multiprocessing's ``_Popen``).
    """
    for name in ("popen_forkserver", "popen_spawn_posix", "popen_spawn_win32", "popen_fork"):
        try:
            importlib.import_module(f"multiprocessing.{name}")
        except ImportError:  # another platform's
            pass


_import_popen_modules()

#: What the fork server imports before it forks workers (:func:`worker_context`).
PRELOAD = "fpinspector.model.sweep.fork_preload"


def worker_context() -> Any:
    """How workers start: forked from a fork server on Linux, spawned elsewhere (Windows
    has no fork; on macOS the system's libraries, Accelerate among them, are not safe to
    fork once a process has used them, which is why Python spawns there).

    Why: a spawned worker imports numpy, the engine and mpmath itself, about 25 MiB of
    private memory each: sixteen workers held some 400 MiB of the same module data. The
    fork server is a fresh process (never the caller: no thread, Qt or GL state is
    forked) that imports them once (:data:`PRELOAD`) and forks each worker from itself,
    so the modules' pages are shared until written. A worker takes the caller's
    environment as it is when the pool starts, as a spawned one would (:func:`.worker.work`),
    not the fork server's."""
    if not sys.platform.startswith("linux") or "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload([PRELOAD])
    return ctx


class StageRecipe(Protocol):
    """What a worker needs to build a stage: picklable, ``build()`` runs in the worker."""

    def build(self) -> Callable[[tuple[np.ndarray, ...]], Mapping[str, Any]]: ...


class ChunkDone:
    """A finished chunk (or span of chunks): its summary parts (a list: one, a span's
    folded into one by its worker), timings and (maps) its per-element columns."""

    def __init__(self, k0: int, k1: int, prepared: list[dict[str, Any]],
                 timings: dict[str, float],
                 columns: dict[str, np.ndarray], fired: dict[str, np.ndarray],
                 part: Any = None) -> None:
        self.k0, self.k1, self.prepared, self.timings = k0, k1, prepared, timings
        self.columns, self.fired, self.part = columns, fired, part


class ChunkFailed:
    """A chunk whose stage raised (or whose worker stopped)."""

    def __init__(self, k0: int, error: Exception) -> None:
        self.k0, self.error = k0, error


class ChunkStopped:
    """A chunk or span its worker left uncomputed (or unfinished) after :meth:`WorkerPool.stop`."""

    def __init__(self, k0: int) -> None:
        self.k0 = k0


#: Seconds the parent waits for a worker's answer before it looks at ``cancelled()`` again
#: (:func:`run_chunks`): a cancel reaches the workers within this, not at a span's end.
CANCEL_POLL_S = 0.05


def rebuild_error(name: str, message: str) -> Exception:
    """The parent-side exception for a worker's failure."""
    return _ERRORS.get(name, RuntimeError)(message)


class WorkerPool:
    """``n`` worker processes that run the chunks of one sweep after another.

    A pool can serve many sweeps (the app keeps one): :meth:`begin` hands the workers the
    domain and one stage recipe each, :meth:`submit` / :meth:`next_done` run chunks,
    :meth:`end` drops the stages (and their GPU connections).
    """

    def __init__(self, n: int, *, tune_malloc: bool | None = None) -> None:
        if n < 1:
            raise ValueError("a worker pool needs at least one worker")
        if tune_malloc is None:
            from . import alloc

            tune_malloc = alloc.freed_buffers_kept()
        ctx = worker_context()
        environ = dict(os.environ)
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        self._blocks: dict[int, Any] = {}  # worker -> its shared column block (opened here)
        self._busy: dict[int, list[int]] = {}  # worker -> k0 of its chunks, oldest first
        self._lost: list[int] = []  # workers whose chunk could not be sent
        self.n = n
        #: chunks a worker may hold at once (see :meth:`begin`)
        self.depth = 1
        with interrupts_held(), main_not_rerun():
            for i in range(n):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=work, args=(child, bool(tune_malloc), environ),
                                   daemon=True, name=f"fpinspector-sweep-{i}")
                proc.start()
                child.close()
                self._conns.append(parent)
                self._procs.append(proc)
        self._closed = False
        #: the last sweep's per-chunk timings (domain, stage, summary_prepare), summed
        self.timings: dict[str, float] = {}
        #: the last sweep's stages' own timings (ModelStage.timings), summed
        self.stage_timings: dict[str, float] = {}

    # -- one sweep -------------------------------------------------------------------
    def begin(self, domain: Any, recipes: list[StageRecipe], summary: tuple[Any, ...],
              keep: bool, not_elements: frozenset[str] = NOT_ELEMENTS,
              chunk_part: Callable[..., Any] | None = None) -> None:
        """Give each worker the domain, its stage recipe, the summary's (fmt, result format,
        top_k, first_n), whether per-element columns come back, which stage outputs are
        not per-element columns, and the caller's ``chunk_part`` (run after each chunk).

        Without kept columns a worker holds two chunks: the next one is already in its
        pipe when it sends a result, so it never waits for the parent to wake up, read
        and hand out more (in an exhaustive f16 sweep, whose chunks take a few
        milliseconds, waiting for that round trip leaves 1.86-1.91 of two cores busy; with
        the next chunk already queued, 1.98).
        With kept columns it holds one: its shared block holds one chunk's columns
        until the parent copied them."""
        if len(recipes) != self.n:
            raise ValueError(f"{self.n} workers need {self.n} stage recipes")
        for i, (conn, recipe) in enumerate(zip(self._conns, recipes)):
            try:
                conn.send(("begin", domain, recipe, summary, keep, not_elements, chunk_part))
            except (OSError, ValueError):
                raise RuntimeError(f"sweep worker {i} stopped (exit code "
                                   f"{self._procs[i].exitcode})") from None
        for i, conn in enumerate(self._conns):
            reply = self._recv(i, START_TIMEOUT_S)
            if reply[0] != "ready":
                self.end()
                raise rebuild_error(*reply[1])
        self.timings = {}
        self._busy.clear()
        self.depth = 1 if keep else 2

    def free(self) -> list[int]:
        """Workers that can take a chunk now, the least busy first."""
        held = {i: len(self._busy.get(i, ())) for i in range(self.n)}
        return sorted((i for i in range(self.n) if held[i] < self.depth), key=held.__getitem__)

    def submit(self, worker: int, k0: int, k1: int, snapshot: Any, step: int | None = None
               ) -> None:
        """Start chunk ``k0..k1`` on ``worker`` (``snapshot``: :meth:`Summary.snapshot`;
        ``step``: k0..k1 is a span of chunks of that size, see :func:`.chunk.compute_chunk`)."""
        self._busy.setdefault(worker, []).append(k0)
        try:
            self._conns[worker].send(("chunk", k0, k1, step, snapshot))
        except (OSError, ValueError):  # the worker is gone: next_done() says so
            self._lost.append(worker)

    @property
    def in_flight(self) -> int:
        return sum(len(ks) for ks in self._busy.values())

    @property
    def alive(self) -> bool:
        """Every worker still running (a pool with a dead worker is closed and replaced)."""
        return not self._closed and all(p.is_alive() for p in self._procs)

    def stop(self) -> None:
        """Ask every busy worker to stop: each answers its current span (after the chunk it
        is in) and the chunks already sent to it with :class:`ChunkStopped`."""
        for i in list(self._busy):
            try:
                self._conns[i].send(("stop",))
            except (OSError, ValueError):  # the worker is gone: next_done() says so
                pass

    def next_done(self, timeout: float | None = None
                  ) -> ChunkDone | ChunkFailed | ChunkStopped | None:
        """Wait for any busy worker's chunk (None: none within ``timeout`` seconds)."""
        if self._lost:
            i = self._lost.pop()
            return ChunkFailed(self._pop(i, last=True), RuntimeError(
                f"sweep worker {i} stopped (exit code {self._procs[i].exitcode})"))
        busy: dict[Any, int] = {self._conns[i]: i for i in self._busy}
        ready = wait(list(busy), timeout)
        if not ready:
            return None
        i = busy[ready[0]]
        k0 = self._pop(i)  # a worker answers its chunks in the order they were sent
        try:
            msg = self._conns[i].recv()
        except (EOFError, OSError):
            return ChunkFailed(k0, RuntimeError(
                f"sweep worker {i} stopped (exit code {self._procs[i].exitcode})"))
        if msg[0] == "stopped":
            return ChunkStopped(k0)
        if msg[0] == "failed":
            return ChunkFailed(k0, rebuild_error(*msg[2]))
        _, k0, k1, prepared, timings, manifest, part = msg
        prepared = [Summary.unpacked(p) for p in prepared]  # (worker._chunk packed them)
        for key, v in timings.items():
            self.timings[key] = self.timings.get(key, 0.0) + v
        columns, fired = self._columns(i, manifest) if manifest else ({}, {})
        return ChunkDone(k0, k1, prepared, timings, columns, fired, part)

    def _pop(self, worker: int, last: bool = False) -> int:
        """k0 of the worker's oldest chunk (``last``: of the one sent last), now not held."""
        held = self._busy[worker]
        k0 = held.pop(-1 if last else 0)
        if not held:
            del self._busy[worker]
        return k0

    def _columns(self, worker: int, manifest: tuple[str, list]
                 ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Views of the columns a worker left in its shared block (valid until its next
        chunk: the caller copies them at once)."""
        from multiprocessing import shared_memory

        name, entries = manifest
        block = self._blocks.get(worker)
        if block is None or block.name != name.lstrip("/"):
            if block is not None:
                block.close()
            block = self._blocks[worker] = shared_memory.SharedMemory(name=name)
        columns: dict[str, np.ndarray] = {}
        fired: dict[str, np.ndarray] = {}
        buf: Any = block.buf
        for kind, key, dtype, count, offset in entries:
            view = np.frombuffer(buf, dtype, count, offset)
            (fired if kind == "fired" else columns)[key] = view
        return columns, fired

    def end(self) -> dict[str, float]:
        """Finish the sweep: workers drop their stages; their stages' timings, summed (also
        kept as :attr:`stage_timings`)."""
        stage_timings: dict[str, float] = {}
        for i, conn in enumerate(self._conns):
            while i in self._busy:  # (a chunk still running: wait for it, drop it)
                self.next_done()
            try:
                conn.send(("end",))
                reply = self._recv(i, START_TIMEOUT_S)
            except (OSError, EOFError, RuntimeError):
                continue
            if reply[0] == "ended":
                for key, v in reply[1].items():
                    stage_timings[key] = stage_timings.get(key, 0.0) + v
        self.stage_timings = stage_timings
        return stage_timings

    def _recv(self, i: int, timeout: float) -> Any:
        conn = self._conns[i]
        try:
            if not conn.poll(timeout):
                raise RuntimeError(f"sweep worker {i} did not answer within {timeout:g} s")
            return conn.recv()
        except (EOFError, OSError):
            raise RuntimeError(f"sweep worker {i} stopped (exit code "
                               f"{self._procs[i].exitcode})") from None

    def close(self) -> None:
        """Stop the workers and release the shared blocks."""
        if self._closed:
            return
        self._closed = True
        for conn in self._conns:
            try:
                conn.send(("quit",))
            except (OSError, ValueError):
                pass
        for proc in self._procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
        for conn in self._conns:
            conn.close()
        for block in self._blocks.values():
            block.close()
        self._blocks.clear()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_chunks(pool: WorkerPool, domain: Any, recipes: list[Any], res: Any, keep: bool,
               start: int, chunk_size: int, cancelled: Callable[[], bool],
               fold: Callable[..., None], failed: list[Exception],
               not_elements: frozenset[str],
               chunk_part: Callable[..., Any] | None = None, spans: Spans | None = None
               ) -> None:
    """A sweep (the runner's ``res``, from element ``start``) on the pool: chunks to free
    workers in order, columns copied into ``res`` as they arrive, summary parts handed to
    ``fold`` in order; stops handing out chunks on ``cancelled()`` or a failure (appended
    to ``failed``; the chunks in flight finish first, and those before it are folded); on
    ``cancelled()`` the workers are also told to stop (:meth:`WorkerPool.stop`), so the
    spans in flight end at their current chunk and are not folded.
    ``spans``: how many elements a worker takes at once (:class:`.chunk.Spans`; None: one
    chunk); the worker folds their chunks' summary parts into one
    (:meth:`Summary.fold_parts`)."""
    summary, total = res.summary, res.domain.size
    try:
        pool.begin(domain, recipes, (summary.fmt, summary.result_format, summary.top_k,
                                     summary.first_n), keep, not_elements, chunk_part)
    finally:  # the workers hold their own copies of any GPU connection now
        for r in recipes:
            getattr(r, "detach", lambda: None)()
    if spans is None:
        spans = Spans(chunk_size, 1, False, pool.n)
    done: dict[int, ChunkDone] = {}
    next_k, next_fold, stop_at = start, start, total
    stop_sent = False
    try:
        while True:
            while (next_k < total and pool.free() and not failed
                   and not cancelled()):
                k1 = min(next_k + spans.next(total - next_k), total)
                pool.submit(pool.free()[0], next_k, k1, summary.snapshot(),
                            chunk_size if k1 - next_k > chunk_size else None)
                next_k = k1
            if not pool.in_flight:
                break
            if not stop_sent and cancelled():
                pool.stop()
                stop_sent = True
            item = pool.next_done(None if stop_sent else CANCEL_POLL_S)
            if item is None:
                continue
            if isinstance(item, ChunkStopped):
                stop_at = min(stop_at, item.k0)
                continue
            if isinstance(item, ChunkFailed):
                failed.append(item.error)
                stop_at = min(stop_at, item.k0)
                continue
            if keep:
                _copy_columns(res, item)
            spans.timed(item.k1 - item.k0, sum(item.timings.values()))
            done[item.k0] = item
            while next_fold in done and next_fold < stop_at:  # (the chunks before a failure)
                chunk = done.pop(next_fold)
                fold(chunk.k0, (), {}, chunk.prepared, chunk.k1 - chunk.k0, chunk.part)
                next_fold = chunk.k1
    finally:
        pool.end()
    for key, v in pool.timings.items():
        res.timings[key] = res.timings.get(key, 0.0) + v


def _copy_columns(res: Any, item: ChunkDone) -> None:
    """A worker's chunk columns into the result's (at their place: any order)."""
    total = res.domain.size
    for store, arrays in ((res.columns, item.columns), (res.fired, item.fired)):
        for name, a in arrays.items():
            dst = store.get(name)
            if dst is None:
                dst = store[name] = np.zeros(total, dtype=a.dtype)
            dst[item.k0:item.k1] = a
