"""One chunk of a sweep, the same wherever it runs (a stage thread or a worker process): its
operands, the stage's outputs, the summary's parts of it and the caller's own reduction,
with the seconds each step took.

A worker can also take a *span* of several chunks at once (:func:`gpu_span_chunks`): the
GPU computes the whole span in one request while the model and the summary still go
through it chunk by chunk, so their memory stays that of one chunk and the summary parts
are those of the same chunks. Why: each GPU request costs a fixed round trip and dispatch
(on Mesa's llvmpipe, which shares the CPU cores, about as much as computing 2^17
elements); a span of 2^19 elements pays it 4-8 times less often. :class:`GpuAhead` then starts
the GPU on the worker's next span as soon as the GPU is free, so it computes span i+1 while
the model works on span i.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

__all__ = ["compute_chunk", "default_chunk", "gpu_span_chunks", "span_chunks", "GpuAhead",
           "Spans", "Stopped", "GPU_SPAN", "MODEL_SPAN", "SPAN_SECONDS"]

Reduce = Callable[[int, tuple[np.ndarray, ...], Mapping[str, Any]], Any]

#: Elements per GPU request in a summary-only sweep on worker processes (whole chunks).
#: 2^32 f32 sqrt with llvmpipe on 2 cores, one request per chunk of 2^17: 58 s, 255 MiB;
#: spans of 2^19: 38.7 s and 273 MiB with chunks of 2^17, 41.1 s and 244 MiB with chunks
#: of 2^16 (benchmarks/bench_sweep_unary.py --full; the sweep command's default chunk
#: with a GPU is 2^16).
GPU_SPAN = 1 << 19
#: Elements of a worker's first spans in a summary-only sweep without a GPU (whole chunks,
#: one at a time: a chunk's memory), folded into one summary part before it is sent. Why:
#: the parent merges one message per span, not per chunk; with a message per chunk of 2^17
#: the parent's merging grew with the sweep (0.72 CPU s per 2^28 f32 sqrt elements) and
#: bounded what more cores could gain. Once spans have been timed, :class:`Spans` sizes
#: them by :data:`SPAN_SECONDS` instead.
MODEL_SPAN = 1 << 20
#: Seconds of a worker's time a span of the model is sized to, from the sweep's measured
#: throughput. Why seconds, not elements: the parent's cost is per message, so the message
#: rate is what must stay low whatever the op costs an element (2^20 elements are 16 ms of
#: f32 sqrt and over a second of an op whose exact value needs mpmath): one message per
#: worker per second. A cancel or a Ctrl-C does not wait for the span: the parent tells the
#: workers to stop, and they do at their current chunk (``processes.WorkerPool.stop``).
SPAN_SECONDS = 1.0
#: A span's chunk parts a worker holds before folding them into one (:func:`compute_chunk`'s
#: ``fold``): a long span's parts would otherwise all be held until its end. A part is
#: small (about 1.5 KiB packed for f32 sqrt), and each fold starts an empty summary and adds
#: the previous fold's part again, so folds are rare: every 64 parts.
FOLD_EVERY = 64


def default_chunk(gpu_spans: bool) -> int:
    """The sweep command's chunk size: 2^17, and 2^16 where the workers hand the GPU spans
    (:func:`gpu_span_chunks`): the span's request, sent ahead, adds to a worker's memory,
    and the smaller chunk keeps a 2^32 sweep under 256 MiB (figures at :data:`GPU_SPAN`).

    Why not 2^16 under the model's spans too: a chunk has a fixed cost (about 0.55 ms of
    Python and numpy calls), and on the f16 mul sweep 2^16 costs the worker loop 44 ns an
    input against 30 with 2^17 (``benchmarks/bench_sweep_per_core.py --chunk``, 2-core
    machine, quiet); with 2^17 the 2-worker f16 mul sweep peaks at 101 MiB, under the
    109 it had before spans (docs/sweeps.md, "Chunk size" and "Memory")."""
    return 1 << 16 if gpu_spans else 1 << 17


def _spans_ahead(stage: Any) -> bool:
    """A stage whose GPU takes requests ahead, so a span can have one (ModelStage)."""
    return bool(getattr(stage, "gpu_ahead", False))


def span_chunks(stage: Any, keep: bool, chunk_part: Any, chunk_size: int,
                chunks_per_worker: int, per_chunk_calls: bool = False) -> int:
    """How many chunks of ``chunk_size`` a worker takes at once: a GPU stage's
    :func:`gpu_span_chunks`; else those of a :data:`MODEL_SPAN`, at most a quarter of a
    worker's share of the chunks (the last spans still balance over the workers), and 1
    where the caller wants each chunk (``keep``: per-element results; ``chunk_part``: a
    per-chunk reduction; ``per_chunk_calls``: a callback per chunk)."""
    if _spans_ahead(stage):
        return gpu_span_chunks(stage, keep, chunk_part, chunk_size)
    if keep or chunk_part is not None or per_chunk_calls:
        return 1
    return max(1, min(MODEL_SPAN // max(1, chunk_size), chunks_per_worker // 4))


class Spans:
    """The size of each span the parent hands a worker: ``first_chunks`` chunks while nothing
    has been timed, then (``grows``: a model span, see :func:`span_chunks`) the elements of
    :data:`SPAN_SECONDS` of a worker's time at the throughput measured so far; a growing
    span is also at most a quarter of each worker's share of what is left (but not below
    the first spans' size), so the last spans shrink and the workers finish together
    (guided scheduling).

    Why: with spans of a fixed 2^20 elements an exhaustive f32 sqrt sweep sent 4096
    messages, and on 16 cores the parent's 3.7 CPU seconds of merging and handing out
    bounded the sweep (6.2 s wall; docs/sweeps.md)."""

    def __init__(self, chunk: int, first_chunks: int, grows: bool, workers: int) -> None:
        self.chunk, self.grows, self.workers = chunk, grows, max(1, workers)
        self.first = chunk * max(1, first_chunks)
        self._elements = 0
        self._seconds = 0.0

    @classmethod
    def for_stage(cls, stage: Any, chunk: int, first_chunks: int, workers: int) -> Spans:
        """Spans that grow where :func:`span_chunks` gave model spans (several chunks, no GPU
        spans: a GPU request's memory is that of its span)."""
        return cls(chunk, first_chunks, first_chunks > 1 and not _spans_ahead(stage), workers)

    def timed(self, elements: int, seconds: float) -> None:
        """A finished span's elements and the seconds its worker spent on them."""
        self._elements += elements
        self._seconds += seconds

    def next(self, remaining: int) -> int:
        """Elements of the next span, with ``remaining`` elements not yet handed out (a
        multiple of the chunk, at least one chunk; the caller cuts it at the end)."""
        if not self.grows:
            return self.first
        size = self.first
        if self._seconds > 0.0:
            size = int(self._elements / self._seconds * SPAN_SECONDS)
        size = max(min(size, self.first), min(size, remaining // (4 * self.workers)))
        return max(self.chunk, size // self.chunk * self.chunk)


def gpu_span_chunks(stage: Any, keep: bool, chunk_part: Any, chunk_size: int) -> int:
    """How many chunks of ``chunk_size`` a worker takes at once: those of a
    :data:`GPU_SPAN` for a stage with a GPU that takes requests ahead (``gpu_ahead``,
    ``start_gpu``), else 1. Only without per-element results (``keep``) or a caller's
    per-chunk reduction (``chunk_part``): both are made of whole stage outputs, which a
    span never holds at once."""
    if keep or chunk_part is not None or not _spans_ahead(stage):
        return 1
    return max(1, GPU_SPAN // max(1, chunk_size))


class GpuAhead:
    """A worker's GPU request for its next span, started while it computes the current one.

    ``peek()`` gives the next span (k0, k1) the worker already holds, or None. The request
    is started only once the GPU connection is free (it takes one request at a time),
    i.e. right after the current span's GPU result came back. A request that cannot start
    is left to the span itself, which then starts it and meets the error where it belongs.
    """

    def __init__(self, peek: Callable[[], tuple[int, int] | None]) -> None:
        self._peek = peek
        self._next: tuple[int, int, Any] | None = None

    def take(self, k0: int, k1: int) -> Any:
        """The pending GPU result of span k0..k1 when it was started ahead, else None."""
        nxt, self._next = self._next, None
        if nxt is not None and (nxt[0], nxt[1]) == (k0, k1):
            return nxt[2]
        if nxt is not None:
            _drain(nxt[2])
        return None

    def start_next(self, domain: Any, stage: Any) -> None:
        span = self._peek()
        if span is None or self._next is not None:
            return
        try:
            pending = stage.start_gpu(domain.operands(*span))
        except Exception:  # noqa: BLE001 - the span starts it again and reports the error
            return
        self._next = (span[0], span[1], pending)

    def drain(self) -> None:
        """Wait out a request started ahead (before the connection closes): its answer is
        then not sent to a closed pipe."""
        nxt, self._next = self._next, None
        if nxt is not None:
            _drain(nxt[2])


def _drain(pending: Any) -> None:
    try:
        pending.result()
    except Exception:  # noqa: BLE001 - nobody asked for this result any more
        pass


class Stopped(Exception):
    """A span left unfinished because its sweep was stopped (:func:`compute_chunk`'s
    ``stop``)."""


def compute_chunk(domain: Any, stage: Callable[..., Mapping[str, Any]], k0: int, k1: int,
                  prepare: Reduce | None, chunk_part: Reduce | None, step: int | None = None,
                  ahead: GpuAhead | None = None,
                  fold: Callable[[list[Any]], Any] | None = None,
                  stop: Callable[[], bool] | None = None
                  ) -> tuple[tuple[np.ndarray, ...], Mapping[str, Any], list[Any], Any,
                             dict[str, float]]:
    """(operands, outputs, [``prepare(k, operands, outputs)``, ...], ``chunk_part(...)``,
    timings); a step given as None is skipped (no parts, None in its place). Exceptions
    propagate.

    ``step``: k0..k1 is a span of chunks of ``step`` elements (:func:`span_chunks`): the
    stage and ``prepare`` chunk by chunk (one part each, in order; with a GPU, one GPU
    request for the whole span); the operands and outputs returned are then empty and
    ``chunk_part`` must be None.
    ``ahead``: the worker's :class:`GpuAhead`, for spans. ``fold``: folds a span's parts
    into one (:meth:`.summary.Summary.fold_parts`), applied every :data:`FOLD_EVERY` parts
    so that a long span holds few. ``stop``: asked before each of a model span's chunks
    after the first; True raises :class:`Stopped` (a GPU span, whose request is already
    out, runs to its end)."""
    if step is None or k1 - k0 <= step:
        t0 = time.perf_counter()
        ops = domain.operands(k0, k1)
        t1 = time.perf_counter()
        out = stage(ops)
        t2 = time.perf_counter()
        prepared = [prepare(k0, ops, out)] if prepare is not None else []
        t3 = time.perf_counter()
        part = chunk_part(k0, ops, out) if chunk_part is not None else None
        return ops, out, prepared, part, {"domain": t1 - t0, "stage": t2 - t1,
                                          "summary_prepare": t3 - t2}
    assert chunk_part is None, "a span's chunk outputs are not kept for chunk_part"
    return _compute_span(domain, stage, k0, k1, prepare, step, ahead, fold, stop)


def _compute_span(domain: Any, stage: Any, k0: int, k1: int, prepare: Reduce | None,
                  step: int, ahead: GpuAhead | None, fold: Callable[[list[Any]], Any] | None,
                  stop: Callable[[], bool] | None
                  ) -> tuple[tuple[np.ndarray, ...], Mapping[str, Any], list[Any], Any,
                             dict[str, float]]:
    gpu_bits = _span_gpu(domain, stage, k0, k1, ahead) if _spans_ahead(stage) else None
    took = {"domain": 0.0, "stage": 0.0, "summary_prepare": 0.0}
    prepared: list[Any] = []
    if gpu_bits is not None:
        stop = None
    for s in range(0, k1 - k0, step):
        if s and stop is not None and stop():
            raise Stopped
        sl = slice(s, min(k1 - k0, s + step))
        t0 = time.perf_counter()
        sub = domain.operands(k0 + sl.start, k0 + sl.stop)  # (one chunk's: memory of one)
        t1 = time.perf_counter()
        took["domain"] += t1 - t0
        out = stage(sub) if gpu_bits is None else stage(sub, gpu=lambda sl=sl: gpu_bits()[sl])
        t2 = time.perf_counter()
        if prepare is not None:
            prepared.append(prepare(k0 + s, sub, out))
            if fold is not None and len(prepared) >= FOLD_EVERY:
                prepared = [fold(prepared)]
        # the chunk's arrays go before the next one's are made: a worker's peak is then one
        # chunk's stage, not that plus the previous chunk's outputs (3 MiB at 2^17, f16 mul)
        del sub, out
        took["stage"] += t2 - t1
        took["summary_prepare"] += time.perf_counter() - t2
    return (), {}, prepared, None, took


def _span_gpu(domain: Any, stage: Any, k0: int, k1: int, ahead: GpuAhead | None
              ) -> Callable[[], np.ndarray]:
    """The span's GPU bits, fetched on first use (one request for the whole span)."""
    pending = ahead.take(k0, k1) if ahead is not None else None
    if pending is None:  # (the request holds its own copy of the span's operands)
        pending = stage.start_gpu(domain.operands(k0, k1))
    bits: list[np.ndarray] = []

    def gpu_bits() -> np.ndarray:
        if not bits:
            bits.append(np.asarray(pending.result()).reshape(-1))
            if ahead is not None:  # the connection is free: the next span's request goes now
                ahead.start_next(domain, stage)
        return bits[0]

    return gpu_bits
