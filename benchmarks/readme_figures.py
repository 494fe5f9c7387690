"""Measure again every figure the README states, the way the README says to get it.

Run: ``.venv/bin/python benchmarks/readme_figures.py [--check] [--tolerance 0.25]
[--workers N]``.

Each figure is a command from the README (checked to be there, word for word) run as a
separate process, timed by the wall clock, with the peak memory of its whole process tree
(proportional set size: shared pages counted once; the sweep's worker processes and GPU
process included) and the CPU time of all of them. The README's own numbers are read from
its text and printed beside the new ones, with the machine, the date and the load average
(the machine is shared: a busy one measures slower). ``--check`` exits 1 when a measured
figure is worse than the README's by more than the tolerance, or the README has changed
so that a figure or its command cannot be found. ``--workers N`` runs the commands with
that many sweep workers instead of one per core (the README's figures for fewer workers
on a many-core machine; ``--check`` still compares with the default's figures).

Beside each sweep it runs the C brute force of ``benchmarks/c_peer.py`` on the same inputs
(when a C compiler is on PATH), checks that its summary equals the sweep's, and prints both
runs' wall and CPU seconds, their ratio and the share of the CPU seconds spent by the
sweep's main process.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import c_peer  # noqa: E402
from _sweep_tools import TreeMemory  # noqa: E402
from _timing import Goals, load_average, print_header  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: (what, the README's command, the regex of its stated figures: seconds, MiB, the C peer's
#: arguments for the same inputs)
FIGURES = [
    ("exhaustive f32 sqrt sweep with the GPU (all 2^32 patterns, summaries only)",
     "fpinspector sweep sqrt -d all --gpu --summary-only --out sqrt.npz",
     r"took (?P<seconds>\d+(?:\.\d+)?) s with (?P<mib>\d+) MiB peak memory",
     ["sqrt", "0", "0xffffffff"]),
    ("exhaustive f16 x f16 mul sweep (all 2^32 pairs, summaries only, no GPU)",
     "fpinspector sweep mul -f f16 -d all --summary-only --out mul16.npz",
     r"f16 x f16 `mul` sweep above [^.]*? took (?P<seconds>\d+(?:\.\d+)?) s with "
     r"(?P<mib>\d+) MiB peak memory",
     ["mul16", "0", "0xffff", "0", "0xffff"]),
]


def _children_cpu() -> float:
    try:
        import resource
    except ImportError:  # (Windows: no per-child accounting)
        return float("nan")
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(command: str, tmp: Path, workers: int | None = None) -> dict[str, float | str]:
    """Run ``command`` (its ``fpinspector`` is this interpreter's, its output file in
    ``tmp``, ``--workers`` added if given): wall seconds, peak MiB of its process tree, CPU
    seconds, its last lines."""
    words = shlex.split(command)
    assert words[0] == "fpinspector"
    words = [w if not w.endswith(".npz") else str(tmp / w) for w in words[1:]]
    argv = [sys.executable, "-m", "fpinspector", *words, "-q"]
    if workers is not None:
        argv += ["--workers", str(workers)]
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with TreeMemory(proc.pid) as mem:
        out, err = proc.communicate()
    wall = time.perf_counter() - t0
    tail = "\n".join((out.strip().splitlines() or [""])[-2:])
    cpu = mem.cpu_seconds() if mem.available else _children_cpu() - cpu0
    csv_file = next((Path(w).with_suffix(".csv") for w in words if w.endswith(".npz")), None)
    return {"rc": proc.returncode, "seconds": wall, "mib": mem.mib(),
            "cpu": cpu, "main_cpu": mem.main_cpu_seconds(), "csv": csv_file,
            "tail": tail, "err": err.strip()[-500:]}


def compare_with_c_peer(got: dict, peer_args: list[str], goals: Goals, what: str) -> None:
    """The C brute force on the same inputs: its summary must equal the sweep's; both runs'
    wall and CPU seconds, their ratio, and the sweep's main-process share of its CPU."""
    exe = c_peer.build()
    if exe is None:
        print("  C peer: skipped (no C compiler on PATH)")
        return
    peer, wall, cpu = c_peer.run_peer(exe, peer_args)
    diffs = c_peer.differences(peer, c_peer.read_sweep_csv(got["csv"]))
    print(f"  C peer (gcc -O3 -fopenmp): {wall:.1f} s, CPU {cpu:.1f} s; summaries "
          + (f"DIFFER in {', '.join(diffs)}" if diffs else "agree"))
    share = got["main_cpu"] / got["cpu"] if got["cpu"] else float("nan")
    print(f"  fpinspector / C: wall {got['seconds'] / wall:.2f}x, CPU {got['cpu'] / cpu:.2f}x; "
          f"main process {got['main_cpu']:.1f} CPU s = {share:.1%} of the sweep's CPU seconds")
    goals.check(f"{what}: summary equals the C peer's", float(len(diffs)), 0.0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a figure is worse than the README's beyond --tolerance")
    ap.add_argument("--tolerance", type=float, default=0.25,
                    help="allowed excess over the README's figure (default 0.25 = 25%%)")
    ap.add_argument("--workers", type=int, default=None,
                    help="sweep workers for every command (default: the commands' own, one "
                         "per core)")
    args = ap.parse_args()
    print_header("readme_figures: every figure the README states, measured again")
    text = " ".join(README.read_text().split())
    goals = Goals()
    with tempfile.TemporaryDirectory() as tmp:
        for what, command, pattern, peer_args in FIGURES:
            extra = "" if args.workers is None else f" --workers {args.workers}"
            print(f"{what}\n  $ {command}{extra}")
            stated = re.search(pattern, text)
            in_readme = " ".join(command.split()) in text.replace(" \\ ", " ")
            if not in_readme or stated is None:
                print("  the README no longer has this command or its figures: update "
                      "FIGURES in benchmarks/readme_figures.py with the README")
                goals.check(f"{what}: found in the README", 0.0, 1.0, most=False)
                continue
            got = measure(command, Path(tmp), args.workers)
            if got["rc"] != 0:
                print(f"  failed (exit {got['rc']}): {got['err']}")
                goals.check(f"{what}: runs", 0.0, 1.0, most=False)
                continue
            secs, mib = float(stated["seconds"]), float(stated["mib"])
            print(f"  README: {secs:g} s, {mib:g} MiB | measured: {got['seconds']:.1f} s, "
                  f"{got['mib']:.0f} MiB peak (PSS of every process), CPU "
                  f"{got['cpu']:.0f} s | load average now {load_average()}")
            print("  " + str(got["tail"]).replace("\n", "\n  "))
            goals.check(f"{what}: seconds", float(got["seconds"]), secs * (1 + args.tolerance),
                        unit=" s")
            goals.check(f"{what}: MiB", float(got["mib"]), mib * (1 + args.tolerance),
                        unit=" MiB")
            compare_with_c_peer(got, peer_args, goals, what)
    return goals.exit_code(args.check)


if __name__ == "__main__":
    raise SystemExit(main())
