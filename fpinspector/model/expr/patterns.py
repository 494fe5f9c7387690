"""Pattern sets in value order: exact per-element allowed sets, shown as ranges.

Ranges are of the engine's ordered keys (:func:`..engine.grid.to_key`: value order, -0 just
below +0), so a range of keys is a range of values with the zeros told apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine.grid import from_key, to_key
from ..formats import FloatFormat

__all__ = ["PatternSet"]


@dataclass
class PatternSet:
    """A set of patterns: sorted disjoint inclusive key ranges plus "any NaN".

    ``ranges`` holds (lo_key, hi_key) pairs; ``exact`` is False when the set is only known
    as a hull (then :meth:`describe` says so).
    """

    fmt: FloatFormat
    ranges: list[tuple[int, int]] = field(default_factory=list)
    any_nan: bool = False
    exact: bool = True

    @classmethod
    def from_mask(cls, keys: np.ndarray, ok: np.ndarray, fmt: FloatFormat,
                  any_nan: bool) -> PatternSet:
        """Ranges of the runs of True in ``ok`` over sorted distinct ``keys``."""
        keys = np.asarray(keys, np.int64)
        sel = keys[np.asarray(ok, bool)]
        ranges: list[tuple[int, int]] = []
        if sel.size:
            breaks = np.flatnonzero(np.diff(sel) != 1)
            starts = np.concatenate([[0], breaks + 1])
            ends = np.concatenate([breaks, [sel.size - 1]])
            ranges = [(int(sel[s]), int(sel[e])) for s, e in zip(starts, ends)]
        return cls(fmt, ranges, bool(any_nan))

    def patterns(self) -> list[tuple[int, int]]:
        """The ranges as (lo_pattern, hi_pattern) pairs, in value order."""
        return [(int(from_key(a, self.fmt)), int(from_key(b, self.fmt)))
                for a, b in self.ranges]

    def contains(self, pattern: int) -> bool:
        p = np.asarray(pattern, dtype=self.fmt.dtype)
        if bool(self.fmt.is_nan(p)):
            return self.any_nan
        k = int(to_key(p, self.fmt))
        return any(lo <= k <= hi for lo, hi in self.ranges)

    def count(self) -> int:
        """Number of non-NaN patterns in the set."""
        return sum(hi - lo + 1 for lo, hi in self.ranges)

    def describe(self, limit: int = 6) -> str:
        """``0x3F800000`` / ``0x3F7FFFFF..0x3F800001 (3)`` / ``+ any NaN``, ranges in value
        order, at most ``limit`` of them."""
        w = (self.fmt.bits + 3) // 4
        parts = []
        for lo, hi in self.ranges[:limit]:
            a, b = (int(from_key(k, self.fmt)) for k in (lo, hi))
            parts.append(f"0x{a:0{w}X}" if lo == hi else f"0x{a:0{w}X}..0x{b:0{w}X} ({hi - lo + 1})")
        if len(self.ranges) > limit:
            parts.append(f"... {len(self.ranges) - limit} more ranges")
        if self.any_nan:
            parts.append("any NaN")
        text = " ∪ ".join(parts) if parts else "nothing"
        return text if self.exact else f"within {text} (hull)"

    def sat_image(self) -> PatternSet:
        """The set's image under ``_sat`` (EXPR-SAT: min(1, max(0, x)) with the min/max
        rules): NaN, negatives, zeros and denormals may give +0; -0 and negative denormals
        may stay -0 / themselves; denormals may stay; values >= 1 give 1.0."""
        f = self.fmt
        one = int(to_key(f.encode(1.0), f))
        maxden = (1 << f.frac_bits) - 1
        out: set[int] = set()
        kept: list[tuple[int, int]] = []
        pinf = int(to_key(f.pos_inf, f))
        ninf = -pinf - 1  # the key of -INF
        for lo, hi in self.ranges:
            if hi > pinf or lo < ninf:  # NaN patterns (a raw move keeps a payload): +0
                out.add(0)
                lo, hi = max(lo, ninf), min(hi, pinf)
                if lo > hi:
                    continue
            if lo <= maxden:  # a NaN-free value below the smallest normal: may give +0
                out.add(0)
            if lo <= -1 <= hi or (lo <= -2 and hi >= -1 - maxden):
                out.add(-1)  # -0 itself, or a negative denormal read as -0
            for a, b in ((-1 - maxden, maxden), (maxden + 1, one - 1)):
                x, y = max(lo, a), min(hi, b)
                if x <= y:
                    kept.append((x, y))
            if hi >= one:
                out.add(one)
        if self.any_nan:
            out.add(0)
        # join: kept ranges plus single keys, merged where they touch
        merged: list[list[int]] = []
        for x, y in sorted(kept + [(k, k) for k in out]):
            if merged and x <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], y)
            else:
                merged.append([x, y])
        return PatternSet(f, [(a, b) for a, b in merged], False, self.exact)
