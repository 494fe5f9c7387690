"""Summary-only sweeps with a GPU on worker processes hand the GPU spans of several chunks
(one request each, the next one started while the model works on the current one) and give
exactly the summary of the same sweep with one request per chunk, in stage threads: the
same histograms, worst inputs, counts and first non-conformant inputs (F32-SQRT-RCP,
F32-FTZ: the stand-in GPU keeps denormals and is wrong on purpose on some elements).

The stand-in GPU is numpy's float32 sqrt in the worker itself, so these tests need no GL;
it writes the size of each request it gets to a file, which shows the spans happened."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, ModelStage, UnaryDomain, run_sweep
from fpinspector.model.sweep.chunk import GPU_SPAN, GpuAhead, gpu_span_chunks
from fpinspector.model.sweep.processes import WorkerPool
from fpinspector.model.sweep.runner import SweepAborted

CHUNK = 1 << 12
#: elements the stand-in gets wrong (a result one step off): rare, in every span
WRONG_EVERY = 7919
#: operand pattern that makes the stand-in fail (the failure test)
FAILING = 0x3F900000


class _Done:
    def __init__(self, value: np.ndarray | None, error: Exception | None = None) -> None:
        self._value, self._error = value, error

    def result(self) -> np.ndarray:
        if self._error is not None:
            raise self._error
        assert self._value is not None
        return self._value


class NumpyGpuClient:
    """A worker's connection to the stand-in GPU (picklable; logs each request size)."""

    def __init__(self, log: str) -> None:
        self.log = log

    def submit(self, op: str, *operands: np.ndarray, format: str = "f32") -> _Done:
        a = np.asarray(operands[0])
        with open(self.log, "a") as f:
            f.write(f"{os.getpid()} {a.size}\n")
        if (a == FAILING).any():
            return _Done(None, ValueError("stand-in GPU: this request fails"))
        with np.errstate(all="ignore"):
            r = np.sqrt(a.view(np.float32)).view(np.uint32).copy()
        r[a % WRONG_EVERY == 0] += np.uint32(1)
        return _Done(r)

    def __call__(self, op: str, *operands: np.ndarray, format: str = "f32") -> np.ndarray:
        return self.submit(op, *operands, format=format).result()

    def close(self) -> None:
        pass


class NumpyGpu(NumpyGpuClient):
    """The stand-in GPU: what a ProcessGpuCapture offers a sweep (connect, submit)."""

    def connect(self) -> NumpyGpuClient:
        return NumpyGpuClient(self.log)


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(2) as p:
        yield p


def _summary(res) -> str:
    return json.dumps(res.summary.to_dict(), default=repr)


def _sizes(log: Path) -> list[int]:
    return [int(line.split()[1]) for line in log.read_text().splitlines()] if log.exists() else []


def test_gpu_spans_give_the_summary_of_one_request_per_chunk_F32_SQRT_RCP(pool, tmp_path):
    """Across 2.3 spans (the last one partial, its last chunk too), with non-conformant
    GPU results in every span and denormal operands the model flushes (F32-FTZ)."""
    n = 2 * GPU_SPAN + 5 * CHUNK + 123
    dom = UnaryDomain(Axis.bit_range("f32", 0x00700000, 0x00700000 + n - 1))
    threads_log, spans_log = tmp_path / "threads.log", tmp_path / "spans.log"
    want = run_sweep(dom, ModelStage("sqrt", "f32", gpu=NumpyGpu(str(threads_log))),
                     result_format="f32", chunk_size=CHUNK, keep_elements=False,
                     processes=False, workers=2)
    got = run_sweep(dom, ModelStage("sqrt", "f32", gpu=NumpyGpu(str(spans_log))),
                    result_format="f32", chunk_size=CHUNK, keep_elements=False,
                    processes=True, pool=pool, workers=2)
    assert got.complete and got.n_done == n
    assert got.summary.nonconformant_count() > 0  # (the wrong elements were judged)
    assert _summary(got) == _summary(want)
    assert max(_sizes(threads_log)) == CHUNK  # one request per chunk in threads
    sizes = _sizes(spans_log)
    assert sorted(sizes) == sorted([GPU_SPAN, GPU_SPAN, n - 2 * GPU_SPAN])  # one per span


def test_spans_only_where_no_chunk_outputs_are_kept(tmp_path):
    """Kept columns and a caller's per-chunk reduction need each chunk's whole outputs:
    no spans there, nor for a GPU that takes no requests ahead."""
    gpu = ModelStage("sqrt", "f32", gpu=NumpyGpu(str(tmp_path / "log")))
    assert gpu_span_chunks(gpu, False, None, CHUNK) == GPU_SPAN // CHUNK
    assert gpu_span_chunks(gpu, False, None, 1 << 20) == 1
    assert gpu_span_chunks(gpu, True, None, CHUNK) == 1
    assert gpu_span_chunks(gpu, False, lambda *a: None, CHUNK) == 1
    assert gpu_span_chunks(ModelStage("sqrt", "f32"), False, None, CHUNK) == 1
    plain = ModelStage("sqrt", "f32", gpu=lambda op, *ops, format: np.sqrt(ops[0]))
    assert gpu_span_chunks(plain, False, None, CHUNK) == 1


def test_kept_columns_still_come_one_request_per_chunk(pool, tmp_path):
    log = tmp_path / "log"
    dom = UnaryDomain(Axis.bit_range("f32", 0x3F000000, 0x3F000000 + 3 * CHUNK - 1))
    res = run_sweep(dom, ModelStage("sqrt", "f32", gpu=NumpyGpu(str(log))),
                    result_format="f32", chunk_size=CHUNK, keep_elements=True,
                    processes=True, pool=pool, workers=2)
    assert res.columns["gpu"].shape == (3 * CHUNK,) and _sizes(log) == [CHUNK] * 3


def test_a_failing_span_request_stops_the_sweep_with_its_error(pool, tmp_path):
    """The GPU's error reaches the caller (not a hang, not a silent gap); every chunk
    before the failing span is kept, and the pool serves the next sweep."""
    start = FAILING - GPU_SPAN - 2 * CHUNK  # the failing pattern is in the second span
    dom = UnaryDomain(Axis.bit_range("f32", start, start + 3 * GPU_SPAN - 1))
    with pytest.raises(SweepAborted) as info:
        run_sweep(dom, ModelStage("sqrt", "f32", gpu=NumpyGpu(str(tmp_path / "log"))),
                  result_format="f32", chunk_size=CHUNK, keep_elements=False,
                  processes=True, pool=pool, workers=2)
    assert "this request fails" in str(info.value.__cause__ or info.value)
    assert info.value.result.n_done == GPU_SPAN  # the first span, and nothing after
    ok = UnaryDomain(Axis.bit_range("f32", 0x3F000000, 0x3F000000 + GPU_SPAN + CHUNK - 1))
    res = run_sweep(ok, ModelStage("sqrt", "f32", gpu=NumpyGpu(str(tmp_path / "log2"))),
                    result_format="f32", chunk_size=CHUNK, keep_elements=False,
                    processes=True, pool=pool, workers=2)
    assert res.complete


def test_a_request_started_ahead_for_another_span_is_waited_out_not_used():
    """GpuAhead hands a span only its own request; a request for another span is drained
    (its answer read, so the GPU process never writes to a closed pipe)."""
    drained: list[int] = []

    class Pending:
        def __init__(self, k0: int) -> None:
            self.k0 = k0

        def result(self) -> np.ndarray:
            drained.append(self.k0)
            return np.zeros(1, np.uint32)

    class Stage:
        def start_gpu(self, ops):
            return Pending(int(ops[0][0]))

    class Domain:
        def operands(self, k0, k1):
            return (np.arange(k0, k1, dtype=np.uint32),)

    nxt = [(100, 200)]
    ahead = GpuAhead(lambda: nxt[0])
    ahead.start_next(Domain(), Stage())
    assert ahead.take(100, 200).k0 == 100 and not drained  # its own: handed over
    ahead.start_next(Domain(), Stage())
    assert ahead.take(300, 400) is None and drained == [100]  # another span's: drained
    ahead.start_next(Domain(), Stage())
    ahead.drain()
    assert drained == [100, 100] and ahead.take(100, 200) is None
