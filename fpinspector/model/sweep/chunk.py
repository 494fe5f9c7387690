"""One chunk of a sweep, the same wherever it runs (a stage thread or a worker process): its
operands, the stage's outputs, the summary's part of it and the caller's own reduction,
with the seconds each step took."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

__all__ = ["compute_chunk"]

Reduce = Callable[[int, tuple[np.ndarray, ...], Mapping[str, Any]], Any]


def compute_chunk(domain: Any, stage: Callable[..., Mapping[str, Any]], k0: int, k1: int,
                  prepare: Reduce | None, chunk_part: Reduce | None
                  ) -> tuple[tuple[np.ndarray, ...], Mapping[str, Any], Any, Any,
                             dict[str, float]]:
    """(operands, outputs, ``prepare(k0, operands, outputs)``, ``chunk_part(...)``, timings);
    a step given as None is skipped (None in its place). Exceptions propagate."""
    t0 = time.perf_counter()
    ops = domain.operands(k0, k1)
    t1 = time.perf_counter()
    out = stage(ops)
    t2 = time.perf_counter()
    prepared = prepare(k0, ops, out) if prepare is not None else None
    t3 = time.perf_counter()
    part = chunk_part(k0, ops, out) if chunk_part is not None else None
    return ops, out, prepared, part, {"domain": t1 - t0, "stage": t2 - t1,
                                      "summary_prepare": t3 - t2}
