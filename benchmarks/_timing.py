"""Shared timing for the benchmark scripts: best of N runs (the machine is shared)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Shortest of ``repeat`` timings of ``fn()`` by ``clock`` (wall by default, or CPU time)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best
