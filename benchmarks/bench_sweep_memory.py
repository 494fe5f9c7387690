"""What a sweep's memory is made of: each process's peak, and a worker's per-chunk buffers.

Run: ``.venv/bin/python benchmarks/bench_sweep_memory.py [--domain A] [--chunk N]
[--workers N] [--skip-tree]``.

Two figures (the tracemalloc ones and the private memory do not depend on the machine's
load; PSS does a little: a shared library's pages, libpython's and libc's, are split among
every process on the machine that maps them, so a busy machine reads a few MiB lower;
compare PSS only at the same load):

- **The process tree** (Linux /proc): ``fpinspector sweep mul -f f16 -d A --domain-b all
  --summary-only`` (the README's f16 x f16 sweep on the A patterns of ``--domain``; every
  A pattern by default), sampled every 0.05 s: at the moment the tree's summed PSS peaks,
  each process's PSS and private memory (the sweep's main process, multiprocessing's
  resource tracker, the fork server and the workers). PSS counts a page shared by k
  processes as 1/k in each, so the sum is the tree's memory.
- **A worker's per-chunk buffers** (tracemalloc, which numpy reports its buffers to): the
  peak of the numpy and Python allocations of a worker's loop (:func:`compute_chunk` over
  a span, the summary parts prepared and folded) above what it held before, on 16 A
  patterns x every B from each of several places (zeros, denormals, normals, infinities
  and NaNs, both signs), the first span without any kept top k (as a worker's first
  spans are).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _sweep_tools import _children  # noqa: E402
from _timing import load_average, print_header  # noqa: E402

from fpinspector.model.sweep.alloc import keep_freed_buffers  # noqa: E402
from fpinspector.model.sweep.chunk import MODEL_SPAN, compute_chunk, default_chunk  # noqa: E402
from fpinspector.model.sweep.domain import Axis, GridDomain  # noqa: E402
from fpinspector.model.sweep.stages import ModelStage  # noqa: E402
from fpinspector.model.sweep.summary import Summary  # noqa: E402

PLACES = (0x0000, 0x0400, 0x3C00, 0x7800, 0x7C00, 0x7E00, 0x8400, 0xFC00)


def _rollup(pid: int) -> dict[str, float] | None:
    """PSS and private MiB of one process (None once it is gone)."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return None
    kib = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in lines)}
    return {"pss": kib["Pss"] / 1024, "private": (kib["Private_Dirty"] + kib["Private_Clean"])
            / 1024, "cmd": cmd}


def _role(cmd: str, main: bool) -> str:
    if main:
        return "main process"
    if "resource_tracker" in cmd:
        return "resource tracker"
    return "fork server or worker"


def tree_peak(domain: str, chunk: int | None, workers: int) -> None:
    """Run the sweep; print each process's PSS and private MiB at the tree's peak."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [sys.executable, "-m", "fpinspector", "sweep", "mul", "-f", "f16", "-d", domain,
                "--domain-b", "all", "--summary-only", "--out", str(Path(tmp) / "m.npz"), "-q",
                "--workers", str(workers)] + ([] if chunk is None else ["--chunk", str(chunk)])
        print("$ fpinspector " + " ".join(argv[3:]))
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        peak, at = 0.0, {}
        while proc.poll() is None:
            pids = [proc.pid] + _children(proc.pid)
            seen = {p: r for p, r in ((p, _rollup(p)) for p in pids) if r is not None}
            total = sum(r["pss"] for r in seen.values())
            if total > peak:
                peak, at = total, seen
            time.sleep(0.05)
        err = proc.communicate()[1]
    if proc.returncode:
        print(f"  failed (exit {proc.returncode}): {err.strip()[-300:]}")
        return
    print(f"  peak {peak:.1f} MiB (PSS of every process), at that moment:")
    for pid, r in at.items():
        print(f"    {_role(str(r['cmd']), pid == proc.pid):22s} PSS {r['pss']:5.1f} MiB, "
              f"private {r['private']:5.1f} MiB")


def chunk_buffers(chunk: int) -> None:
    """tracemalloc peak of a worker's loop per span, at each place of :data:`PLACES`."""
    keep_freed_buffers()
    summary = Summary("f16", "f16")
    stage = ModelStage("mul", "f16")
    warm = GridDomain(Axis.bit_range("f16", 0x3C00, 0x3C0F), Axis.bit_range("f16", 0, 0xFFFF))
    compute_chunk(warm, stage, 0, chunk, None, None, step=chunk)  # (lazy tables: not a chunk's)
    print(f"a worker's loop, chunks of {chunk}: peak of its allocations above what it held")
    tracemalloc.start()
    for lo in PLACES:
        dom = GridDomain(Axis.bit_range("f16", lo, lo + 15), Axis.bit_range("f16", 0, 0xFFFF))
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        for k0 in range(0, dom.size, MODEL_SPAN):
            snap = summary.snapshot()
            _, _, parts, _, _ = compute_chunk(
                dom, stage, k0, min(dom.size, k0 + MODEL_SPAN),
                lambda k, ops, out, sn=snap, b=lo << 16: summary.prepare(b + k, ops, out,
                                                                         snapshot=sn),
                None, step=chunk)
            summary.add((lo << 16) + k0, (), {}, prepared=summary.fold_parts(parts))
        peak = tracemalloc.get_traced_memory()[1] - base
        print(f"  A 0x{lo:04X}..0x{lo + 15:04X} x every B: {peak / 2**20:5.2f} MiB")
    tracemalloc.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--domain", default="all", help="A patterns of the sweep (default: all)")
    ap.add_argument("--chunk", type=int, default=None,
                    help="elements per chunk (default: the sweep command's)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip-tree", action="store_true", help="only the per-chunk buffers")
    args = ap.parse_args()
    print_header("bench_sweep_memory: what a 2-worker f16 mul sweep's memory is made of")
    chunk_buffers(args.chunk or default_chunk(False))
    if not args.skip_tree:
        if not sys.platform.startswith("linux"):
            print("the process tree: skipped (needs Linux /proc)")
        else:
            tree_peak(args.domain, args.chunk, args.workers)
    print(f"load average now {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
