"""Streaming, chunked, cancellable sweep runner, generic over a "stage" callable.

A stage maps one chunk of operand patterns to named per-element arrays (``model``, ``gpu``,
``exact``, ``err_*``, ``ok_*``, and ``fired``: rule ID -> bool array). The runner walks
the domain in chunks, computes the next chunk in a worker thread while it folds the
current one into the :class:`~.summary.Summary` (and, for maps, into per-element columns),
reports progress, and stops between chunks when cancelled.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from .domain import Domain
from .summary import Summary

__all__ = ["Stage", "SweepResult", "run_sweep", "DEFAULT_CHUNK", "KEEP_LIMIT"]

#: Elements per chunk: big enough to amortise numpy/GL overhead, small enough for caches.
DEFAULT_CHUNK = 1 << 18
#: Domains up to this size keep per-element columns by default (1024 x 1024 maps and more).
KEEP_LIMIT = 1 << 22
#: Stage outputs that are not per-element columns (indices into the chunk).
NOT_ELEMENTS = frozenset({"gpu_diff", "gpu_patched"})

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
        Stage threads (chunks in flight) when prefetching; numpy releases the GIL in its
        loops, so 2 uses both cores of a 2-core machine. Results are folded in order.

    Returns
    -------
    SweepResult
    """
    if chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    total = domain.size
    keep = total <= KEEP_LIMIT if keep_elements is None else keep_elements
    summary = Summary(domain.axes[0].fmt.name, result_format, top_k=top_k, first_n=first_n)
    res = SweepResult(domain, summary, meta=dict(meta or {}))
    res.meta.setdefault("result_format", result_format)
    res.meta["domain"] = domain.describe()
    res.meta["shape"] = list(domain.shape)
    res.meta["chunk_size"] = chunk_size
    timings = res.timings
    t_start = time.perf_counter()

    lock = threading.Lock()

    def compute(k0: int, k1: int) -> tuple[int, tuple[np.ndarray, ...], Mapping[str, Any]]:
        t = time.perf_counter()
        ops = domain.operands(k0, k1)
        t1 = time.perf_counter()
        out = stage(ops)
        t2 = time.perf_counter()
        # the chunk's histograms, counts and top-k candidates, in this (stage) thread
        prep = summary.prepare(k0, ops, out) if pool is not None else None
        t3 = time.perf_counter()
        with lock:
            timings["domain"] = timings.get("domain", 0.0) + t1 - t
            timings["stage"] = timings.get("stage", 0.0) + t2 - t1
            timings["summary_prepare"] = timings.get("summary_prepare", 0.0) + t3 - t2
        return k0, ops, out, prep

    def fold(k0: int, ops: tuple[np.ndarray, ...], out: Mapping[str, Any],
             prep: dict[str, Any] | None) -> None:
        t = time.perf_counter()
        n = len(ops[0])
        summary.add(k0, ops, out, prepared=prep)
        if keep:
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
        res.n_done = k0 + n
        timings["summary"] = timings.get("summary", 0.0) + time.perf_counter() - t
        if progress is not None:
            progress(res.n_done, total)

    starts = range(0, total, chunk_size)
    depth = max(1, int(workers))
    pool: ThreadPoolExecutor | None = None
    if prefetch:
        pool = ThreadPoolExecutor(depth, thread_name_prefix="sweep")
    try:
        pending: deque[Future] = deque()
        for k0 in starts:
            if _cancelled(cancel):
                break
            k1 = min(k0 + chunk_size, total)
            if pool is None:
                fold(*compute(k0, k1))
                continue
            pending.append(pool.submit(compute, k0, k1))
            if len(pending) > depth:
                fold(*pending.popleft().result())
        while pending:
            fold(*pending.popleft().result())
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    res.complete = res.n_done == total
    timings["total"] = time.perf_counter() - t_start
    if getattr(stage, "timings", None):
        timings.update({f"stage.{k}": v for k, v in stage.timings.items()})
    return res
