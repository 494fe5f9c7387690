"""Streaming, chunked, cancellable sweep runner, generic over a "stage" callable.

A stage maps one chunk of operand patterns to named per-element arrays (``model``, ``gpu``,
``exact``, ``err_*``, ``ok_*``, and ``fired``: rule ID -> bool array). The runner walks
the domain in chunks, computes the next chunk in a worker thread while it folds the
current one into the :class:`~.summary.Summary` (and, for maps, into per-element columns),
reports progress, and stops between chunks when cancelled. A stage that can be rebuilt in
another process (:meth:`ModelStage.recipe`) runs in worker processes instead of threads
(:mod:`.processes`: every core busy; the chunks never leave their worker, only the
summary's part of each does). Nothing done is lost: a long run
hands its partial result to a ``checkpoint`` callback now and then, a saved partial result
can be resumed, and a stage that fails part-way raises :class:`SweepAborted` carrying what
was finished.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .chunk import Spans, compute_chunk, span_chunks
from .domain import Domain
from .processes import WorkerPool, run_chunks
from .stages import NOT_ELEMENTS
from .summary import Summary

__all__ = ["Stage", "SweepResult", "SweepAborted", "run_sweep", "DEFAULT_CHUNK", "KEEP_LIMIT",
           "PROCESS_MIN", "default_workers"]

#: Elements per chunk: big enough to amortise numpy/GL overhead, small enough for caches.
DEFAULT_CHUNK = 1 << 18
#: Domains up to this size keep per-element columns by default (1024 x 1024 maps and more).
KEEP_LIMIT = 1 << 22
#: Elements from which a sweep starts its own worker processes (about a second of work:
#: starting them costs about as much); a pool handed in is used from two chunks on.
PROCESS_MIN = 1 << 24


#: Stage threads at most: they share one GIL, so more only hold more chunks in memory.
THREADS_MAX = 4


def default_workers() -> int:
    """Parallel workers by default: one per CPU this process may run on.

    Not ``os.cpu_count()``: under ``taskset``, a container's CPU set or a job scheduler's
    affinity mask, the machine's count oversubscribes the CPUs the process really has.
    """
    process_cpu_count = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if process_cpu_count is not None:
        n = process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):  # Linux and some BSDs
        n = len(os.sched_getaffinity(0))
    else:  # Windows and macOS before 3.13: no affinity query in os
        n = os.cpu_count()
    return max(1, n or 1)

Stage = Callable[[tuple[np.ndarray, ...]], Mapping[str, Any]]
Cancel = threading.Event | Callable[[], bool] | None
Progress = Callable[[int, int], Any] | None


@dataclass
class SweepResult:
    """What a sweep produced.

    Attributes
    ----------
    domain : UnaryDomain or GridDomain
        The inputs swept.
    summary : Summary
        Histograms, worst inputs, counts (always present).
    columns : dict of str to ndarray
        Per-element outputs in domain order (empty when only summaries were kept).
    fired : dict of str to ndarray
        Per-element bool "rule fired" arrays (empty when only summaries were kept).
    complete : bool
        False when the sweep was cancelled; ``n_done`` elements were then processed.
    meta : dict
        op, format, rules, result format and anything the caller added.
    timings : dict
        Seconds spent per stage name (stage-reported) and ``"total"``.
    """

    domain: Domain
    summary: Summary
    columns: dict[str, np.ndarray] = field(default_factory=dict)
    fired: dict[str, np.ndarray] = field(default_factory=dict)
    complete: bool = False
    n_done: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)

    def grid(self, column: str) -> np.ndarray:
        """A column reshaped to the domain's shape (rows = operand A for grids)."""
        return self.columns[column].reshape(self.domain.shape)

    def operands_at(self, k: int) -> tuple[int, ...]:
        """Operand patterns of flat element ``k`` (what click-to-inspect loads)."""
        return tuple(int(o[0]) for o in self.domain.operands(k, k + 1))


class SweepAborted(RuntimeError):
    """The stage failed part-way; ``result`` holds every chunk finished before (complete
    False), so the caller can still save it. The stage's exception is ``__cause__``."""

    def __init__(self, result: SweepResult, error: BaseException) -> None:
        super().__init__(f"{error} (stopped after {result.n_done} of {result.domain.size} "
                         "elements)")
        self.result = result
        self.error = error


class _Failed:
    """A chunk whose stage raised (kept in order with the finished chunks)."""

    def __init__(self, error: Exception) -> None:
        self.error = error


def _cancelled(cancel: Cancel) -> bool:
    if cancel is None:
        return False
    if isinstance(cancel, threading.Event):
        return cancel.is_set()
    return bool(cancel())


def run_sweep(
    domain: Domain,
    stage: Stage,
    *,
    result_format: str,
    chunk_size: int = DEFAULT_CHUNK,
    keep_elements: bool | None = None,
    progress: Progress = None,
    cancel: Cancel = None,
    meta: Mapping[str, Any] | None = None,
    top_k: int = 10,
    first_n: int = 100,
    prefetch: bool = True,
    workers: int = 1,
    resume: SweepResult | None = None,
    checkpoint: Callable[[SweepResult], Any] | None = None,
    checkpoint_every: float = 30.0,
    processes: bool | None = None,
    pool: WorkerPool | None = None,
    on_chunk: Callable[[int, int, Mapping[str, np.ndarray]], Any] | None = None,
    chunk_part: Callable[[int, tuple[np.ndarray, ...], Mapping[str, Any]], Any] | None = None,
    on_part: Callable[[int, int, Any], Any] | None = None,
) -> SweepResult:
    """Run ``stage`` over every element of ``domain`` in chunks.

    Parameters
    ----------
    domain : UnaryDomain or GridDomain
        Inputs; element order is the domain's flat order.
    stage : callable
        ``stage(operands) -> mapping`` of per-element arrays (see module docstring).
    result_format : str
        Format of the ``model``/``gpu`` result patterns (for class counts).
    chunk_size : int
        Elements per chunk; memory is O(chunk_size) when ``keep_elements`` is False.
    keep_elements : bool, optional
        Keep per-element columns (needed for maps). Default: only when the domain has at
        most :data:`KEEP_LIMIT` elements.
    progress : callable, optional
        ``progress(done, total)`` after each chunk.
    cancel : threading.Event or callable, optional
        Checked before each chunk; when set the sweep stops (at most one chunk in
        flight finishes) and the result has ``complete=False``.
    prefetch : bool
        Compute chunk i+1 in a worker thread while chunk i is folded in.
    workers : int
        Chunks computed in parallel when prefetching (:func:`default_workers`: one per
        core), in worker processes where the stage has a ``recipe()`` (see ``processes``),
        else in stage threads (at most :data:`THREADS_MAX`). Results are folded in order
        either way.
    processes : bool, optional
        Worker processes (True), stage threads (False), or (None) processes when the
        stage can be rebuilt in one, ``workers`` > 1 and at least :data:`PROCESS_MIN`
        elements remain (two chunks with a ``pool``).
    pool : WorkerPool, optional
        Worker processes kept between sweeps (the app's); the sweep uses all of them.
    on_chunk : callable, optional
        ``on_chunk(k0, k1, columns)`` in element order as each chunk is folded in, with
        views of its kept columns (empty when only summaries are kept): a map can draw
        itself while the sweep runs.
    chunk_part, on_part : callable, optional
        A caller's own reduction of each chunk: ``chunk_part(k0, operands, outputs)`` runs
        where the stage ran (a stage thread or a worker process: it must pickle, e.g. a
        bound method of a small object) and ``on_part(k0, k1, part)`` receives its result
        here, in element order, whether or not columns are kept (the app's bounded map of
        all 2^32 f32 patterns is filled so, on every core).
    resume : SweepResult, optional
        A partial result of the same domain (e.g. reloaded with ``load_npz(...,
        require_complete=False)``): its summary and columns are continued from its
        ``n_done``; the final result equals an uninterrupted run's. Its ``top_k`` /
        ``first_n`` win over the arguments, and it decides whether columns are kept.
    checkpoint : callable, optional
        ``checkpoint(partial_result)`` between chunks, at most every ``checkpoint_every``
        seconds and never after the last chunk (e.g. to save the partial result).

    Returns
    -------
    SweepResult

    Raises
    ------
    SweepAborted
        When the stage raises: carries the partial result. When ``cancel`` is already set,
        a failing stage (e.g. a GPU process stopped by the same Ctrl-C) ends the sweep as
        cancelled instead.
    """
    if chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    res, keep, start = _start(domain, result_format, chunk_size, keep_elements, meta, top_k,
                              first_n, resume)
    folder = _Folder(res, keep, _Calls(progress, cancel, checkpoint, checkpoint_every,
                                       on_chunk, chunk_part, on_part))
    remaining = domain.size - start
    recipes = _recipes(stage, pool, processes, workers, prefetch, remaining, chunk_size)
    if recipes is not None:
        spans = span_chunks(stage, keep, chunk_part, chunk_size,
                            -(-remaining // (chunk_size * len(recipes))),
                            per_chunk_calls=on_chunk is not None)
        stage_timings = _in_processes(folder, recipes, pool, start, chunk_size,
                                      Spans.for_stage(stage, chunk_size, spans, len(recipes)))
        return _finish(res, stage, folder, stage_timings)
    if prefetch:
        _in_threads(folder, stage, start, chunk_size, max(1, min(int(workers), THREADS_MAX)))
    else:
        _in_order(folder, stage, start, chunk_size)
    return _finish(res, stage, folder, None)


def _start(domain: Domain, result_format: str, chunk_size: int, keep_elements: bool | None,
           meta: Mapping[str, Any] | None, top_k: int, first_n: int,
           resume: SweepResult | None) -> tuple[SweepResult, bool, int]:
    """(the result to fill, keep per-element columns, first element): a new sweep's, or
    the continuation of ``resume``."""
    keep = domain.size <= KEEP_LIMIT if keep_elements is None else keep_elements
    start = 0
    if resume is not None:
        keep, summary, start = _resumed(resume, domain, keep_elements, keep)
    else:
        summary = Summary(domain.axes[0].fmt.name, result_format, top_k=top_k, first_n=first_n)
    res = SweepResult(domain, summary, meta=dict(meta or {}))
    if resume is not None and keep:
        res.columns, res.fired = resume.columns, resume.fired
    res.n_done = start
    res.meta.setdefault("result_format", result_format)
    res.meta["domain"] = domain.describe()
    res.meta["shape"] = list(domain.shape)
    res.meta["chunk_size"] = chunk_size
    return res, keep, start


@dataclass
class _Calls:
    """What the caller asked to hear or be asked while a sweep runs (see :func:`run_sweep`)."""

    progress: Progress
    cancel: Cancel
    checkpoint: Callable[[SweepResult], Any] | None
    checkpoint_every: float
    on_chunk: Callable[[int, int, Mapping[str, np.ndarray]], Any] | None
    chunk_part: Callable[[int, tuple[np.ndarray, ...], Mapping[str, Any]], Any] | None
    on_part: Callable[[int, int, Any], Any] | None

    def cancelled(self) -> bool:
        return _cancelled(self.cancel)


class _Folder:
    """The sweep's in-order side, the same for every way of computing chunks: folds each
    finished chunk into the result (summary, kept columns), calls the caller back
    (``on_chunk``, ``on_part``, progress, checkpoints) and keeps the first stage error.

    Why one object: the three strategies (:func:`_in_processes`, :func:`_in_threads`,
    :func:`_in_order`) differ only in where chunks are computed; what happens to a
    finished chunk, in element order, must not differ between them."""

    def __init__(self, res: SweepResult, keep: bool, calls: _Calls) -> None:
        self.res, self.keep, self.calls = res, keep, calls
        self.timings = res.timings
        self.failed: list[Exception] = []
        self.t_start = time.perf_counter()
        self._last_checkpoint = self.t_start
        self._lock = threading.Lock()

    def compute(self, stage: Stage, k0: int, k1: int, prepare: bool) -> tuple | _Failed:
        """One chunk through the stage here (``prepare``: its summary part too, as a stage
        thread does), or the stage's error."""
        summary = self.res.summary
        try:
            ops, out, prep, part, took = compute_chunk(
                self.res.domain, stage, k0, k1, summary.prepare if prepare else None,
                self.calls.chunk_part)
        except Exception as exc:  # noqa: BLE001 - handed to the caller with the partial result
            return _Failed(exc)
        with self._lock:
            for key, v in took.items():
                self.timings[key] = self.timings.get(key, 0.0) + v
        return k0, ops, out, prep, None, part

    def take(self, item: tuple | _Failed) -> bool:
        """Fold a finished chunk; False (and the error kept) when its stage failed."""
        if isinstance(item, _Failed):
            self.failed.append(item.error)
            return False
        self.fold(*item)
        return True

    def fold(self, k0: int, ops: tuple[np.ndarray, ...], out: Mapping[str, Any],
             prep: list[dict[str, Any]], n: int | None = None, part: Any = None) -> None:
        """Fold elements k0..k0+n (``n``: ``len(ops[0])`` when None) in: ``prep`` holds the
        summary parts prepared beside the stage (none: prepared here)."""
        res, calls = self.res, self.calls
        t = time.perf_counter()
        n = len(ops[0]) if n is None else n
        if prep:
            for p in prep:
                res.summary.add(k0, ops, out, prepared=p)
        else:
            res.summary.add(k0, ops, out)
        if self.keep:
            self._keep_columns(k0, n, out)
        res.n_done = k0 + n
        self.timings["summary"] = self.timings.get("summary", 0.0) + time.perf_counter() - t
        if calls.on_chunk is not None:
            calls.on_chunk(k0, k0 + n,
                           {name: col[k0:k0 + n] for name, col in res.columns.items()})
        if calls.on_part is not None and calls.chunk_part is not None:
            calls.on_part(k0, k0 + n, part)
        if calls.progress is not None:
            calls.progress(res.n_done, res.domain.size)
        if calls.checkpoint is not None and res.n_done < res.domain.size and (
                time.perf_counter() - self._last_checkpoint >= calls.checkpoint_every):
            res.timings["total"] = time.perf_counter() - self.t_start
            calls.checkpoint(res)
            self._last_checkpoint = time.perf_counter()

    def _keep_columns(self, k0: int, n: int, out: Mapping[str, Any]) -> None:
        res, total = self.res, self.res.domain.size
        for name, arr in out.items():
            if name in NOT_ELEMENTS:
                continue
            if name == "fired":
                for rule, mask in arr.items():
                    dst = res.fired.get(rule)
                    if dst is None:
                        dst = res.fired[rule] = np.zeros(total, dtype=bool)
                    dst[k0 : k0 + n] = mask
                continue
            a = np.asarray(arr)
            dst = res.columns.get(name)
            if dst is None:
                dst = res.columns[name] = np.zeros(total, dtype=a.dtype)
            dst[k0 : k0 + n] = a


def _in_processes(folder: _Folder, recipes: list[Any], pool: WorkerPool | None, start: int,
                  chunk_size: int, spans: Spans) -> Mapping[str, float]:
    """Chunks (in ``spans``) in worker processes built from ``recipes``: the
    caller's ``pool``, else one started for this sweep. Returns the workers' stage
    timings."""
    own = pool is None
    workers_pool = pool if pool is not None else WorkerPool(len(recipes))
    try:
        run_chunks(workers_pool, folder.res.domain, recipes, folder.res, folder.keep, start,
                   chunk_size, folder.calls.cancelled, folder.fold, folder.failed,
                   NOT_ELEMENTS, folder.calls.chunk_part, spans=spans)
    finally:
        if own:
            workers_pool.close()
    return workers_pool.stage_timings


def _in_threads(folder: _Folder, stage: Stage, start: int, chunk_size: int, depth: int
                ) -> None:
    """Chunks computed ahead in ``depth`` stage threads (each also prepares its chunk's
    summary part), folded here in order."""
    total = folder.res.domain.size
    threads = ThreadPoolExecutor(depth, thread_name_prefix="sweep")
    try:
        pending: deque[Future] = deque()
        for k0 in range(start, total, chunk_size):
            if folder.calls.cancelled():
                break
            pending.append(threads.submit(folder.compute, stage, k0,
                                          min(k0 + chunk_size, total), True))
            if len(pending) > depth and not folder.take(pending.popleft().result()):
                break
        while pending and not folder.failed:
            folder.take(pending.popleft().result())
    finally:
        threads.shutdown(wait=True, cancel_futures=True)


def _in_order(folder: _Folder, stage: Stage, start: int, chunk_size: int) -> None:
    """Chunks computed and folded one at a time, here (``prefetch=False``)."""
    total = folder.res.domain.size
    for k0 in range(start, total, chunk_size):
        if folder.calls.cancelled():
            break
        if not folder.take(folder.compute(stage, k0, min(k0 + chunk_size, total), False)):
            break


def _finish(res: SweepResult, stage: Stage, folder: _Folder,
            stage_timings: Mapping[str, float] | None) -> SweepResult:
    res.complete = res.n_done == res.domain.size
    res.timings["total"] = time.perf_counter() - folder.t_start
    if stage_timings is None:
        stage_timings = getattr(stage, "timings", None)
    if stage_timings:
        res.timings.update({f"stage.{k}": v for k, v in stage_timings.items()})
    failed = folder.failed
    if failed and not folder.calls.cancelled():
        raise SweepAborted(res, failed[0]) from failed[0]
    return res


def _recipes(stage: Stage, pool: WorkerPool | None, processes: bool | None, workers: int,
             prefetch: bool, remaining: int, chunk_size: int) -> list[Any] | None:
    """One stage recipe per worker process, or None: threads (see ``processes``)."""
    recipe = getattr(stage, "recipe", None)
    if processes is False or recipe is None or not prefetch:
        return None
    n = pool.n if pool is not None else max(1, int(workers))
    if processes is None and (n < 2 or remaining < (2 * chunk_size if pool is not None
                                                    else PROCESS_MIN)):
        return None
    recipes = [recipe() for _ in range(n)]
    if any(r is None for r in recipes):  # (e.g. a GPU that lives in this process)
        for r in recipes:
            getattr(r, "close", lambda: None)()
        return None
    return recipes


def _resumed(resume: SweepResult, domain: Domain, keep_elements: bool | None,
             default_keep: bool) -> tuple[bool, Summary, int]:
    """(keep columns, the summary to continue, first element) of a resumed sweep."""
    if resume.domain.describe() != domain.describe() or resume.domain.shape != domain.shape:
        raise ValueError(f"cannot resume: the saved sweep covers {resume.domain.describe()}, "
                         f"not {domain.describe()}")
    if not 0 <= resume.n_done <= domain.size or resume.summary.total != resume.n_done:
        raise ValueError("cannot resume: the saved sweep's counts are inconsistent")
    keep = bool(resume.columns) or bool(resume.fired)
    if keep_elements is not None and keep_elements != keep and resume.n_done:
        raise ValueError("cannot resume: the saved sweep "
                         + ("kept per-element columns" if keep else "kept only summaries")
                         + "; resume it the same way")
    if keep and any(len(a) != domain.size for a in (*resume.columns.values(),
                                                     *resume.fired.values())):
        raise ValueError("cannot resume: the saved columns do not cover the domain")
    return (default_keep if resume.n_done == 0 else keep), resume.summary, resume.n_done
