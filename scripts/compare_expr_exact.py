"""Compare the expression layer's exact values of this tree with another commit's, bit for bit.

For 29 expressions (sums, products, quotients, roots, powers, logs, roundings, selects,
dot products, chains that underflow and overflow) in f32 and f16 over 3000 random and
edge inputs, every step's bounded value (hi, lo, bound, "needs the scalar entry") and the
whole expression's exact value for a "value" and a "map" (hi, lo, elements recomputed
exactly). Each tree runs in its own process (``git archive REF`` unpacked to a temporary
folder); the report lists every difference, and classifies the changed results (a NaN
that became a number, a finite value that moved: by how much relative).

Run: ``.venv/bin/python scripts/compare_expr_exact.py --against main``
"""

from __future__ import annotations

import argparse
import collections
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EXPRS = ["a * b + c", "mad(a, b, -c)", "(a + b) - a", "a * b - c * a", "a / b", "rcp(a)",
         "a / (b * b + c)", "(a * b) / (c + a)", "sqrt(abs(a))", "rsqrt(abs(a))",
         "sqrt(abs(a * b + c))", "rsqrt(abs(a * b) + c * c)", "exp2(a)", "log2(abs(a))",
         "exp2(a * b)", "log2(abs(a * b + c))", "frac(a * 3) + floor(b) + round(c)",
         "a * b < c ? a : -b", "dot(float3(a, b, c), float3(c, b, a))",
         "min(a, b) * max(b, c)", "saturate(a * b + c) * rsqrt(abs(a)) - b", "1 / (a - a)",
         "a / (b - b)", "sqrt(a * a + b * b) / c", "rcp(a * b * c * a * b * c)",
         "(a * b * c) * (a * b * c) * (a * b * c)", "sqrt(a * a * a * a * b * b * b * b)",
         "exp2(log2(abs(a)) * b)", "f16tof32(f32tof16(a * 0.5))"]
N = 3000


def _inputs(seed: int, fmt: str) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if fmt == "f32":
        raw = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
        near = rng.uniform(-4, 4, N).astype(np.float32).view(np.uint32)
        edges = np.array([0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
                          0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000,
                          0x40200000, 0x3FC00000, 0x3F000000, 0xBF000000, 0x0D800000,
                          0x01000000], np.uint32)
        return np.concatenate([edges, near[: N // 2], raw[: N - N // 2 - edges.size]])
    raw16 = rng.integers(0, 2**16, N, dtype=np.uint64).astype(np.uint16)
    near16 = rng.uniform(-4, 4, N).astype(np.float16).view(np.uint16)
    return np.concatenate([near16[: N // 2], raw16[: N - N // 2]])


def capture(path: str) -> None:
    """Every step's Approx and both purposes' answers, into ``path`` (.npz)."""
    from fpinspector.model.expr.bindings import bind
    from fpinspector.model.expr.exact import expression_exact, fast_exact
    from fpinspector.model.expr.lower import lower
    from fpinspector.model.expr.run import run_program
    from fpinspector.model.formats import get_format

    out: dict[str, np.ndarray] = {}
    for fmt in ("f32", "f16"):
        a, b, c = _inputs(1, fmt), np.roll(_inputs(2, fmt), 7), np.roll(_inputs(3, fmt), 3)
        for k, text in enumerate(EXPRS):
            try:
                types, values = bind({"a": a, "b": b, "c": c}, fmt)
                program = lower(text, types, fmt)
            except Exception:  # noqa: BLE001  (an expression the format does not take)
                continue
            slots = [values[i.name][i.comp] for i in program.inputs]
            model = [s.bits for s in run_program(program, slots, "d3d11", None)]
            with np.errstate(all="ignore"):
                steps = fast_exact(program, slots, model, get_format(fmt), (N,))
            for j, v in enumerate(steps):
                for name in ("hi", "lo", "err", "bad"):
                    out[f"{fmt}|{k}|{j}|{name}"] = np.array(np.broadcast_to(getattr(v, name), (N,)))
            for purpose in ("value", "map"):
                try:
                    his, los, count = expression_exact(program, slots, model, (N,), purpose)
                except Exception as e:  # noqa: BLE001  (a tree that raises: recorded)
                    out[f"{fmt}|{k}|{purpose}|raises"] = np.array(repr(e))
                    continue
                out[f"{fmt}|{k}|{purpose}|hi"], out[f"{fmt}|{k}|{purpose}|lo"] = his[0], los[0]
                out[f"{fmt}|{k}|{purpose}|count"] = np.array(count)
    np.savez(path, **out)


def _run_tree(src: Path, path: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(src))
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--capture", path],
                   check=True, cwd=src, env=env)


def _report(old_path: str, new_path: str, ref: str) -> int:
    old, new = np.load(old_path), np.load(new_path)
    changed = 0
    kinds: collections.Counter[str] = collections.Counter()
    for key in sorted(set(old.files) | set(new.files)):
        fmt, k, where, name = key.split("|")
        label = f"{fmt} {EXPRS[int(k)]!r} {'step ' + where if where.isdigit() else where} {name}"
        if key not in old.files or key not in new.files:
            print(f"{label}: only in {'this tree' if key in new.files else ref}")
            changed += 1
            continue
        x, y = old[key], new[key]
        if x.dtype.kind in "biuU":
            diff = x != y
        else:
            diff = ~((x == y) | (np.isnan(x) & np.isnan(y)))
        if not np.any(diff):
            continue
        changed += 1
        extra = f" ({int(x)} -> {int(y)})" if name == "count" else ""
        print(f"{label}: {int(np.sum(diff))} element(s){extra}")
        if name == "hi" and x.ndim:
            for i in np.flatnonzero(diff):
                kinds[f"{x[i] if not np.isfinite(x[i]) else 'finite'} -> "
                      f"{y[i] if not np.isfinite(y[i]) or y[i] == 0 else 'finite'}"] += 1
    print(f"{changed} arrays differ between {ref} and this tree")
    for kind, n in kinds.most_common():
        print(f"  hi {kind}: {n}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="the git ref to compare with")
    ap.add_argument("--capture", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.capture:
        capture(args.capture)
        return 0
    if not args.against:
        ap.error("--against REF is needed")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "ref"
        base.mkdir()
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", args.against, "fpinspector"],
                             check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            t.extractall(base, filter="data")
        _run_tree(base, str(Path(tmp) / "old.npz"))
        _run_tree(ROOT, str(Path(tmp) / "new.npz"))
        return _report(str(Path(tmp) / "old.npz"), str(Path(tmp) / "new.npz"), args.against)


if __name__ == "__main__":
    raise SystemExit(main())
