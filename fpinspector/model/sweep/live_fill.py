"""The error map fills while a sweep runs ("watch it fill"), from a bounded summary.

Why: the runner hands back the result only at the end. Each finished chunk is reduced to
its blocks where it was computed (``run_sweep(chunk_part=BlockGrid.part)``: a stage thread,
or a worker process on another core), and the parts are merged into a
:class:`~.map_blocks.BlockMap` on the sweep's thread, in element order; the UI thread draws
the blocks on a timer. Memory and drawing cost are those of the blocks (at most 512 x 512,
or 65,536 points), whatever the sweep's size: all 2^32 f32 patterns stream through without
a per-element array.
"""

from __future__ import annotations

import threading
from typing import Any

from .map_blocks import BlockMap

__all__ = ["BlockFeed"]


class BlockFeed:
    """Merges every chunk's block part into ``blocks`` and counts the elements done."""

    def __init__(self, blocks: BlockMap) -> None:
        self.blocks = blocks
        self._lock = threading.Lock()
        self._next = 0

    @property
    def chunk_part(self) -> Any:
        """What the runner computes beside each chunk (``run_sweep(chunk_part=...)``)."""
        return self.blocks.grid.part

    def on_part(self, k0: int, k1: int, part: Any) -> None:
        """``run_sweep(on_part=...)``: fold one chunk's part (element order)."""
        self.blocks.merge(part)
        with self._lock:
            self._next = max(self._next, k1)

    def done(self) -> int:
        """Elements folded in so far."""
        with self._lock:
            return self._next
