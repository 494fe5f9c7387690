"""CPU seconds per core: a sweep worker's loop next to the C brute force, on one core each.

Run: ``.venv/bin/python benchmarks/bench_sweep_per_core.py [--repeat N] [--samples N]
[--parallel N]``.

Issue 41's efficiency goals compare CPU seconds, per core, of the model sweep and the tuned
C peer (``benchmarks/c_peer/sweep_peer.c``): at most 1.5x on f32 sqrt and at most 2x on f16
x f16 mul. A whole ``fpinspector sweep`` also pays its start-up and its main process
(``benchmarks/c_peer.py`` prints those); this script times what grows with the sweep: one
process running a worker's loop (:func:`~fpinspector.model.sweep.chunk.compute_chunk` over
spans of :data:`~fpinspector.model.sweep.chunk.MODEL_SPAN` elements, the summary's parts
folded per span and merged into the sweep's summary) against the peer with one OpenMP
thread, on the same inputs.

Inputs: ``--samples`` ranges of 2^20 spread evenly over the README sweeps' whole input
space (f32 patterns 0..2^32-1; for f16 mul, 16 consecutive A patterns x all 2^16 B
patterns), so every class (zeros, denormals, normals, negatives, infinities, NaNs) weighs
what it weighs in the full sweep. Each round runs the peer and the model in turn (the
same neighbours on a shared machine); the figures are the best round of each. The
summaries of the two are compared on every range (as ``c_peer.py`` does).

``--parallel N`` then runs the same loop in N processes at once (as a sweep's N workers
run) and prints their CPU seconds per input beside the one-process figure: a worker that
shares the machine's caches and memory with another spends more CPU seconds on the same
inputs than one alone (the C peer, which keeps everything in registers, does not).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import load_average, print_header  # noqa: E402
from c_peer import build, differences  # noqa: E402

from fpinspector.model.sweep.chunk import MODEL_SPAN, compute_chunk, default_chunk  # noqa: E402
from fpinspector.model.sweep.domain import Axis, GridDomain, UnaryDomain  # noqa: E402
from fpinspector.model.sweep.stages import ModelStage  # noqa: E402
from fpinspector.model.sweep.summary import Summary  # noqa: E402

SPAN = 1 << 20
CHUNK = default_chunk(False)  # the sweep command's chunk without a GPU
GOALS = {"sqrt": 1.5, "mul16": 2.0}


def ranges(kind: str, samples: int) -> list[tuple[int, int]]:
    """``samples`` inclusive pattern ranges of 2^20 inputs each, evenly over the space (for
    mul16: ranges of A patterns, 16 each, every B)."""
    if kind == "sqrt":
        step = (1 << 32) // samples
        return [(i * step, i * step + SPAN - 1) for i in range(samples)]
    step = (1 << 16) // samples
    return [(i * step, i * step + 15) for i in range(samples)]


def peer_args(kind: str, lo: int, hi: int) -> list[str]:
    if kind == "sqrt":
        return ["sqrt", hex(lo), hex(hi)]
    return ["mul16", hex(lo), hex(hi), "0", "0xffff"]


def run_peer(exe: Path, kind: str, rngs: list[tuple[int, int]]) -> tuple[float, list[str]]:
    """CPU seconds of the peer on every range (one thread) and the peer's summaries."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    before = os.times()
    outs = [subprocess.run([str(exe), *peer_args(kind, lo, hi)], capture_output=True,
                           text=True, check=True, env=env).stdout for lo, hi in rngs]
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system), outs


def model_setup(kind: str, lo: int, hi: int) -> tuple[Any, ModelStage, int]:
    """A range's domain, its stage and the index of its first input in the whole sweep."""
    if kind == "sqrt":
        return UnaryDomain(Axis.bit_range("f32", lo, hi)), ModelStage("sqrt", "f32"), lo
    return (GridDomain(Axis.bit_range("f16", lo, hi), Axis.bit_range("f16", 0, 0xffff)),
            ModelStage("mul", "f16"), lo << 16)


def run_model(kind: str, rngs: list[tuple[int, int]], chunk: int = CHUNK
              ) -> tuple[float, Summary]:
    """CPU seconds of a worker's loop on every range (this process) and the summary of
    them all: each span prepared against the summary's snapshot so far, as a worker does
    (its parent sends one with each span), so the top-k passes see the sweep's kept worst
    errors as they do past a sweep's first spans."""
    fmt = "f32" if kind == "sqrt" else "f16"
    summary = Summary(fmt, fmt)
    setups = [model_setup(kind, lo, hi) for lo, hi in rngs]
    t0 = time.process_time()
    for domain, stage, base in setups:
        for k0 in range(0, domain.size, MODEL_SPAN):
            snap = summary.snapshot()
            _, _, parts, _, _ = compute_chunk(
                domain, stage, k0, min(domain.size, k0 + MODEL_SPAN),
                lambda k, ops, out, sn=snap, b=base: summary.prepare(b + k, ops, out,
                                                                     snapshot=sn),
                None, step=chunk)
            summary.add(base + k0, (), {}, prepared=summary.fold_parts(parts))
    return time.process_time() - t0, summary


def _loop_alone(job: tuple[str, list[tuple[int, int]], int]) -> float:
    """CPU seconds of the worker loop on ``job``'s ranges in this (pool) process."""
    kind, rngs, chunk = job
    np.seterr(all="ignore")
    run_model(kind, rngs[:1], chunk)  # warm-up, as in main()
    return run_model(kind, rngs, chunk)[0]


def run_parallel(kind: str, rngs: list[tuple[int, int]], chunk: int, n: int, repeat: int
                 ) -> list[float]:
    """CPU seconds of each of ``n`` processes running the loop at once on the same ranges
    (the best round: the one with the smallest mean)."""
    best: list[float] = []
    with multiprocessing.Pool(n) as pool:
        for _ in range(repeat):
            got = pool.map(_loop_alone, [(kind, rngs, chunk)] * n, chunksize=1)
            if not best or sum(got) < sum(best):
                best = got
    return best


def merged(peers: list[dict[str, Any]]) -> dict[str, Any]:
    """The peer's summaries of several ranges as one (counts add up, max of max)."""
    out = dict(peers[0])
    for p in peers[1:]:
        for k, v in p.items():
            if k == "max_error":
                out[k] = max(out[k], v)
            elif isinstance(v, list):
                out[k] = [a + b for a, b in zip(out[k], v)]
            else:
                out[k] += v
    return out


def as_peer(summary: Summary) -> dict[str, Any]:
    """A model summary in the peer's JSON shape (as ``c_peer.read_sweep_csv``)."""
    out: dict[str, Any] = {"elements": summary.total,
                           "histogram": [int(v) for v in summary.hist["err_model"]]}
    for i, c in enumerate(summary.operand_classes):
        out[f"operand{i}_class"] = [int(v) for v in c]
    out["model_class"] = [int(v) for v in summary.result_classes["model"]]
    out["nonconformant"] = summary.total - summary.conformant["ok_model"]
    out["max_error"] = summary.max_error("err_model")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="rounds (best of each side)")
    ap.add_argument("--samples", type=int, default=16, help="ranges of 2^20 inputs")
    ap.add_argument("--only", choices=sorted(GOALS), help="one sweep")
    ap.add_argument("--parallel", type=int, default=0,
                    help="also run the loop in this many processes at once")
    ap.add_argument("--chunk", type=int, default=CHUNK,
                    help=f"elements per chunk of the worker loop (default {CHUNK}, the sweep "
                         "command's)")
    args = ap.parse_args()
    print_header("sweep CPU per core: worker loop vs C peer (one thread)")
    exe = build()
    if exe is None:
        print("skipped: no C compiler (cc, gcc or clang) on PATH")
        return 0
    status = 0
    for kind in [args.only] if args.only else list(GOALS):
        rngs = ranges(kind, args.samples)
        run_model(kind, rngs[:1], args.chunk)  # warm-up: imports, first-use caches
        best_p, best_m = float("inf"), float("inf")
        for _ in range(args.repeat):
            p, outs = run_peer(exe, kind, rngs)
            m, summary = run_model(kind, rngs, args.chunk)
            best_p, best_m = min(best_p, p), min(best_m, m)
        diffs = differences(merged([json.loads(o) for o in outs]), as_peer(summary))
        status |= bool(diffs)
        n = summary.total
        ratio = best_m / best_p
        goal = GOALS[kind]
        print(f"\n{kind}: {len(rngs)} ranges, {n} inputs; summaries "
              f"{'DIFFER in ' + ', '.join(diffs) if diffs else 'agree'}")
        print(f"  C peer (1 thread)   {best_p:7.3f} CPU s  {best_p / n * 1e9:6.2f} ns/input")
        print(f"  model worker loop   {best_m:7.3f} CPU s  {best_m / n * 1e9:6.2f} ns/input")
        print(f"  ratio {ratio:.2f} (goal <= {goal}): {'met' if ratio <= goal else 'MISSED'}")
        if args.parallel > 1:
            each = run_parallel(kind, rngs, args.chunk, args.parallel, args.repeat)
            per = [c / n * 1e9 for c in each]
            print(f"  {args.parallel} loops at once   " + ", ".join(f"{p:.2f}" for p in per)
                  + f" ns/input (one alone: {best_m / n * 1e9:.2f})")
    print(f"\nload average after: {load_average()}")
    return status


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
