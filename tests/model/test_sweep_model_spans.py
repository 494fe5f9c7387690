"""Summary-only sweeps on worker processes without a GPU hand each worker spans of chunks
(model.sweep.chunk.MODEL_SPAN) and get one folded summary part back per span, so the parent
merges a message per span, not per chunk; the result is the same as chunk by chunk in
threads (F32-PREC, F32-SQRT-RCP, F16-PREC summaries: histograms, worst inputs, counts,
first non-conformant inputs). Oracle: the same sweep in stage threads."""

from __future__ import annotations

import json

import pytest

from fpinspector.model.sweep import Axis, GridDomain, ModelStage, UnaryDomain, run_sweep
from fpinspector.model.sweep.chunk import MODEL_SPAN, span_chunks
from fpinspector.model.sweep.processes import WorkerPool

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
    assert len(steps) == -(-dom.size // span)  # one fold per span, not per chunk
    assert all(s % span == 0 for s in steps[:-1])


def test_spans_only_where_nobody_wants_each_chunk():
    stage = ModelStage("sqrt", "f32")
    assert span_chunks(stage, False, None, CHUNK, 10**6) == MODEL_SPAN // CHUNK
    assert span_chunks(stage, True, None, CHUNK, 10**6) == 1  # kept columns
    assert span_chunks(stage, False, lambda *a: None, CHUNK, 10**6) == 1  # chunk_part
    assert span_chunks(stage, False, None, CHUNK, 10**6, per_chunk_calls=True) == 1
    assert span_chunks(stage, False, None, CHUNK, 3) == 1  # too few chunks to share out
