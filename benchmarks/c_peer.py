"""fpinspector's exhaustive sweeps next to the C brute force a user would write instead.

Run: ``.venv/bin/python benchmarks/c_peer.py [--full] [--workers N]`` (N: fpinspector's
workers and the peer's OpenMP threads; by default every core for both).

Builds ``benchmarks/c_peer/sweep_peer.c`` with the C compiler found on PATH (``cc``, ``gcc``
or ``clang``; -O3 -march=native -fopenmp; skipped with a message where there is none), runs
it and ``fpinspector sweep ... --summary-only`` on the same inputs, checks that the two
summaries agree (|error| histogram, max |error|, operand and result classes, non-conformant
count) and prints wall seconds, CPU seconds of every process, their ratio and the share of
the CPU seconds that fpinspector's main process spent (the part that does not shrink with
more cores). Without ``--full`` the ranges are 2^24 f32 patterns and 2^8 x 2^16 f16 pairs;
with it the README's two sweeps (all 2^32 f32 patterns, all 2^32 f16 pairs).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _sweep_tools import TreeMemory  # noqa: E402
from _timing import print_header  # noqa: E402

SOURCE = Path(__file__).resolve().parent / "c_peer" / "sweep_peer.c"
#: (name, the peer's arguments, fpinspector's sweep arguments); small and --full ranges
SWEEPS = {
    False: [
        ("f32 sqrt, 2^24 patterns", ["sqrt", "0x7f000000", "0x7fffffff"],
         ["sqrt", "-d", "bits:0x7f000000:0x7fffffff"]),
        ("f16 x f16 mul, 2^8 x 2^16 pairs", ["mul16", "0x3b80", "0x3c7f", "0", "0xffff"],
         ["mul", "-f", "f16", "-d", "bits:0x3b80:0x3c7f", "--domain-b", "bits:0:0xffff"]),
    ],
    True: [
        ("f32 sqrt, all 2^32 patterns", ["sqrt", "0", "0xffffffff"], ["sqrt", "-d", "all"]),
        ("f16 x f16 mul, all 2^32 pairs", ["mul16", "0", "0xffff", "0", "0xffff"],
         ["mul", "-f", "f16", "-d", "all"]),
    ],
}
_CLASSES = ("zero", "denormal", "normal", "infinity", "nan")


def build() -> Path | None:
    """The peer's binary (cached by the source's hash), or None with no C compiler."""
    cc = next((c for c in (os.environ.get("CC"), "cc", "gcc", "clang") if c and shutil.which(c)),
              None)
    if cc is None:
        return None
    tag = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:12]
    exe = Path(tempfile.gettempdir()) / f"fpinspector-c-peer-{tag}"
    if exe.exists():
        return exe
    for flags in (["-O3", "-march=native", "-fopenmp"], ["-O3", "-fopenmp"], ["-O3"]):
        tmp = exe.with_name(f"{exe.name}.{os.getpid()}.tmp")
        r = subprocess.run([cc, *flags, str(SOURCE), "-o", str(tmp), "-lm"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            tmp.replace(exe)
            return exe
    return None


def run_peer(exe: Path, args: list[str], threads: int | None = None
             ) -> tuple[dict[str, Any], float, float]:
    """The peer's summary, wall seconds and CPU seconds (``threads``: its OpenMP threads,
    as many as fpinspector's workers; None: OpenMP's default, every core)."""
    env = dict(os.environ)
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    before = os.times()
    t0 = time.perf_counter()
    out = subprocess.run([str(exe), *args], capture_output=True, text=True, check=True,
                         env=env).stdout
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system
                                                           - before.children_system)
    return json.loads(out), wall, cpu


def read_sweep_csv(path: Path) -> dict[str, Any]:
    """fpinspector's summary CSV in the peer's shape."""
    rows = list(csv.reader(path.open(newline="", encoding="utf-8")))[1:]
    hist = [int(v) for s, _, v in rows if s == "histogram:err_model"]
    out: dict[str, Any] = {"histogram": hist}
    meta = {k: v for s, k, v in rows if s == "meta"}
    out["elements"] = int(meta["elements"])
    for section in ("operand0_class", "operand1_class", "model_class"):
        got = {k: int(v) for s, k, v in rows if s == section}
        if got:
            out[section] = [got[c] for c in _CLASSES]
    # the model's non-conformant results (the peer computes the model, not a GPU): with
    # --gpu the summary's own count is the GPU's (llvmpipe keeps denormals, say)
    ok_model = [int(v) for s, k, v in rows if s == "conformant" and k == "ok_model"]
    out["nonconformant"] = (out["elements"] - ok_model[0] if ok_model else
                            next(int(v) for s, k, v in rows if s == "nonconformant"))
    out["max_error"] = next(float(v) for s, k, v in rows if s == "max_error" and k == "err_model")
    return out


def differences(peer: dict[str, Any], fpi: dict[str, Any]) -> list[str]:
    """Where the two summaries disagree (max |error| to 1e-12 relative: the peer's exact
    value is its own double arithmetic)."""
    diffs = [k for k in peer if k != "max_error" and peer[k] != fpi.get(k)]
    a, b = peer["max_error"], fpi["max_error"]
    if not (a == b or abs(a - b) <= 1e-12 * abs(b)):
        diffs.append("max_error")
    return diffs


def run_fpinspector(args: list[str], tmp: Path, workers: int | None) -> dict[str, Any]:
    """``fpinspector sweep ARGS --summary-only`` as its own process: summary, wall seconds,
    CPU seconds of its whole process tree and of its main process alone."""
    out = tmp / "sweep.npz"
    argv = [sys.executable, "-m", "fpinspector", "sweep", *args, "--summary-only",
            "--out", str(out), "-q"]
    if workers:
        argv += ["--workers", str(workers)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    with TreeMemory(proc.pid, every=0.1) as tree:
        _, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"fpinspector sweep failed: {err.strip()[-400:]}")
    return {"summary": read_sweep_csv(out.with_suffix(".csv")), "wall": wall,
            "cpu": tree.cpu_seconds(), "main_cpu": tree.main_cpu_seconds()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="the README's 2^32 sweeps")
    ap.add_argument("--workers", type=int, default=None,
                    help="fpinspector's sweep workers, and the peer's OpenMP threads")
    args = ap.parse_args()
    print_header("C brute force vs fpinspector sweep")
    exe = build()
    if exe is None:
        print("skipped: no C compiler (cc, gcc or clang) on PATH")
        return 0
    status = 0
    with tempfile.TemporaryDirectory() as d:
        for name, peer_args, fpi_args in SWEEPS[args.full]:
            peer, p_wall, p_cpu = run_peer(exe, peer_args, args.workers)
            fpi = run_fpinspector(fpi_args, Path(d), args.workers)
            diffs = differences(peer, fpi["summary"])
            status |= bool(diffs)
            print(f"\n{name}: summaries {'DIFFER in ' + ', '.join(diffs) if diffs else 'agree'}")
            print(f"  {'':14} {'wall s':>8} {'CPU s':>8}  main process")
            print(f"  {'C peer':14} {p_wall:8.2f} {p_cpu:8.2f}")
            share = fpi["main_cpu"] / fpi["cpu"] if fpi["cpu"] else float("nan")
            print(f"  {'fpinspector':14} {fpi['wall']:8.2f} {fpi['cpu']:8.2f}  "
                  f"{fpi['main_cpu']:.2f} s ({share:.1%} of the CPU seconds)")
            print(f"  ratio          {fpi['wall'] / p_wall:8.2f} {fpi['cpu'] / p_cpu:8.2f}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
