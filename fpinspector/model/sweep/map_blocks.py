"""Error maps of bounded size: a sweep's errors reduced, chunk by chunk on the sweep's own
thread, to at most MAX_SIDE x MAX_SIDE blocks (a grid) or MAX_POINTS buckets (a unary
sweep: every f16 pattern on its own, every f32 pattern in buckets of 1/128 binade), for
every compared error at once.

Why: a 16M-point grid or all 2^32 f32 patterns must never be held (or signed-logged) per
element on the UI thread: drawing and switching the compared error read these few arrays.
A block shows its worst error (signed), and the element that has it is what a click loads.
Pure numpy: no Qt here.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..formats import FORMATS, FloatFormat
from .stages import COMPARES

__all__ = ["BlockGrid", "BlockMap", "ERROR_COLUMNS", "MAX_POINTS", "MAX_SIDE", "colorize", "signed_log"]

#: Blocks per side of a grid map (a 4096 x 4096 sweep: blocks of 8 x 8 elements).
MAX_SIDE = 512
#: Buckets of a unary map (every f16 pattern is a point; every f32 pattern: 2^16 patterns,
#: 1/128 binade, per bucket).
MAX_POINTS = 1 << 16
#: The error columns a map can compare (COMPARES' columns).
ERROR_COLUMNS = tuple(col for col, _ in COMPARES.values())


def signed_log(err: np.ndarray) -> np.ndarray:
    """sign(e) * log2(1 + |e|): keeps 0, +-0.5 and +-1 ULP apart while showing 2^20 steps."""
    e = np.asarray(err, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return np.sign(e) * np.log2(1.0 + np.abs(e))


def colorize(z: np.ndarray, m: float, lut: np.ndarray, marks: dict[str, np.ndarray],
             colors: dict[str, tuple[int, int, int, int]]) -> np.ndarray:
    """RGBA (uint8) of a map: ``z`` in [-m, m] through the colour table ``lut`` (n x 4),
    NaN transparent, then each mark's opaque colour in order (later marks win)."""
    n = len(lut)
    idx = np.clip(((np.nan_to_num(z, nan=0.0) + m) / (2 * m) * (n - 1)).round(), 0, n - 1)
    out = lut[idx.astype(np.intp)]
    out[np.isnan(z)] = 0
    for name, color in colors.items():
        mask = marks.get(name)
        if mask is not None and mask.any():
            out[mask] = color
    return out


class BlockGrid:
    """Which block each element of a sweep falls in, and one chunk reduced to its blocks.

    Why a class of its own: the reduction runs where the chunk was computed (a stage
    thread, or a sweep worker process: ``run_sweep(chunk_part=grid.part)``), so it must be
    small and pickle; the block arrays stay with the :class:`BlockMap` that merges the
    parts.
    """

    def __init__(self, domain: Any, result_format: str = "") -> None:
        self.domain = domain
        self.result_format = result_format
        if domain.arity == 2:
            na, nb = domain.shape
            self.fa, self.fb = math.ceil(na / MAX_SIDE), math.ceil(nb / MAX_SIDE)
            self.shape: tuple[int, ...] = (math.ceil(na / self.fa), math.ceil(nb / self.fb))
        else:
            n = domain.size
            self.fa, self.fb = 1, math.ceil(n / MAX_POINTS)
            self.shape = (math.ceil(n / self.fb),)

    def block_of(self, k: np.ndarray) -> np.ndarray:
        """Block index of flat element indices ``k``."""
        if self.domain.arity == 2:
            nb = self.domain.shape[1]
            return (k // nb // self.fa) * self.shape[1] + (k % nb) // self.fb
        return k // self.fb

    def part(self, k0: int, operands: tuple[np.ndarray, ...], out: Mapping[str, Any]
             ) -> tuple | None:
        """One finished chunk (elements ``k0...``) reduced to the run of blocks it touches:
        (first block, counts, per error column (hi, lo, peak, worst)); None when empty.

        Errors are reduced as they are and signed-logged per block afterwards (the
        transform is monotonic: the same extremes, a few values to transform); a chunk
        inside one block (an exhaustive f32 sweep's) takes whole-chunk reductions."""
        n = len(operands[0]) if operands else 0
        if n == 0:
            return None
        if self.domain.arity == 1:  # blocks follow the element order
            b0 = k0 // self.fb
            m = (k0 + n - 1) // self.fb - b0 + 1
            rel = None if m == 1 else np.arange(k0, k0 + n, dtype=np.int64) // self.fb - b0
        else:
            blk = self.block_of(np.arange(k0, k0 + n, dtype=np.int64))
            b0 = int(blk.min())
            rel = blk - b0
            m = int(rel.max()) + 1

        def count(mask: Any) -> np.ndarray:
            if rel is None:
                return np.array([np.count_nonzero(mask)], dtype=np.int64)
            return np.bincount(rel, weights=mask, minlength=m).astype(np.int64)

        ok = out.get("ok_gpu", out.get("ok_model"))
        res = out.get("gpu", out.get("model"))
        den = np.zeros(n, bool)
        for ax, ops in zip(self.domain.axes, operands):
            if isinstance(ax.fmt, FloatFormat):
                den |= np.asarray(ax.fmt.is_denormal(ops), bool)
        counts = {"count": (np.array([n], dtype=np.int64) if rel is None
                            else np.bincount(rel, minlength=m)),
                  "denormal": count(den)}
        if ok is not None:
            counts["bad"] = count(~np.asarray(ok, bool))
        rfmt = FORMATS.get(self.result_format)
        if res is not None and rfmt is not None:
            cls = np.asarray(rfmt.class_codes(np.asarray(res)))
            counts["inf"] = count(cls == 3)
            counts["nan"] = count(cls == 4)
        local = {}
        for c in ERROR_COLUMNS:
            if c not in out:
                continue
            e = np.asarray(out[c], dtype=np.float64)
            a = np.abs(e)
            worst = np.full(m, -1, dtype=np.int64)
            with np.errstate(invalid="ignore"):
                if rel is None:  # NaN errors never count (fmax/fmin skip them)
                    hi = np.array([np.fmax(-np.inf, np.fmax.reduce(e))])
                    lo = np.array([np.fmin(np.inf, np.fmin.reduce(e))])
                    peak = np.array([np.fmax(-1.0, np.fmax.reduce(a))])
                    if np.isfinite(peak[0]) and peak[0] >= 0:
                        worst[0] = k0 + int(np.flatnonzero(a == peak[0])[-1])
                else:
                    hi, lo, peak = np.full(m, -np.inf), np.full(m, np.inf), np.full(m, -1.0)
                    np.fmax.at(hi, rel, e)
                    np.fmin.at(lo, rel, e)
                    np.fmax.at(peak, rel, a)
                    hit = np.flatnonzero((a == peak[rel]) & np.isfinite(a))
                    worst[rel[hit]] = k0 + hit
            # signed_log(-1) is -1: blocks without an error keep peak -1
            local[c] = (signed_log(hi), signed_log(lo), signed_log(peak), worst)
        return b0, counts, local


class BlockMap:
    """Per-block summaries of one sweep, filled by :meth:`merge` (or :meth:`add`) as chunks
    finish.

    Per block and error column: the largest and smallest signed-log error and the element
    with the largest magnitude; per block: elements done, non-conformant results, NaN and
    infinite results, elements with a denormal input.
    """

    def __init__(self, domain: Any, result_format: str = "") -> None:
        self.grid = BlockGrid(domain, result_format)
        self.domain = domain
        self.result_format = result_format
        self.fa, self.fb, self.shape = self.grid.fa, self.grid.fb, self.grid.shape
        nblk = int(np.prod(self.shape))
        self.hi = {c: np.full(nblk, -np.inf) for c in ERROR_COLUMNS}
        self.lo = {c: np.full(nblk, np.inf) for c in ERROR_COLUMNS}
        self.peak = {c: np.full(nblk, -1.0) for c in ERROR_COLUMNS}
        self.worst = {c: np.full(nblk, -1, dtype=np.int64) for c in ERROR_COLUMNS}
        self.count = np.zeros(nblk, np.int64)
        self.bad = np.zeros(nblk, np.int64)
        self.nan = np.zeros(nblk, np.int64)
        self.inf = np.zeros(nblk, np.int64)
        self.denormal = np.zeros(nblk, np.int64)
        self.columns: set[str] = set()
        self.lock = threading.Lock()

    @property
    def exact(self) -> bool:
        """One element per block: the map shows every element as it is."""
        return self.fa == 1 and self.fb == 1

    def block_of(self, k: np.ndarray) -> np.ndarray:
        """Block index of flat element indices ``k``."""
        return self.grid.block_of(k)

    def elements_of(self, block: int) -> tuple[range, range] | range:
        """The rows and columns (grid) or the element range (unary) of one block."""
        if self.domain.arity == 2:
            na, nb = self.domain.shape
            r, c = divmod(int(block), self.shape[1])
            return (range(r * self.fa, min(na, (r + 1) * self.fa)),
                    range(c * self.fb, min(nb, (c + 1) * self.fb)))
        b = int(block)
        return range(b * self.fb, min(self.domain.size, (b + 1) * self.fb))

    # -- filling (the sweep's thread) ----------------------------------------------------
    def add(self, k0: int, operands: tuple[np.ndarray, ...], out: Mapping[str, Any]) -> None:
        """Fold one finished chunk (elements ``k0...``) into the blocks."""
        self.merge(self.grid.part(k0, operands, out))

    def merge(self, part: tuple | None) -> None:
        """Fold a chunk's :meth:`BlockGrid.part` into the blocks, in a few whole-array steps
        under the lock (the UI thread reading the map never waits on a chunk's work)."""
        if part is None:
            return
        b0, counts, local = part
        m = len(counts["count"])
        sl = slice(b0, b0 + m)
        with self.lock:
            for name, v in counts.items():
                getattr(self, name)[sl] += v
            for c, (hi, lo, peak, worst) in local.items():
                self.columns.add(c)
                np.fmax(self.hi[c][sl], hi, out=self.hi[c][sl])
                np.fmin(self.lo[c][sl], lo, out=self.lo[c][sl])
                better = peak > self.peak[c][sl]
                self.peak[c][sl] = np.where(better, peak, self.peak[c][sl])
                self.worst[c][sl] = np.where(better, worst, self.worst[c][sl])

    @classmethod
    def from_result(cls, result: Any, chunk: int = 1 << 18) -> BlockMap:
        """The blocks of a finished (or loaded) sweep that kept its per-element columns."""
        bm = cls(result.domain, str(result.meta.get("result_format", "")))
        n = result.n_done if not result.complete else result.domain.size
        for k0 in range(0, n, chunk):
            k1 = min(n, k0 + chunk)
            out = {name: col[k0:k1] for name, col in result.columns.items()}
            bm.add(k0, result.domain.operands(k0, k1), out)
        return bm

    # -- drawing (the UI thread) -------------------------------------------------------
    def values(self, column: str) -> tuple[np.ndarray, float]:
        """(signed-log worst error per block, NaN where none yet; the largest magnitude,
        at least 1) of one error column, shaped like the map."""
        with self.lock:
            hi, lo = self.hi[column].copy(), self.lo[column].copy()
        v = np.where(np.abs(hi) >= np.abs(lo), hi, lo)
        v[~np.isfinite(hi) & ~np.isfinite(lo)] = np.nan
        v[np.isinf(v)] = np.nan
        finite = v[np.isfinite(v)]
        m = max(float(np.abs(finite).max()) if finite.size else 1.0, 1.0)
        return v.reshape(self.shape), m

    def marks(self) -> dict[str, np.ndarray]:
        """Per block: which overlay marks apply (non-conformant, NaN, INF, denormal input)."""
        with self.lock:
            return {"nonconformant": (self.bad > 0).reshape(self.shape),
                    "nan": (self.nan > 0).reshape(self.shape),
                    "inf": (self.inf > 0).reshape(self.shape),
                    "denormal": (self.denormal > 0).reshape(self.shape)}

    def worst_element(self, column: str, block: int) -> int:
        """The element with the block's largest error (-1 when the block has none)."""
        return int(self.worst[column][int(block)])

    def block_at(self, k: int) -> int:
        return int(self.block_of(np.asarray([k], np.int64))[0])
