"""Shared by the sweep benchmarks: a sample of the exhaustive order, and the peak memory of
a process tree (the sweep, its worker processes and its GPU process).

Why a sample in exhaustive order: an exhaustive 2^32 sweep hands out consecutive patterns
(each chunk one sign and exponent); a strided sample of single patterns hits other code
paths and extrapolates wrongly. :class:`ChunkSample` takes whole chunks spread evenly over
the pattern space instead (worker processes import it: keep it picklable).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import numpy as np

from fpinspector.model.sweep import Axis

try:  # (an fpinspector before worker processes: stage threads; for before/after runs)
    from fpinspector.model.sweep.processes import WorkerPool
    from fpinspector.model.sweep.runner import default_workers
except ImportError:  # pragma: no cover
    WorkerPool = None

    def default_workers() -> int:
        return 2


class ChunkSample:
    """``count`` runs of ``block`` consecutive patterns spread over every pattern of ``fmt``:
    run i lies in the i-th of ``count`` equal strides, at the block ``17 i mod B`` of its B
    blocks (every block place in turn), moved by half the places in the negative half. A
    domain for run_sweep.

    Why not the start of each stride: those are the zeros and denormals of both signs (the
    dearest elements, ~40x a normal one for f32 sqrt), twice what a whole sweep holds, and
    no NaN operand at all. Here, for 256 runs, exactly one run is denormal operands and
    one is NaN operands, as a sample of 1/32 of the patterns holds on average."""

    def __init__(self, fmt: str, count: int, block: int) -> None:
        self.axis = Axis.every(fmt)
        self.count, self.block = count, block
        self.stride = self.axis.n // count
        if block > self.stride:
            raise ValueError("runs overlap")
        places = self.stride // block
        half = (places // 2) if count > 1 else 0
        self.starts = [i * self.stride
                       + ((17 * i + (half if 2 * i >= count else 0)) % places) * block
                       for i in range(count)]

    @property
    def size(self) -> int:
        return self.count * self.block

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    @property
    def arity(self) -> int:
        return 1

    @property
    def axes(self) -> tuple[Axis]:
        return (self.axis,)

    @property
    def fraction(self) -> float:
        """The part of every pattern the sample covers (extrapolate by its inverse)."""
        return self.size / self.axis.n

    def operands(self, k0: int, k1: int) -> tuple[np.ndarray]:
        run, off = divmod(k0, self.block)
        if k1 > k0 and (k1 - 1) // self.block == run:  # one run: consecutive patterns
            lo = self.starts[run] + off
            return (np.arange(lo, lo + k1 - k0, dtype=np.uint64).astype(self.axis.fmt.dtype),)
        k = np.arange(k0, k1, dtype=np.int64)
        pats = np.asarray(self.starts, dtype=np.int64)[k // self.block] + k % self.block
        return (pats.astype(self.axis.fmt.dtype),)

    def describe(self) -> str:
        return f"sample:{self.count}x{self.block}"


def _pss_kib(pid: int) -> int | None:
    """Proportional set size (shared pages split among their processes), else RSS."""
    for name, key in (("smaps_rollup", "Pss:"), ("status", "VmRSS:")):
        try:
            for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
                if line.startswith(key):
                    return int(line.split()[1])
        except (OSError, ValueError):
            continue
    return None


def _children(pid: int) -> list[int]:
    """Descendants of ``pid`` (children of any of its threads: the GPU process is started
    from a capture thread)."""
    kids: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return []
    for task in tasks:
        try:
            kids += [int(x) for x in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return kids + [g for k in kids for g in _children(k)]


def _cpu_seconds(pid: int) -> float:
    """utime + stime of one process from /proc (0.0 where it cannot be read)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def tree_cpu_seconds(pid: int | None = None) -> float:
    """CPU seconds used so far by a process and its live descendants (Linux), else by this
    process alone."""
    pid = os.getpid() if pid is None else pid
    if not sys.platform.startswith("linux"):
        return time.process_time()
    return sum(_cpu_seconds(p) for p in [pid] + _children(pid))


class TreeMemory:
    """Samples the summed PSS of a process and its descendants every ``every`` seconds
    (Linux /proc; elsewhere only this process's peak RSS from ``resource``), and the CPU
    seconds each of them had used when last seen (:meth:`cpu_seconds`)."""

    def __init__(self, pid: int | None = None, every: float = 0.2) -> None:
        self.pid = os.getpid() if pid is None else pid
        self.every = every
        self.peak_kib = 0
        self.peak_procs = 0
        self._cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.available = sys.platform.startswith("linux")

    def _run(self) -> None:
        while not self._stop.is_set():
            pids = [self.pid] + _children(self.pid)
            sizes = [s for s in (_pss_kib(p) for p in pids) if s is not None]
            if sum(sizes) > self.peak_kib:
                self.peak_kib, self.peak_procs = sum(sizes), len(sizes)
            for p in pids:
                self._cpu[p] = max(self._cpu.get(p, 0.0), _cpu_seconds(p))
            self._stop.wait(self.every)

    def cpu_seconds(self) -> float:
        """CPU seconds of every process of the tree as last sampled (Linux; NaN elsewhere).
        Why sampled: a sweep's workers are children of multiprocessing's fork server,
        which the caller's RUSAGE_CHILDREN never counts; a process's last ``every``
        seconds before it exits are missed."""
        return sum(self._cpu.values()) if self.available else float("nan")

    def main_cpu_seconds(self) -> float:
        """CPU seconds of the sampled process itself (not its descendants), as last seen:
        the work that does not spread over the workers (Linux; NaN elsewhere)."""
        return self._cpu.get(self.pid, 0.0) if self.available else float("nan")

    def __enter__(self) -> TreeMemory:
        if self.available:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self.available:
            self._thread.join()

    def mib(self) -> float:
        if self.available:
            return self.peak_kib / 1024.0
        try:
            import resource  # noqa: PLC0415 - POSIX only
        except ImportError:
            return float("nan")
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def wall(fn) -> tuple[float, object]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def measured(run):
    """``run()`` (a sweep) with its wall seconds, the CPU seconds of every process of the
    tree and the tree's peak memory: (result, seconds, cpu seconds, TreeMemory)."""
    with TreeMemory() as mem:
        cpu0, t0 = tree_cpu_seconds(), time.perf_counter()
        res = run()
        total, cpu = time.perf_counter() - t0, tree_cpu_seconds() - cpu0
    return res, total, cpu, mem
