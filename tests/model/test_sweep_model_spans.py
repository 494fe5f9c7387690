"""Summary-only sweeps on worker processes without a GPU hand each worker spans of chunks
(model.sweep.chunk.MODEL_SPAN at first, then sized by the measured throughput: chunk.Spans)
and get one folded summary part back per span, so the parent merges a message per span,
not per chunk; the result is the same as chunk by chunk in threads (F32-PREC,
F32-SQRT-RCP, F16-PREC summaries: histograms, worst inputs, counts, first non-conformant
inputs). Oracle: the same sweep in stage threads, and a span's parts folded at its end."""

from __future__ import annotations

import json

import pytest

from fpinspector.model.sweep import Axis, GridDomain, ModelStage, UnaryDomain, run_sweep
from fpinspector.model.sweep.chunk import (
    FOLD_EVERY,
    MODEL_SPAN,
    SPAN_SECONDS,
    Spans,
    compute_chunk,
    span_chunks,
)
from fpinspector.model.sweep.processes import WorkerPool
from fpinspector.model.sweep.summary import Summary

CHUNK = 1 << 12


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(2) as p:
        yield p


@pytest.mark.parametrize("op, fmt, dom", [
    ("sqrt", "f32", UnaryDomain(Axis.bit_range("f32", 0x007F0000, 0x007F0000 + 64 * CHUNK - 1))),
    ("mul", "f16", GridDomain(Axis.bit_range("f16", 0x3B00, 0x3CFF), Axis.bit_range("f16", 0, 0x7FF))),
])
def test_spans_fold_to_the_chunk_by_chunk_result(pool, op, fmt, dom):
    steps: list[int] = []
    spans = run_sweep(dom, ModelStage(op, fmt), result_format=fmt, chunk_size=CHUNK,
                      keep_elements=False, workers=2, processes=True, pool=pool, top_k=7,
                      first_n=13, progress=lambda done, total: steps.append(done))
    chunks = run_sweep(dom, ModelStage(op, fmt), result_format=fmt, chunk_size=CHUNK,
                       keep_elements=False, workers=2, processes=False, top_k=7, first_n=13)
    assert json.dumps(spans.summary.to_dict(), default=repr) == json.dumps(
        chunks.summary.to_dict(), default=repr)
    assert spans.complete and spans.n_done == dom.size
    per_worker = -(-dom.size // (CHUNK * 2))
    span = span_chunks(ModelStage(op, fmt), False, None, CHUNK, per_worker) * CHUNK
    assert span == min(MODEL_SPAN, per_worker // 4 * CHUNK) > CHUNK
    assert steps[0] == span and steps[-1] == dom.size  # the first span, untimed
    sizes = [b - a for a, b in zip([0] + steps, steps)]
    assert all(n % CHUNK == 0 for n in sizes)
    assert len(steps) < dom.size // CHUNK  # one fold per span, not per chunk
    # no span after the first is larger than the first spans (the first size is also the
    # floor of the shrinking at the end, and this sweep's quarter of a worker's share)
    assert max(sizes) == span


def test_spans_only_where_nobody_wants_each_chunk():
    stage = ModelStage("sqrt", "f32")
    assert span_chunks(stage, False, None, CHUNK, 10**6) == MODEL_SPAN // CHUNK
    assert span_chunks(stage, True, None, CHUNK, 10**6) == 1  # kept columns
    assert span_chunks(stage, False, lambda *a: None, CHUNK, 10**6) == 1  # chunk_part
    assert span_chunks(stage, False, None, CHUNK, 10**6, per_chunk_calls=True) == 1
    assert span_chunks(stage, False, None, CHUNK, 3) == 1  # too few chunks to share out


def test_spans_grow_to_the_seconds_measured_and_shrink_at_the_end():
    """A model span is SPAN_SECONDS of a worker's time once spans were timed, at most a
    quarter of each worker's share of what is left but not below the first spans' size, a
    whole number of chunks; a GPU span or a sweep of single chunks keeps its size."""
    chunk = 1 << 17
    spans = Spans(chunk, 8, True, 16)
    assert spans.next(1 << 32) == 8 * chunk  # untimed: the first spans
    spans.timed(8 * chunk, 8 * chunk / 60e6)  # 60 M elements a second
    assert spans.next(1 << 32) == int(60e6 * SPAN_SECONDS) // chunk * chunk
    assert spans.next(1 << 29) == (1 << 29) // 64
    assert spans.next(1 << 24) == spans.next(5 * chunk) == 8 * chunk
    slow = Spans(chunk, 8, True, 16)
    slow.timed(8 * chunk, 16.0)  # 65 k elements a second: a second is 64 k
    assert slow.next(1 << 32) == slow.next(chunk) == chunk
    fixed = Spans(chunk, 4, False, 16)
    fixed.timed(4 * chunk, 1e-3)
    assert fixed.next(1 << 32) == fixed.next(chunk) == 4 * chunk
    assert Spans.for_stage(ModelStage("sqrt", "f32"), chunk, 8, 16).grows
    assert not Spans.for_stage(ModelStage("sqrt", "f32"), chunk, 1, 16).grows


def test_a_whole_sweep_sends_hundreds_of_messages_not_thousands():
    """The README's f32 sqrt sweep (2^32 patterns, chunks of 2^17) on 16 workers at 60 M
    elements a second each, handed out as run_chunks does (each span timed when done, a
    worker holding two): fewer than 500 spans, where fixed spans of MODEL_SPAN were 4096."""
    total, chunk, workers = 1 << 32, 1 << 17, 16
    spans = Spans(chunk, MODEL_SPAN // chunk, True, workers)
    handed, sizes = 0, []
    while handed < total:
        n = min(spans.next(total - handed), total - handed)
        sizes.append(n)
        handed += n
        if len(sizes) > 2 * workers:  # (the span handed two rounds ago is done by now)
            done = sizes[-2 * workers - 1]
            spans.timed(done, done / 60e6)
    assert len(sizes) < 500 < total // MODEL_SPAN
    assert max(sizes) == int(60e6 * SPAN_SECONDS) // chunk * chunk
    assert min(sizes[:-1]) == MODEL_SPAN


def test_a_long_span_folds_its_parts_as_it_goes_F32_SQRT_RCP():
    """A span of 2 FOLD_EVERY + 4 chunks holds at most FOLD_EVERY parts at once and gives
    the summary of its parts folded at the end (and of the chunks added one by one)."""
    step, chunks = 1 << 8, 2 * FOLD_EVERY + 4
    dom = UnaryDomain(Axis.bit_range("f32", 0x3F000000, 0x3F000000 + chunks * step - 1))
    stage = ModelStage("sqrt", "f32")
    summaries = []
    for fold in (None, "fold"):
        s = Summary("f32", "f32", top_k=5, first_n=3)
        held: list[int] = []

        def folder(parts, s=s, held=held):
            held.append(len(parts))
            return s.fold_parts(parts)

        _, _, parts, _, _ = compute_chunk(dom, stage, 0, dom.size,
                                          lambda k, ops, out, s=s: s.prepare(k, ops, out),
                                          None, step=step, fold=folder if fold else None)
        assert len(parts) == (chunks if fold is None else chunks - 2 * (FOLD_EVERY - 1))
        assert len(held) == (0 if fold is None else 2)
        assert all(n == FOLD_EVERY for n in held)
        s.add(0, (), {}, prepared=s.fold_parts(parts))
        summaries.append(json.dumps(s.to_dict(), default=repr))
    assert summaries[0] == summaries[1]
