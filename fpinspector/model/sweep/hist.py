"""Histogram and class-count kernels of sweep summaries (split from summary.py).

Everything is vectorized per chunk; see :class:`~.summary.Summary` for how they are used.
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from ..engine.operand_rows import OperandRows
from ..formats import CLASS_NAMES, FloatFormat

__all__ = ["HIST_EDGES", "hist_labels", "histogram_counts", "class_counts", "row_class_counts"]

#: Upper edges of the |error| bins: 0 exactly, (0, .5], (.5, 1], (1, 2], ... (2^31, max], inf.
HIST_EDGES = np.array(
    [0.0, 0.5, 1.0] + [2.0**k for k in range(1, 32)] + [np.finfo(np.float64).max, np.inf]
)


def hist_labels() -> list[str]:
    """Readable name of each histogram bin (the last one counts NaN errors)."""
    out = ["0"]
    for lo, hi in zip(HIST_EDGES[:-3], HIST_EDGES[1:-2]):
        out.append(f"({lo:g},{hi:g}]")
    out += [f">{HIST_EDGES[-3]:g}", "inf", "nan"]
    return out


_INF = np.uint64(0x7FF0000000000000)  # |inf| bits; NaN magnitudes are above
_ABS = np.uint64(0x7FFFFFFFFFFFFFFF)
_HALF = np.uint64(0x3FE0000000000000)  # bits of 0.5
_NBINS = len(HIST_EDGES) + 1


def histogram_counts(err: np.ndarray) -> np.ndarray:
    """Counts of |err| per :data:`HIST_EDGES` bin plus a final NaN bin (int64).

    Why the bit trick: the bins are powers of two, so the bin of a positive float is the
    exponent of its predecessor plus one; integer ops on the float64 bits beat a search.
    """
    return _hist_key(np.asarray(err, dtype=np.float64).ravel())[0]


def _hist_key(e: np.ndarray, work: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(bin counts, |e| bits) in four in-place integer passes and one bincount (over
    the elements above 0.5 only, where they are few).

    ``m = bits & ~sign`` orders like ``|e|`` (NaNs above ``_INF``), so callers reuse it as
    the top-k key. ``(m - 1) >> 52`` is the biased exponent of the predecessor of ``|e|``
    (0..2046 finite, 2046 also for inf, 2047 NaN), and 4095 for zeros, which wrap.
    """
    u = e.view(np.uint64)
    if work is None or work.shape[1] < u.size:
        work = np.empty((2, u.size), np.uint64)
    m, w = work[0, : u.size], work[1, : u.size]
    np.bitwise_and(u, _ABS, out=m)
    big = np.greater(m, _HALF, out=w.view(np.bool_)[: u.size])
    nb = int(np.count_nonzero(big))
    if nb * 8 <= u.size:  # few |e| above 0.5 (a correctly rounded model: none; its
        # overflows: some): only those are binned, the rest is zeros and (0, 0.5]
        h = (_bins(m[np.flatnonzero(big)], np.empty(nb, np.uint64)) if nb
             else np.zeros(_NBINS, np.int64))
        h[0] = np.count_nonzero(np.equal(m, 0, out=big))
        h[1] = u.size - nb - h[0]
        return h, m
    return _bins(m, w), m


def _bins(m: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Bin counts of |e| bits ``m`` (``w``: scratch of the same size, overwritten)."""
    np.subtract(m, np.uint64(1), out=w)  # predecessor of |e| (zeros wrap to the top)
    infs = int(np.count_nonzero(w == _INF - np.uint64(1)))
    np.right_shift(w, np.uint64(52), out=w)
    c = np.bincount(w.view(np.int64), minlength=4096)
    h = np.zeros(_NBINS, np.int64)
    h[0] = c[4095]  # zeros
    h[1] = c[:1022].sum()  # (0, .5]: E <= 1021
    h[2:34] = c[1022:1054]  # (2^(j-1), 2^j] for j = 0..31: E = 1022 + j
    h[34] = c[1054:2047].sum() - infs  # (2^31, max]; the predecessor of inf lands here
    h[35] = infs
    h[36] = c[2047]  # NaN
    return h


def _class_edges(fmt: FloatFormat) -> tuple[int, int, int, int]:
    """The magnitudes where each class after zero begins (ascending): a pattern's class is
    the number of these its magnitude reaches (sign cleared), ``bisect_right``."""
    return (1, 1 << fmt.frac_bits, fmt.pos_inf, fmt.pos_inf + 1)


def _magnitude(fmt: FloatFormat, bits: np.ndarray) -> np.ndarray:
    b = np.asarray(bits)
    return b & b.dtype.type(_mag_mask(fmt)) if fmt.signed else b


def class_counts(fmt: FloatFormat, bits: np.ndarray) -> np.ndarray:
    """Counts per CLASS_NAMES (zero, denormal, normal, infinity, nan) without class codes:
    four comparisons on the magnitude, in the patterns' own dtype."""
    b = np.asarray(bits)
    n = b.size
    edges = _class_edges(fmt)
    mm = _mag_mask(fmt)
    # one class throughout (chunks of an exhaustive sweep): two reductions suffice, and
    # only where the first and last patterns share a class (else the reductions are
    # wasted passes: every B pattern of an f16 grid chunk, most chunks' results). The
    # patterns' own extremes give the magnitudes' where all share one sign (the sign bit
    # is then constant, so the magnitude orders as the pattern): no magnitude pass.
    flat = b.reshape(-1)
    if n and bisect_right(edges, int(flat[0]) & mm) == bisect_right(edges, int(flat[-1]) & mm):
        lo, hi = int(b.min()), int(b.max())
        if fmt.signed and (lo ^ hi) & fmt.sign_mask:  # both signs: the magnitudes'
            mag = _magnitude(fmt, b)
            lo, hi = int(mag.min()), int(mag.max())
        first = bisect_right(edges, lo & mm)
        if first == bisect_right(edges, hi & mm):
            out = np.zeros(5, dtype=np.int64)
            out[first] = n
            return out
    mag = _magnitude(fmt, b)
    zero = int(np.count_nonzero(mag == 0))
    below_normal = int(np.count_nonzero(mag < (1 << fmt.frac_bits)))
    below_inf = int(np.count_nonzero(mag < fmt.pos_inf))
    inf = int(np.count_nonzero(mag == fmt.pos_inf))
    return np.array([zero, below_normal - zero, below_inf - below_normal, inf,
                     n - below_inf - inf], dtype=np.int64)


def row_class_counts(fmt: FloatFormat, layout: OperandRows) -> list[np.ndarray]:
    """:func:`class_counts` of a grid chunk's two operands from their layout
    (engine/operand_rows.py): A's are its rows' classes times their lengths; B's are
    counted once a sweep on its whole axis, which a whole row adds (every row of the f16
    mul sweep's chunks); only a part of a row (a chunk's first or last) is counted on
    its part of the axis.

    Why: every chunk of an A x B grid holds B's patterns again (every f16 pattern in the
    f16 mul sweep: they span all classes, so :func:`class_counts` took its four-count
    path on every chunk's B)."""
    edges = _class_edges(fmt)
    mag = _mag_mask(fmt)
    counts_a = np.zeros(len(CLASS_NAMES), np.int64)
    counts_b = np.zeros(len(CLASS_NAMES), np.int64)
    axis = layout.b
    for a, s, e, c in layout.runs():
        counts_a[bisect_right(edges, int(a) & mag)] += e - s
        if e - s == len(axis):
            counts_b += axis.derived(("class counts", fmt.name),
                                     lambda p: class_counts(fmt, p))
        else:
            counts_b += class_counts(fmt, axis.patterns[c:c + e - s])
    return [counts_a, counts_b]


def _mag_mask(fmt: FloatFormat) -> int:
    """The bits of a pattern's magnitude (all of them for an unsigned format)."""
    return fmt.mask & ~fmt.sign_mask if fmt.signed else fmt.mask
