"""The error map fills while a sweep runs ("watch it fill"), from a bounded summary.

Why: the runner hands back the result only at the end; a wrapper around the stage folds
each finished chunk into a :class:`~.map_blocks.BlockMap` on the sweep's thread, and the
UI thread draws the blocks on a timer. Memory and drawing cost are those of the blocks
(at most 512 x 512, or 4096 points), whatever the sweep's size: all 2^32 f32 patterns
stream through without a per-element array.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .map_blocks import BlockMap

__all__ = ["BlockFeed"]


class BlockFeed:
    """Folds every chunk a stage finishes into ``blocks``.

    Notes
    -----
    Element offsets are counted in call order, so the sweep must evaluate its chunks in
    order on one stage thread (``run_sweep(..., workers=1)``, what the panel uses).
    """

    def __init__(self, blocks: BlockMap) -> None:
        self.blocks = blocks
        self._lock = threading.Lock()
        self._next = 0

    def wrap(self, stage: Callable[[tuple[np.ndarray, ...]], Mapping[str, Any]]
             ) -> Callable[[tuple[np.ndarray, ...]], Mapping[str, Any]]:
        """``stage`` that also folds its chunk into the blocks."""

        def live(operands: tuple[np.ndarray, ...]) -> Mapping[str, Any]:
            out = stage(operands)
            n = len(operands[0]) if operands else 0
            with self._lock:
                k0, self._next = self._next, self._next + n
            self.blocks.add(k0, operands, out)
            return out

        for name in ("timings", "arity"):  # what callers may read off the real stage
            if hasattr(stage, name):
                setattr(live, name, getattr(stage, name))
        return live

    def add(self, k0: int, k1: int, columns: Mapping[str, np.ndarray]) -> None:
        """``run_sweep(on_chunk=...)``: fold a chunk whose columns came back from the worker
        processes (called in element order on the sweep's thread; the operands are
        generated again here from the domain, which is cheap beside the stage)."""
        if not columns or k1 <= k0:
            return
        self.blocks.add(k0, self.blocks.domain.operands(k0, k1), columns)
        with self._lock:
            self._next = max(self._next, k1)

    def done(self) -> int:
        """Elements folded in so far."""
        with self._lock:
            return self._next
