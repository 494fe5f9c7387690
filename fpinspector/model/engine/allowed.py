"""Allowed results as exact sets: pattern intervals and single points, -0 and +0 distinct.

Why sets and not a [lo, hi] hull: a hull says "everything in between is fine", which is
false for the D3D rules in several places (a divide's two-step route gives a zero OR the
quotient, not the values between; a fused op that overflows in every serial order gives
-INF, never +INF; a window that touches zero contains only the zero some evaluation
produces). The verdict, the printed set and the ULP error must never disagree, so all
three come from the one set built here.

Patterns are compared through ordered keys (``grid.to_key``: value order, -0 just below
+0), so an interval of keys is an interval of values with the zeros told apart.

:class:`AllowedArrays` holds the sets of many elements (vectorized, for verdicts);
:class:`AllowedSet` is one element's set, normalised and printable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..formats import FloatFormat
from . import grid

__all__ = ["AllowedArrays", "AllowedSet", "SplitSets", "denormal_keys"]


def denormal_keys(fmt: FloatFormat) -> tuple[int, int, int, int]:
    """Key ranges of the denormals: (neg_lo, neg_hi, pos_lo, pos_hi), inclusive.

    Positive denormals are patterns 1 .. 2^F - 1 (keys alike); negative ones are keys
    -2^F .. -2 (-0 is key -1). Unsigned formats have no negative range (empty: 0, -1).
    """
    top = (1 << fmt.frac_bits) - 1
    if not fmt.signed:
        return 0, -1, 1, top
    return -top - 1, -2, 1, top


@dataclass
class AllowedArrays:
    """The allowed sets of n elements (flat arrays of length n).

    An element's set is the union of:

    - ``windows``: key intervals ``(klo, khi, no_denormals)``; an interval with
      ``klo > khi`` is empty; with ``no_denormals`` its denormal patterns are left out
      (F32-FTZ: a denormal result must be flushed);
    - ``points``: single patterns ``(key, where)``: the key is allowed where ``where``;
    - ``nan``: any NaN pattern.
    """

    fmt: FloatFormat
    windows: list[tuple[np.ndarray, np.ndarray, bool]] = field(default_factory=list)
    points: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    nan: np.ndarray | None = None
    #: when set, the sets are exactly {this pattern} (+ any NaN where ``nan``): the
    #: windows hold the same, and a verdict is one comparison
    single: np.ndarray | None = None

    def contains(self, obs: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
        """Is each observed pattern in its element's set? ``idx`` maps observations to
        elements when several observations share one element."""
        sel = (lambda a: a) if idx is None else (lambda a: a[idx])
        fmt = self.fmt
        if self.single is not None:
            ok = np.equal(obs, sel(self.single))
            if self.nan is not None:
                nan = sel(self.nan)
                if nan.any():
                    ok |= nan & fmt.is_nan(obs)
            return ok
        k = grid.to_key(obs, fmt)
        ok = np.zeros(k.shape, dtype=bool)
        den = None
        for klo, khi, no_den in self.windows:
            m = k >= sel(klo)
            m &= k <= sel(khi)
            if no_den:
                if den is None:
                    den = grid.is_den(np.asarray(obs).astype(fmt.dtype), fmt)
                m &= ~den
            ok |= m
        for key, where in self.points:
            ok |= sel(where) & (k == sel(key))
        if self.nan is not None:
            nan = sel(self.nan)
            if nan.any():
                ok |= nan & fmt.is_nan(obs)
        return ok

    def all_points(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The points, with the single pattern (where set) as one more point."""
        if self.single is None:
            return self.points
        where = np.ones(self.single.size, dtype=bool) if self.nan is None else ~self.nan
        return self.points + [(grid.to_key(self.single, self.fmt), where)]

    def hull(self) -> tuple[np.ndarray, np.ndarray]:
        """Smallest and largest allowed key of each element (klo > khi: no number allowed).

        The hull is what ``Evaluation.lo``/``hi`` report; verdicts never use it.
        """
        n = self.size
        lo = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
        hi = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)
        for klo, khi, no_den in self.windows:
            a, b = klo, khi
            if no_den:
                a, b = _skip_denormals(klo, khi, self.fmt)
            ne = a <= b
            np.minimum(lo, np.where(ne, a, lo), out=lo)
            np.maximum(hi, np.where(ne, b, hi), out=hi)
        for key, where in self.all_points():
            np.minimum(lo, np.where(where, key, lo), out=lo)
            np.maximum(hi, np.where(where, key, hi), out=hi)
        return lo, hi

    @property
    def size(self) -> int:
        if self.single is not None:
            return int(self.single.size)
        if self.windows:
            return int(self.windows[0][0].size)
        if self.points:
            return int(self.points[0][0].size)
        return 0 if self.nan is None else int(self.nan.size)

    def at(self, i: int) -> AllowedSet:
        """The normalised set of element ``i``."""
        spans: list[tuple[int, int]] = []
        for klo, khi, no_den in self.windows:
            a, b = int(klo[i]), int(khi[i])
            if a > b:
                continue
            if no_den:
                spans += _minus_denormals(a, b, self.fmt)
            else:
                spans.append((a, b))
        for key, where in self.all_points():
            if where[i]:
                k = int(key[i])
                spans.append((k, k))
        nan = bool(self.nan[i]) if self.nan is not None else False
        nlo, nhi, plo, phi = denormal_keys(self.fmt)
        excluded = any(no_den and ((int(klo[i]) <= nhi and int(khi[i]) >= nlo)
                                   or (int(klo[i]) <= phi and int(khi[i]) >= plo))
                       for klo, khi, no_den in self.windows)
        return AllowedSet.from_keys(self.fmt, spans, nan, excluded)

    def take(self, idx: np.ndarray) -> AllowedArrays:
        """The sets of the elements ``idx`` (a new, smaller AllowedArrays)."""
        return AllowedArrays(
            self.fmt,
            [(a[idx], b[idx], d) for a, b, d in self.windows],
            [(k[idx], w[idx]) for k, w in self.points],
            None if self.nan is None else self.nan[idx],
            None if self.single is None else self.single[idx],
        )


class SplitSets:
    """The sets of n elements made of parts on disjoint element subsets, each its own
    :class:`AllowedArrays` (ordinary elements' lean sets beside the general code's).
    Same interface as AllowedArrays; nothing is copied into full-size arrays."""

    def __init__(self, fmt: FloatFormat, n: int, parts: list[tuple[np.ndarray, AllowedArrays]]
                 ) -> None:
        self.fmt = fmt
        self.n = n
        self.parts = parts
        self._index: tuple[np.ndarray, np.ndarray] | None = None

    def _element_index(self) -> tuple[np.ndarray, np.ndarray]:
        """element -> its part, and its index inside the part (built on first use: a
        verdict on every element in order never needs them)."""
        if self._index is None:
            where = np.empty(self.n, dtype=np.int8)
            pos = np.empty(self.n, dtype=np.int64)
            for k, (idx, _) in enumerate(self.parts):
                where[idx] = k
                pos[idx] = np.arange(idx.size)
            self._index = (where, pos)
        return self._index

    @property
    def size(self) -> int:
        return self.n

    @property
    def nan(self) -> np.ndarray:
        out = np.zeros(self.n, dtype=bool)
        for idx, sets in self.parts:
            if sets.nan is not None:
                out[idx] = sets.nan
        return out

    def contains(self, obs: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
        out = np.empty(obs.size, dtype=bool)
        if idx is None:
            for pidx, sets in self.parts:
                out[pidx] = sets.contains(obs[pidx])
            return out
        where, pos = self._element_index()
        part = where[idx]
        for k, (_, sets) in enumerate(self.parts):
            sel = np.flatnonzero(part == k)
            if sel.size:
                out[sel] = sets.contains(obs[sel], pos[idx[sel]])
        return out

    def hull(self) -> tuple[np.ndarray, np.ndarray]:
        lo = np.empty(self.n, dtype=np.int64)
        hi = np.empty(self.n, dtype=np.int64)
        for idx, sets in self.parts:
            lo[idx], hi[idx] = sets.hull()
        return lo, hi

    def at(self, i: int) -> AllowedSet:
        where, pos = self._element_index()
        return self.parts[int(where[i])][1].at(int(pos[i]))


def _minus_denormals(a: int, b: int, fmt: FloatFormat) -> list[tuple[int, int]]:
    """[a, b] without the denormal keys, as up to three intervals."""
    nlo, nhi, plo, phi = denormal_keys(fmt)
    out = []
    for lo, hi in ((a, min(b, nlo - 1)), (max(a, nhi + 1), min(b, plo - 1)), (max(a, phi + 1), b)):
        if lo <= hi:
            out.append((lo, hi))
    return out


def _skip_denormals(klo: np.ndarray, khi: np.ndarray, fmt: FloatFormat
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Smallest / largest non-denormal key of each interval (for the hull)."""
    nlo, nhi, plo, phi = denormal_keys(fmt)
    a = np.where((klo >= nlo) & (klo <= nhi), nhi + 1, klo)
    a = np.where((a >= plo) & (a <= phi), phi + 1, a)
    b = np.where((khi >= plo) & (khi <= phi), plo - 1, khi)
    b = np.where((b >= nlo) & (b <= nhi), nlo - 1, b)
    return a, b


@dataclass(frozen=True)
class AllowedSet:
    """One element's allowed results: sorted disjoint inclusive pattern ranges (value
    order; a single pattern is ``(p, p)``; -0 and +0 are distinct), plus ``any_nan``.

    ``ranges`` holds patterns, ``keys`` the same ranges as ordered keys. For an integer
    result (``format`` a code type such as "i32" or "unorm8") keys and ranges are the codes.
    """

    format: str
    keys: tuple[tuple[int, int], ...]
    any_nan: bool
    denormals_excluded: bool = False
    #: False when only the set's hull is known (an expression step judged by samples of a
    #: wide class): ``keys`` is then one range that holds the set
    exact: bool = True

    @classmethod
    def from_keys(cls, fmt: FloatFormat, spans: list[tuple[int, int]], nan: bool,
                  denormals_excluded: bool = False) -> AllowedSet:
        merged: list[list[int]] = []
        for a, b in sorted(spans):
            if merged and a <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        keys = tuple((a, b) for a, b in merged)
        return cls(fmt.name, keys, nan, denormals_excluded)

    @classmethod
    def from_runs(cls, fmt: FloatFormat, keys: np.ndarray, ok: np.ndarray,
                  nan: bool = False) -> AllowedSet:
        """The runs of True in ``ok`` over sorted distinct ordered ``keys``."""
        sel = np.asarray(keys, np.int64)[np.asarray(ok, bool)]
        spans: list[tuple[int, int]] = []
        if sel.size:
            breaks = np.flatnonzero(np.diff(sel) != 1)
            starts = np.concatenate([[0], breaks + 1])
            ends = np.concatenate([breaks, [sel.size - 1]])
            spans = [(int(sel[a]), int(sel[b])) for a, b in zip(starts, ends)]
        return cls.from_keys(fmt, spans, nan)

    @property
    def is_code(self) -> bool:
        from ..formats import FORMATS

        return self.format not in FORMATS

    @property
    def ranges(self) -> tuple[tuple[int, int], ...]:
        """The ranges as (low pattern, high pattern), in value order."""
        from ..formats import get_format

        if self.is_code:
            return self.keys
        fmt = get_format(self.format)
        pat = lambda k: int(grid.from_key(np.array([k], dtype=np.int64), fmt)[0])  # noqa: E731
        return tuple((pat(a), pat(b)) for a, b in self.keys)

    def contains(self, pattern: Any) -> bool:
        """Is this one pattern (or integer code) allowed?"""
        from ..formats import get_format

        if self.is_code:
            return any(a <= int(pattern) <= b for a, b in self.keys)
        fmt = get_format(self.format)
        p = np.asarray([int(pattern)], dtype=fmt.dtype)
        if bool(fmt.is_nan(p)[0]):
            return self.any_nan
        k = int(grid.to_key(p, fmt)[0])
        return any(a <= k <= b for a, b in self.keys)

    @property
    def is_empty(self) -> bool:
        return not self.keys and not self.any_nan

    def count(self) -> int:
        """Number of allowed non-NaN patterns."""
        return sum(b - a + 1 for a, b in self.keys)

    def describe(self, limit: int = 6) -> str:
        """Exact text: ``{-0}``, ``[0x3F7FFFFF (0.99999994), 0x3F800001 (1.0000001)]``,
        ``{+INF} ∪ any NaN``; values as the shortest decimal that reads back in the format.

        More than ``limit`` parts are shortened with a count of those left out.
        """
        if self.is_code:
            parts = [("{" + f"{a}" + "}") if a == b else f"[{a}, {b}]" for a, b in self.keys]
        else:
            parts = [_span_text(a, b, self.format) for a, b in self.ranges]
        if len(parts) > limit:
            parts = parts[: limit - 1] + [f"… ({len(parts) - limit + 1} more)", parts[-1]]
        if self.any_nan:
            parts.append("any NaN")
        text = " ∪ ".join(parts) if parts else "nothing (no result is allowed)"
        if self.denormals_excluded:
            text += " (denormals excluded: F32-FTZ)"
        return text

    def hex_text(self, limit: int = 6) -> str:
        """Patterns only, for step tables: ``0x3F800000`` / ``0x3F7FFFFF..0x3F800001 (3)`` /
        ``any NaN``, ranges in value order, at most ``limit`` of them; a hull says so."""
        w = (self._bits() + 3) // 4
        parts = [f"0x{a:0{w}X}" if ka == kb else f"0x{a:0{w}X}..0x{b:0{w}X} ({kb - ka + 1})"
                 for (a, b), (ka, kb) in zip(self.ranges[:limit], self.keys[:limit])]
        if len(self.keys) > limit:
            parts.append(f"... {len(self.keys) - limit} more ranges")
        if self.any_nan:
            parts.append("any NaN")
        text = " ∪ ".join(parts) if parts else "nothing"
        return text if self.exact else f"within {text} (hull)"

    def _bits(self) -> int:
        from ..formats import get_format

        return 32 if self.is_code else get_format(self.format).bits

    def __str__(self) -> str:
        return self.describe()


def _span_text(a: int, b: int, fmt_name: str) -> str:
    from ..describe import shortest_decimal
    from ..formats import get_format

    fmt = get_format(fmt_name)
    digits = (fmt.bits + 3) // 4

    def one(p: int) -> str:
        return f"0x{p:0{digits}X} ({_value_text(p, fmt, shortest_decimal)})"

    if a == b:
        return "{" + one(a) + "}"
    return f"[{one(a)}, {one(b)}]"


def _value_text(p: int, fmt: FloatFormat, shortest: Any) -> str:
    cls = str(fmt.classify(np.array([p], dtype=fmt.dtype))[0])
    neg = fmt.signed and (p >> (fmt.bits - 1)) & 1
    if cls == "zero":
        return "-0" if neg else "+0"
    if cls == "infinity":
        return "-INF" if neg else "+INF"
    return str(shortest(p, fmt))
