"""The rule engine's part of one app click: a one-element evaluation as the UI asks for it.

Each click is what the operations view, the Why view and the GPU adapter ask of the
engine for one state change (``bridge_ops.evaluate`` with the caches emptied first, as
``bench_ui_latency.py``'s operand clicks do; ``bridge_ops.raw_outcome``; one verdict on
the model's own bits, the answer of a conformant GPU). The clicks are by default the
latency benchmark's operand clicks (mul f32 d3d11, operand A = 0x1 with bits 0, 5, 12,
22, 23, 30, 31 toggled on and off, B = 1.0: mostly flushed denormals and an identity);
``--mix`` takes 14 ops x 10 f32 operands x d3d11 / ieee754, and f16 add/mul/div.

Prints per click: Python calls (cProfile: the load hardly moves it) and the thread's
CPU time (best and median of ``--repeat`` passes). ``--base DIR`` runs the same clicks
on another tree (e.g. ``git -C /work/main archive main | tar -x -C DIR``), each tree in
its own process, alternating (base, this, base, this) so both see the same load.

Run: ``.venv/bin/python benchmarks/bench_one_element.py [--mix] [--repeat 15] [--base DIR]``.
No goal of its own: issue 36's is the whole click's (``bench_ui_latency.py``).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: f32 operands of the mix: one, pi, denormals, -0, max, INF, NaN, -3, 1/3, min normal
_F32 = [0x3F800000, 0x40490FDB, 0x00000001, 0x80000000, 0x7F7FFFFF, 0x7F800000, 0x7FC00000,
        0xC0400000, 0x3EAAAAAB, 0x00800000]
_MIX_OPS = ("add", "mul", "div", "mad", "sqrt", "min", "rcp", "rsq", "exp", "log", "frc",
            "round_ne", "lt", "mov")


def _clicks(mix: bool) -> list[tuple]:
    from fpinspector.model.engine import OPS

    if not mix:  # bench_ui_latency's operand clicks: a bit of A on, then off again
        return [("mul", (0x1 ^ (1 << b) if on else 0x1, 0x3F800000), "f32", "d3d11")
                for b in (0, 5, 12, 22, 23, 30, 31) for on in (1, 0)]
    out = []
    for op in _MIX_OPS:
        if op not in OPS:
            continue
        arity = OPS[op].arity
        for rules in ("d3d11", "ieee754"):
            for i in range(len(_F32)):
                ops = tuple(_F32[(i + 3 * k) % len(_F32)] for k in range(arity))
                out.append((op, ops, "f32", rules))
    for op in ("add", "mul", "div"):
        for i in range(6):
            out.append((op, (0x3C00 + 37 * i, 0x4000 + 11 * i), "f16", "d3d11"))
    return out


def _measure(mix: bool, repeat: int) -> str:
    """Calls and CPU per click in this process (the tree on sys.path)."""
    from fpinspector.ui import bridge_ops

    clicks = _clicks(mix)

    def click(c: tuple) -> None:
        bridge_ops.clear_caches()
        o = bridge_ops.evaluate(*c, ())  # (as the views call it: one cache key)
        bridge_ops.raw_outcome(*c)
        if o.result_format != "bool":
            o.verdict(o.bits)

    for c in clicks:  # warm: imports, per-format tables
        click(c)
    prof = cProfile.Profile()
    prof.enable()
    for c in clicks:
        click(c)
    prof.disable()
    calls = pstats.Stats(prof).total_calls / len(clicks)
    per = []
    for _ in range(repeat):
        t = time.thread_time()
        for c in clicks:
            click(c)
        per.append((time.thread_time() - t) / len(clicks) * 1e6)
    return (f"{len(clicks)} clicks: {calls:.0f} calls/click, CPU/click best {min(per):.0f} us, "
            f"median {statistics.median(per):.0f} us")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mix", action="store_true", help="many ops and operands")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--base", metavar="DIR", help="another tree to compare with")
    ap.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.here:
        print(_measure(a.mix, a.repeat))
        return
    trees = [("this", ROOT)] if not a.base else [("base", Path(a.base)), ("this", ROOT)] * 2
    print(f"load {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, tree in trees:
        env = dict(os.environ, PYTHONPATH=str(tree), QT_QPA_PLATFORM="offscreen")
        cmd = [sys.executable, str(Path(__file__).resolve()), "--here", "--repeat",
               str(a.repeat)] + (["--mix"] if a.mix else [])
        got = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
        print(f"{name:5s} {got.stdout.strip()}")


if __name__ == "__main__":
    main()
