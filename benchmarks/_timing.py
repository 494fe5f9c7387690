"""Shared timing for the benchmark scripts: best of N runs, the machine and its load, goals.

The machine is shared (other people's test runs), so every script prints best-of-N
timings, the load average before and after, the machine and the date, and the ratio of
each figure to its baseline (numpy, a bare moderngl dispatch); ``--check`` makes a script
exit 1 when a goal is missed. Not run in CI: CI machines are too noisy for timings.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def best_of(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Shortest of ``repeat`` timings of ``fn()`` by ``clock`` (wall by default, or CPU time)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best


def best_interleaved(fns: dict[str, Callable[[], object]], repeat: int,
                     clock: Callable[[], float] = time.process_time) -> dict[str, float]:
    """Shortest of ``repeat`` timings of each function, run in turn within every round.

    Why: on a shared machine the load changes within seconds; timing the baseline and
    the measured code side by side in each round lets both see the same neighbours, so
    their ratio moves far less than with all of one, then all of the other. Each round
    starts one function further on, so none always runs right after the same other one:
    on an NVIDIA H200 a GPU capture run right after one that frees a 64 MiB array every
    call was 1.18-1.20x the bare dispatch, and 0.95x run last of six.
    """
    best = {name: float("inf") for name in fns}
    items = list(fns.items())
    for r in range(repeat):
        for name, fn in items[r % len(items):] + items[:r % len(items)]:
            t0 = clock()
            fn()
            best[name] = min(best[name], clock() - t0)
    return best


def best_cpu(fn: Callable[[], object], repeat: int) -> float:
    """Shortest CPU time of this process (all threads) over ``repeat`` runs of ``fn()``."""
    return best_of(fn, repeat, time.process_time)


def load_average() -> str:
    """The 1/5/15-minute load averages, or "n/a" where the OS has none (Windows)."""
    try:
        return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except (AttributeError, OSError):
        return "n/a"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit() -> str:
    """The commit of the fpinspector being measured (PYTHONPATH may point at another tree)."""
    try:
        import fpinspector

        where = Path(fpinspector.__file__).resolve().parent
    except ImportError:
        where = ROOT
    try:
        out = subprocess.run(["git", "-C", str(where), "describe", "--always", "--dirty"],
                             capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def _bytecode_cached() -> bool:
    """Whether fpinspector's modules have compiled bytecode beside them (a package that pip
    installed has; a checkout run with PYTHONDONTWRITEBYTECODE set never gets it)."""
    import importlib.util

    import fpinspector.model

    source = fpinspector.model.__file__ or ""
    return bool(source) and os.path.exists(importlib.util.cache_from_source(source))


def print_header(title: str) -> None:
    """Title, date, machine, load average, Python / numpy versions and the commit."""
    import numpy as np

    now = _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    print(f"== {title}")
    print(f"date {now} | {platform.system()} {platform.release()} | {_cpu_model()}, "
          f"{os.cpu_count()} logical cores")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, fpinspector at {_commit()} | "
          f"load average {load_average()}")
    if sys.flags.dont_write_bytecode and not _bytecode_cached():
        print("bytecode not cached (PYTHONDONTWRITEBYTECODE): each new process compiles "
              "fpinspector's modules from source (about 0.3 CPU s of the sweep command's start "
              "on the project's 2-core EPYC), which an installed package does not")
    sys.stdout.flush()


def add_arguments(ap: argparse.ArgumentParser, repeat: int = 5) -> None:
    """``--repeat`` (best of N) and ``--check`` (exit 1 when a goal is missed)."""
    ap.add_argument("--repeat", type=int, default=repeat, help=f"best of N runs (default {repeat})")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a goal is missed (timings: not for CI)")


class Goals:
    """Goals checked by a benchmark: each prints one line; ``exit_code`` sums them up."""

    def __init__(self) -> None:
        self.missed: list[str] = []
        self.checked = 0

    def check(self, label: str, value: float, goal: float, *, most: bool = True,
              unit: str = "") -> bool:
        """Value at most (``most``) or at least ``goal``; prints "met" or "MISSED"."""
        met = value <= goal if most else value >= goal
        self.checked += 1
        if not met:
            self.missed.append(label)
        sign = "<=" if most else ">="
        print(f"  goal {label}: {value:.3g}{unit} (goal {sign} {goal:g}{unit}) "
              f"{'met' if met else 'MISSED'}")
        return met

    def exit_code(self, check: bool) -> int:
        """Print the load average again and the goals' summary; 1 when ``check`` and a goal
        was missed, else 0."""
        print(f"load average at the end {load_average()}; goals met "
              f"{self.checked - len(self.missed)}/{self.checked}"
              + (f"; missed: {', '.join(self.missed)}" if self.missed else ""))
        return 1 if check and self.missed else 0
