"""The terms of a projected scaling table for the README's two 2^32 sweeps, measured here.

Run: ``.venv/bin/python benchmarks/bench_sweep_scaling.py [--samples N] [--repeat N]``.

A summary-only sweep on N worker processes has three parts (``docs/sweeps.md`` gives the
table this prints and how to read it):

- **W**, the workers' CPU seconds: a worker's loop (stage, summary part, span folded)
  per input, measured on ``--samples`` ranges of 2^20 spread over the whole input space
  (as ``bench_sweep_per_core.py``), times 2^32 inputs. It divides by N.
- **M**, the parent's CPU seconds per span: a span's folded summary part pickled and
  unpickled (the pipe), :meth:`Summary.add` and the next :meth:`Summary.snapshot`, times
  the spans of N workers (:func:`span_count`: the sizes :class:`~fpinspector.model.sweep.
  chunk.Spans` hands out at the worker throughput W gives). It does not divide by N.
- **S**, start-up, serial: the sweep command's own start (``python -m fpinspector sweep``
  on 256 inputs, CPU seconds) and the workers' fork server importing numpy, the engine and
  mpmath (:data:`~fpinspector.model.sweep.processes.PRELOAD`, CPU seconds); each worker
  is then a fork of it (Linux; spawned workers import side by side, in parallel).

Projection (Amdahl, with the parent's merging counted as serial although it overlaps the
workers, so an upper bound on the wall time): ``T(N) = S + M + W / N``; the speed-up over
one worker ``T(1) / T(N)``. Every term is in CPU seconds of this machine, so under load
all of them grow together and ``T`` is in this machine's seconds at that load: read the
speed-up and efficiency columns. It assumes a worker's throughput does not fall as N
grows (no shared memory-bandwidth or SMT limit). Nothing here runs N workers: the table
is a projection from these terms and is labelled so.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import load_average, print_header  # noqa: E402
from bench_sweep_per_core import CHUNK, ranges, run_model  # noqa: E402

from fpinspector.model.sweep.chunk import MODEL_SPAN, Spans, compute_chunk  # noqa: E402
from fpinspector.model.sweep.domain import Axis, GridDomain, UnaryDomain  # noqa: E402
from fpinspector.model.sweep.processes import PRELOAD  # noqa: E402
from fpinspector.model.sweep.stages import ModelStage  # noqa: E402
from fpinspector.model.sweep.summary import Summary  # noqa: E402

INPUTS = 1 << 32
WORKERS = (1, 2, 8, 16, 32)
SWEEPS = {"sqrt": "f32 sqrt, all 2^32 patterns", "mul16": "f16 x f16 mul, all 2^32 pairs"}


def worker_seconds_per_input(kind: str, samples: int, repeat: int) -> float:
    rngs = ranges(kind, samples)
    run_model(kind, rngs[:1])  # warm-up
    best = min(run_model(kind, rngs)[0] for _ in range(repeat))
    return best / (samples * (1 << 20))


def span_count(workers: int, rate: float) -> int:
    """Spans of a 2^32 sweep on ``workers`` workers of ``rate`` inputs a CPU second each, as
    ``processes.run_chunks`` hands them out: each worker holds two, so a span is timed
    (:meth:`Spans.timed`) once the spans handed out two rounds after it are due."""
    spans = Spans(CHUNK, MODEL_SPAN // CHUNK, True, workers)
    handed, sizes = 0, []
    while handed < INPUTS:
        sizes.append(min(spans.next(INPUTS - handed), INPUTS - handed))
        handed += sizes[-1]
        if len(sizes) > 2 * workers:
            done = sizes[-2 * workers - 1]
            spans.timed(done, done / rate)
    return len(sizes)


def parent_seconds_per_span(kind: str, repeat: int) -> float:
    """CPU seconds the parent spends on one span's part: unpickle, add, snapshot (the
    worker's pickling is the worker's, but is counted here too: an upper bound)."""
    rngs = ranges(kind, 8)
    _, summary = run_model(kind, rngs)  # a summary with its top k full, as mid-sweep
    parts = []
    for lo, hi in rngs:  # real folded parts of real spans
        fmt = "f32" if kind == "sqrt" else "f16"
        if kind == "sqrt":
            domain: Any = UnaryDomain(Axis.bit_range("f32", lo, hi))
            stage = ModelStage("sqrt", "f32")
        else:
            domain = GridDomain(Axis.bit_range("f16", lo, hi), Axis.bit_range("f16", 0, 0xffff))
            stage = ModelStage("mul", "f16")
        snap = summary.snapshot()
        s = Summary(fmt, fmt)
        _, _, prep, _, _ = compute_chunk(
            domain, stage, 0, min(domain.size, MODEL_SPAN),
            lambda k, ops, out, sn=snap, s=s: s.prepare(k, ops, out, snapshot=sn), None,
            step=CHUNK)
        parts.append(pickle.dumps(s.fold_parts(prep), protocol=pickle.HIGHEST_PROTOCOL))
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for blob in parts:
            summary.add(summary.total, (), {}, prepared=pickle.loads(blob))
            summary.snapshot()
        best = min(best, (time.process_time() - t0) / len(parts))
    return best


def _child_cpu(argv: list[str], repeat: int) -> float:
    """Least CPU seconds (user + system) of ``argv`` run as a child process."""
    best = float("inf")
    for _ in range(repeat):
        before = os.times()
        subprocess.run(argv, check=True, capture_output=True)
        after = os.times()
        best = min(best, after.children_user - before.children_user
                   + after.children_system - before.children_system)
    return best


def start_cpu_s(repeat: int) -> tuple[float, float]:
    """CPU seconds of (the sweep command on 256 inputs: its start-up, no workers; the fork
    server's preload, which every worker is forked from once it has run)."""
    with tempfile.TemporaryDirectory() as d:
        cmd = _child_cpu([sys.executable, "-m", "fpinspector", "sweep", "sqrt", "-d",
                          "bits:0:0xff", "--summary-only", "--out", str(Path(d) / "s.npz"),
                          "-q"], repeat)
    preload = _child_cpu([sys.executable, "-c", f"import {PRELOAD}"], repeat)
    return cmd, preload


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=16, help="ranges of 2^20 inputs")
    ap.add_argument("--repeat", type=int, default=3, help="best of N")
    args = ap.parse_args()
    print_header("sweep scaling terms (projection, not a measurement of N workers)")
    cmd, preload = start_cpu_s(args.repeat)
    start = cmd + preload
    print(f"\nS start-up: the command {cmd:.2f} CPU s + the workers' fork server {preload:.2f} "
          f"CPU s = {start:.2f} s")
    for kind, name in SWEEPS.items():
        per_input = worker_seconds_per_input(kind, args.samples, args.repeat)
        w = per_input * INPUTS
        per_span = parent_seconds_per_span(kind, args.repeat)
        t1 = start + per_span * span_count(1, 1 / per_input) + w
        print(f"\n{name}: W = {w:.1f} CPU s, M = {per_span * 1e3:.2f} ms a span, "
              f"S = {start:.2f} s")
        print(f"  {'workers':>7} {'spans':>6} {'M s':>6} {'T(N) s':>9} {'speed-up':>9} "
              f"{'efficiency':>10}")
        for n in WORKERS:
            spans = span_count(n, 1 / per_input)
            m = per_span * spans
            t = start + m + w / n
            print(f"  {n:7d} {spans:6d} {m:6.2f} {t:9.1f} {t1 / t:9.1f} {t1 / t / n:10.0%}")
    print(f"\nload average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
