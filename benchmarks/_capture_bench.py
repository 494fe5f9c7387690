"""What the two capture benchmarks share (bench_gpu_capture: GL, bench_wgpu_capture:
WebGPU): the operands, the timing of the variants in turns, the table, and the check that
the bare dispatch and the capture computed the same products."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from _timing import best_interleaved


def random_words(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two columns of ``n`` random f32 words (every class: NaNs, denormals, ...)."""
    rng = np.random.default_rng(0)
    return (rng.integers(0, 2**32, n, dtype=np.uint32),
            rng.integers(0, 2**32, n, dtype=np.uint32))


def best_in_turns(runs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Best wall time of each callable after one warm-up round, the variants taking turns
    round after round (:func:`_timing.best_interleaved`), so that the machine's changing
    load hits them alike."""
    for fn in runs.values():
        fn()
    return best_interleaved(runs, repeat, clock=time.perf_counter)


def print_times(best: dict[str, float], n: int, baseline: str,
                compared: Callable[[str], bool] = lambda label: True) -> None:
    """One line per variant: ms, M elements/s and, where ``compared(label)``, the ratio to
    the ``baseline`` variant (when it ran)."""
    t_bare = best.get(baseline)
    width = max(len(label) for label in best)
    for label, t in best.items():
        ratio = f"  {t / t_bare:5.2f}x bare" if t_bare and compared(label) else ""
        print(f"  {label:{width}} {t * 1e3:8.1f} ms  {n / t / 1e6:8.1f} M elements/s{ratio}")


def check_same_products(ours: np.ndarray, bare: np.ndarray) -> None:
    """The capture and the bare dispatch computed the same f32 products. For NaN x NaN a
    shader compiler may pass either operand's NaN on (llvmpipe's choice differs between two
    shaders), so NaNs only match as NaNs."""
    nan = np.isnan(ours.view(np.float32)) & np.isnan(bare.view(np.float32))
    assert np.array_equal(ours[~nan], bare[~nan]), "bare dispatch and capture disagree"
