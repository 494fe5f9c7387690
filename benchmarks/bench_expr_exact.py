"""Benchmark: the whole expression's exact value over a map's worth of elements (the
bounded entry, engine/exact/bounded.py, plus the per-element fallback), A/B against the
bounded entry of another commit in the same process, interleaved round by round.

Why in one process: the exact stage is a few tens of milliseconds per expression, less
than the load on a shared machine moves between two runs; both versions see the same
neighbours in each round (CPU time, best of N). ``--against REF`` loads REF's
``engine/exact/bounded.py`` beside this tree's (it must import what this tree's package
has); without it, only this tree is timed.

Run: ``.venv/bin/python benchmarks/bench_expr_exact.py [--against main] [--repeat 7]``
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import ROOT, add_arguments, best_interleaved, print_header  # noqa: E402

import fpinspector.model.expr.exact as expr_exact  # noqa: E402
from fpinspector.model.expr.bindings import bind  # noqa: E402
from fpinspector.model.expr.lower import lower  # noqa: E402
from fpinspector.model.expr.run import run_program  # noqa: E402

EXPRS = ["saturate(a * b + c) * rsqrt(a) - b", "a / b + c", "sqrt(a * a + b * b) * c",
         "exp2(b) * log2(a)", "dot(float3(a, b, c), float3(c, b, a)) / a"]
PATH = "fpinspector/model/engine/exact/bounded.py"


def _load_bounded(ref: str):
    """REF's bounded.py as a module of this tree's package (its relative imports resolve
    here)."""
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{ref}:{PATH}"], check=True,
                         capture_output=True, text=True).stdout
    name = "fpinspector.model.engine.exact._bounded_ab"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "fpinspector.model.engine.exact"
    sys.modules[name] = mod
    exec(compile(src, f"{ref}:{PATH}", "exec"), mod.__dict__)  # noqa: S102
    return mod


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="a git ref whose bounded entry is timed beside this one")
    ap.add_argument("--n", type=int, default=1 << 18, help="elements (default 2^18, a chunk)")
    add_arguments(ap, repeat=7)
    args = ap.parse_args()
    print_header("bench_expr_exact: an expression's exact value over a chunk, A/B")
    from fpinspector.model.sweep.alloc import keep_freed_buffers

    keep_freed_buffers()  # as the map's sweep workers do
    rng = np.random.default_rng(1)
    a = np.exp(rng.uniform(np.log(1e-3), np.log(1e3), args.n)).astype(np.float32)
    b = rng.uniform(-2, 2, args.n).astype(np.float32)
    inputs = {"a": a.view(np.uint32), "b": b.view(np.uint32), "c": np.float32(0.25)}
    versions = {"this tree": expr_exact.step_of}
    if args.against:
        versions[args.against] = _load_bounded(args.against).step_of
    total = dict.fromkeys(versions, 0.0)
    for text in EXPRS:
        types, values = bind(inputs, "f32")
        program = lower(text, types, "f32")
        slots = [values[i.name][i.comp] for i in program.inputs]
        model = [s.bits for s in run_program(program, slots, "d3d11", None)]
        counts = {}

        def run(step_of, name):
            expr_exact.step_of = step_of
            counts[name] = expr_exact.expression_exact(program, slots, model, (args.n,),
                                                       "map")[2]

        fns = {name: (lambda s=s, name=name: run(s, name)) for name, s in versions.items()}
        best = best_interleaved(fns, args.repeat)
        expr_exact.step_of = versions["this tree"]
        row = "  ".join(f"{name}: {best[name] * 1e3:7.1f} ms ({counts[name]} exact)"
                        for name in versions)
        print(f"{text:45s} {row}")
        for name in versions:
            total[name] += best[name]
    print("total (CPU seconds, best of each): "
          + ", ".join(f"{name} {t:.3f}" for name, t in total.items()))
    if args.against:
        print(f"this tree / {args.against}: {total['this tree'] / total[args.against]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
