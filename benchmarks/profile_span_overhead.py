"""A worker's cost per span beyond its chunks: what issue 41's "per-chunk overhead" of the
units the parent hands out is, now that a unit is a span of about a second.

Run: ``.venv/bin/python benchmarks/profile_span_overhead.py [--repeat N]``.

In one process, as a worker does it (malloc tuned as the workers tune it): the request
unpickled (its snapshot), a span of 2^24 f32 sqrt patterns (chunks of 2^17) through
:func:`compute_chunk` with the worker's fold every ``FOLD_EVERY`` parts, the last fold,
the parts packed and the reply pickled. Printed: the span's seconds, those inside its
chunks (stage and summary parts), the folds, the reply's size, and the overhead (request,
folds, reply) as a share of the span. What the parent pays per span is in
``bench_sweep_scaling.py``; the engine's own fixed cost per chunk in
``profile_sweep_chunk.py``.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import load_average, print_header  # noqa: E402

from fpinspector.model.sweep.alloc import keep_freed_buffers  # noqa: E402
from fpinspector.model.sweep.chunk import FOLD_EVERY, compute_chunk  # noqa: E402
from fpinspector.model.sweep.domain import Axis, UnaryDomain  # noqa: E402
from fpinspector.model.sweep.stages import ModelStage  # noqa: E402
from fpinspector.model.sweep.summary import Summary  # noqa: E402

SPAN = 1 << 24
CHUNK = 1 << 17


def one_span() -> tuple[float, float, list[float], int, float]:
    """(span seconds, seconds inside its chunks, each fold's seconds, reply bytes,
    overhead seconds)."""
    dom = UnaryDomain(Axis.bit_range("f32", 0x30000000, 0x30000000 + SPAN - 1))
    stage = ModelStage("sqrt", "f32")
    s = Summary("f32", "f32", top_k=10, first_n=100)
    blob = pickle.dumps(("chunk", 0, SPAN, CHUNK, s.snapshot()),
                        protocol=pickle.HIGHEST_PROTOCOL)
    folds: list[float] = []

    def fold(parts: list) -> dict:
        t = time.perf_counter()
        part = s.fold_parts(parts)
        folds.append(time.perf_counter() - t)
        return part

    t0 = time.perf_counter()
    msg = pickle.loads(blob)
    t1 = time.perf_counter()
    _, _, prepared, _, took = compute_chunk(
        dom, stage, 0, dom.size, lambda k, o, out: s.prepare(k, o, out, snapshot=msg[4]),
        None, step=CHUNK, fold=fold)
    t2 = time.perf_counter()
    if len(prepared) > 1:
        prepared = [fold(prepared)]
    reply = pickle.dumps(("done", 0, SPAN, [s.packed(p) for p in prepared], took, None, None),
                         protocol=pickle.HIGHEST_PROTOCOL)
    t3 = time.perf_counter()
    overhead = (t1 - t0) + sum(folds) + (t3 - t2)
    return t3 - t0, sum(took.values()), folds, len(reply), overhead


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print_header("a worker's cost per span beyond its chunks (f32 sqrt, span of 2^24)")
    keep_freed_buffers()
    print(f"FOLD_EVERY = {FOLD_EVERY}, chunks of {CHUNK}")
    for _ in range(args.repeat):
        total, inside, folds, size, over = one_span()
        print(f"  span {total:.3f} s ({inside:.3f} s in its chunks), {len(folds)} folds "
              f"of {sum(folds) / len(folds) * 1e6:.0f} us, reply {size} bytes: overhead "
              f"{over * 1e3:.2f} ms = {over / total:.2%} of the span")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
