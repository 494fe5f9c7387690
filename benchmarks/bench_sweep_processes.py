"""Where a whole sweep command's CPU seconds go: per process, user and system time apart.

Run: ``.venv/bin/python benchmarks/bench_sweep_processes.py [--domain A] [--domain-b B]
[--workers N] [--chunk N] [--op OP] [--format F]``. Linux only (/proc).

``benchmarks/c_peer.py`` gives a sweep command's CPU seconds in all, and
``benchmarks/bench_sweep_per_core.py`` a worker's loop; this splits the command's seconds by
process (the main process, multiprocessing's resource tracker and fork server, each worker)
into user time, system time (page faults, memory given back to the OS and taken again
show there) and minor page faults, sampled from ``/proc/PID/stat`` every 50 ms (a
process's last 50 ms before it exits are missed). With ``--loop`` it then times the worker
loop of ``bench_sweep_per_core.py`` in this process on the same inputs, so the two can be
compared in ns an input. With ``--peer`` (f16 mul only) it runs the C peer of
``benchmarks/c_peer.py`` on the same pairs afterwards: its CPU seconds, and whether the
two summaries agree. Default: the f16 x f16 mul sweep on A 0x3800..0x3FFF x every B
(2^27 pairs; about 4 CPU s quiet).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _sweep_tools import _children  # noqa: E402
from _timing import load_average, print_header  # noqa: E402
from c_peer import build, differences, read_sweep_csv, run_peer  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[float, float, int] | None:
    """utime, stime (seconds) and minor faults of one process, or None when gone."""
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(f[11]) / TICK, int(f[12]) / TICK, int(f[7])
    except (OSError, ValueError, IndexError):
        return None


def _role(pid: int, main: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return "?"
    if pid == main:
        return "main process"
    if "resource_tracker" in cmd:
        return "resource tracker"
    if "forkserver" in cmd and ppid == main:
        return "fork server"
    return "worker"


class ProcessCpu:
    """Samples every process of a tree: the last (utime, stime, minflt) seen of each."""

    def __init__(self, pid: int, every: float = 0.05) -> None:
        self.pid, self.every = pid, every
        self.seen: dict[int, tuple[str, tuple[float, float, int]]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for p in [self.pid] + _children(self.pid):
                s = _stat(p)
                if s is None:
                    continue
                # (asked again while it reads "worker": a process just forked still has
                # its parent's command line until it starts its own program)
                known = self.seen.get(p)
                role = known[0] if known and known[0] != "worker" else _role(p, self.pid)
                self.seen[p] = (role, s)
            self._stop.wait(self.every)

    def __enter__(self) -> ProcessCpu:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _bit_range(domain: str) -> tuple[int, int]:
    """(lo, hi) of an f16 domain "all" or "bits:LO:HI"."""
    if domain == "all":
        return 0, 0xFFFF
    lo, hi = (int(x, 0) for x in domain.split(":")[1:])
    return lo, hi


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--op", default="mul")
    ap.add_argument("--format", default="f16")
    ap.add_argument("--domain", default="bits:0x3800:0x3fff")
    ap.add_argument("--domain-b", default="bits:0:0xffff")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=None)
    ap.add_argument("--peer", action="store_true",
                    help="f16 mul: also run the C peer on the same pairs, compare summaries")
    ap.add_argument("--loop", action="store_true",
                    help="also time the worker loop in this process on the same inputs")
    args = ap.parse_args()
    print_header("sweep command: CPU seconds per process")
    with tempfile.TemporaryDirectory() as d:
        argv = [sys.executable, "-m", "fpinspector", "sweep", args.op, "-f", args.format,
                "-d", args.domain, "--summary-only", "--out", str(Path(d) / "s.npz"), "-q",
                "--workers", str(args.workers)]
        if args.domain_b:
            argv += ["--domain-b", args.domain_b]
        if args.chunk:
            argv += ["--chunk", str(args.chunk)]
        print(" ".join(argv[1:]))
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        with ProcessCpu(proc.pid) as cpu:
            _, err = proc.communicate()
        wall = time.perf_counter() - t0
        if proc.returncode:
            print(err.strip()[-800:])
            return 1
        summary = read_sweep_csv(Path(d) / "s.csv") if args.peer else None
    rows = sorted(cpu.seen.values(), key=lambda r: ("main resource fork worker".find(
        r[0].split()[0]), -r[1][0]))
    total_u = sum(s[0] for _, s in rows)
    total_s = sum(s[1] for _, s in rows)
    print(f"\nwall {wall:.2f} s; load average {load_average()}")
    print(f"{'process':18} {'user s':>8} {'system s':>9} {'minor faults':>13}")
    for role, (u, s, flt) in rows:
        print(f"{role:18} {u:8.2f} {s:9.2f} {flt:13d}")
    print(f"{'all':18} {total_u:8.2f} {total_s:9.2f}   = {total_u + total_s:.2f} CPU s")
    if summary is not None:
        exe = build()
        if exe is None:
            print("C peer: skipped (no C compiler on PATH)")
        else:
            a = _bit_range(args.domain)
            b = _bit_range(args.domain_b) if args.domain_b else a
            peer, p_wall, p_cpu = run_peer(exe, ["mul16", *map(hex, a), *map(hex, b)])
            diffs = differences(peer, summary)
            print(f"C peer: wall {p_wall:.2f} s, {p_cpu:.2f} CPU s; the command / the peer: "
                  f"{(total_u + total_s) / p_cpu:.2f}; summaries "
                  + ("DIFFER in " + ", ".join(diffs) if diffs else "agree"))
    if args.loop:
        from bench_sweep_per_core import run_model  # noqa: PLC0415

        lo, hi = _bit_range(args.domain)
        run_model("mul16", [(lo, min(hi, lo + 15))])  # warm-up
        m, summary = run_model("mul16", [(a, min(hi, a + 15)) for a in range(lo, hi + 1, 16)])
        n = summary.total
        print(f"worker loop, this process: {m:.2f} CPU s, {m / n * 1e9:.2f} ns an input; "
              f"the command: {(total_u + total_s) / n * 1e9:.2f} ns an input")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
