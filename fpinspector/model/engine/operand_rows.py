"""Two operands made of rows: how a chunk of an A x B grid was built from its two axes.

Why: a chunk of a sweep over A x B (sweep/domain.py's ``GridDomain``) is a few runs of
elements with one A pattern each and B taken in order from one axis, the same axis every
chunk. Work that depends on one operand alone (decoding B's patterns, B's finite mask, the
classes of the operands) is then done once per run for A and once per sweep for B, instead
of once per element in every chunk. :class:`OperandRows` says how the chunk was built;
:class:`OperandAxis` holds B's patterns and what was derived from them.

The flat operands are still made (``OperandRows.operands``): the rest of the engine reads
them element by element. Results are the same either way (tests/model/test_operand_rows.py
checks each structured step against the flat computation).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

import numpy as np

__all__ = ["OperandAxis", "OperandRows"]


class OperandAxis:
    """One operand axis: its patterns (1-D, read-only) and values derived from them, each
    made once (:meth:`derived`).

    Why it may keep them: the patterns are this object's own read-only copy (nothing
    writes to them), so nothing derived from them goes stale. What was derived is not
    pickled with the patterns (a worker process derives its own on first use).
    """

    def __init__(self, patterns: np.ndarray) -> None:
        p = np.array(patterns, copy=True).reshape(-1)
        p.flags.writeable = False
        self.patterns = p
        self._memo: dict[Hashable, Any] = {}

    def __len__(self) -> int:
        return int(self.patterns.size)

    def derived(self, key: Hashable, make: Callable[[np.ndarray], Any]) -> Any:
        """``make(patterns)``, computed on the first call with this ``key`` and kept.

        ``key`` names what ``make`` computes (its inputs besides the patterns included,
        e.g. the format): two callers with the same key must want the same value. Arrays
        are kept read-only. Threads may race to make the first one: both make the same
        value, one is kept."""
        got = self._memo.get(key)
        if got is None:
            got = make(self.patterns)
            if isinstance(got, np.ndarray):
                got.flags.writeable = False
            self._memo[key] = got
        return got

    def __getstate__(self) -> dict[str, Any]:
        return {"patterns": self.patterns}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.patterns = state["patterns"]
        self.patterns.flags.writeable = False  # (pickle gives a writeable array back)
        self._memo = {}


class OperandRows:
    """Elements ``0..n-1`` of a two-operand chunk as runs: in run ``i``, elements
    ``starts[i]..starts[i + 1] - 1`` have operand A = ``a[i]`` and operand B =
    ``b.patterns[cols[i] : cols[i] + length]`` (each run within one pass over the axis).

    Parameters
    ----------
    a : ndarray
        The A pattern of each run (the operands' storage dtype).
    starts : sequence of int
        First element of each run, then ``n`` (increasing; ``len(a) + 1`` of them).
    cols : sequence of int
        First B index of each run.
    b : OperandAxis
        The axis B's patterns are taken from.
    """

    def __init__(self, a: np.ndarray, starts: tuple[int, ...], cols: tuple[int, ...],
                 b: OperandAxis) -> None:
        a = np.asarray(a).reshape(-1)
        if a.dtype != b.patterns.dtype:
            raise ValueError(f"rows of {a.dtype} patterns over a {b.patterns.dtype} axis")
        if len(starts) != a.size + 1 or len(cols) != a.size:
            raise ValueError("a run needs one A pattern, one start and one B column")
        for i in range(a.size):
            length = starts[i + 1] - starts[i]
            if length < 1 or not 0 <= cols[i] <= len(b) - length:
                raise ValueError(f"run {i} ({length} elements from column {cols[i]}) is not "
                                 f"inside the {len(b)}-pattern axis")
        if a.size and starts[0] != 0:
            raise ValueError("the first run starts at element 0")
        self.a, self.starts, self.cols, self.b = a, tuple(starts), tuple(cols), b

    @property
    def n(self) -> int:
        """Number of elements."""
        return self.starts[-1] if self.a.size else 0

    def runs(self) -> Iterator[tuple[Any, int, int, int]]:
        """(A pattern, first element, end element, first B column) of each run."""
        for i in range(self.a.size):
            yield self.a[i], self.starts[i], self.starts[i + 1], self.cols[i]

    def operands(self) -> tuple[np.ndarray, np.ndarray]:
        """The flat operands A and B of elements ``0..n-1`` (new arrays)."""
        lengths = [e - s for s, e in zip(self.starts, self.starts[1:])]
        a = np.repeat(self.a, lengths)
        b = np.empty(self.n, dtype=self.b.patterns.dtype)
        for _, s, e, c in self.runs():
            b[s:e] = self.b.patterns[c:c + e - s]
        return a, b

    def part(self, s: int, e: int) -> OperandRows:
        """The rows of elements ``s..e-1`` (renumbered from 0)."""
        if not 0 <= s <= e <= self.n:
            raise ValueError(f"element range {s}..{e} outside 0..{self.n}")
        a: list[Any] = []
        starts: list[int] = []
        cols: list[int] = []
        for pat, r0, r1, c in self.runs():
            lo, hi = max(r0, s), min(r1, e)
            if lo < hi:
                a.append(pat)
                starts.append(lo - s)
                cols.append(c + lo - r0)
        return OperandRows(np.array(a, dtype=self.a.dtype), (*starts, e - s), tuple(cols),
                           self.b)

    def describes(self, a: np.ndarray, b: np.ndarray) -> bool:
        """A cheap check that ``a`` and ``b`` are this layout's operands: their size and
        dtype, and the first and last element of every run (not every element: the
        operands are meant to be :meth:`operands`' own)."""
        if a.shape != (self.n,) or b.shape != (self.n,) or a.dtype != self.a.dtype \
                or b.dtype != self.a.dtype:
            return False
        p = self.b.patterns
        for pat, s, e, c in self.runs():
            if a[s] != pat or a[e - 1] != pat or b[s] != p[c] or b[e - 1] != p[c + e - s - 1]:
                return False
        return True
