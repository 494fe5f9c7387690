"""Mask helpers that avoid a mispredicted branch per element: writing one value into a
float64 array where a mask holds, and the indices where a mask holds."""

from __future__ import annotations

import numpy as np

__all__ = ["fill_where", "indices", "padded_mask", "word_indices"]


def fill_where(x: np.ndarray, mask: np.ndarray, value: float) -> None:
    """``x[mask] = value`` in place, on float64 ``x`` and a bool ``mask`` of its shape.

    Why: np.putmask, np.where and boolean indexing mispredict a branch on every element
    of a mask that is true about half the time (6x slower on 2^17 elements: NaN results of
    random patterns, NaN errors of a sqrt over both signs). Here the mask becomes 0 / all
    ones and the value's bits are and-ed and or-ed in: a few passes, no branch.
    """
    m = mask.view(np.uint8).astype(np.int64)
    xb = x.view(np.int64)
    bits = np.array(value, dtype=np.float64).view(np.int64)
    if not bits:  # +0: clear the bits where mask holds
        m -= 1  # all ones where mask does not hold
        xb &= m
        return
    np.negative(m, out=m)  # all ones where mask holds
    xb &= ~m
    xb |= m & bits


#: numpy's nonzero of a bool array takes a branchless loop when more than a tenth of the
#: elements are true, and a loop that skips to each true element (one mispredicted branch
#: per element, ~13 ns) at or below it (numpy/_core/src/multiarray/item_selection.c)
_NUMPY_SPARSE = 10
#: a mask whose true elements lie in runs this long on average (or longer) keeps numpy's
#: skipping loop (:func:`_in_runs`); 0: never
_RUN_LENGTH = 64
#: below 1/40 true the skipping loop is faster than the branchless one (2^17 elements,
#: fresh random masks: 21 us at 0.5%, 54 us branchless; at 9%: 166 us against 54)
_SKIP_BELOW = 40


def indices(mask: np.ndarray, count: int | None = None) -> np.ndarray:
    """``np.flatnonzero(mask)`` of a bool array (read flat), the same indices, faster when
    between 1/40 and 1/10 of the elements are true. ``count``: the number of true
    elements, when the caller has counted them already.

    Why: there numpy walks to each true element with a branch the CPU mispredicts (the
    differing elements of a mad against unfused results, 9% of them, took 166 us per
    2^17-element chunk). Padding the mask with enough true elements to pass numpy's
    threshold makes it take its branchless loop; the padding's indices are cut off.
    """
    mask = np.ravel(mask)
    n = mask.size
    c = int(np.count_nonzero(mask)) if count is None else count
    if c * _SKIP_BELOW <= n or c * _NUMPY_SPARSE > n or _in_runs(mask, c):
        return np.flatnonzero(mask)
    pad = (n - _NUMPY_SPARSE * c) // (_NUMPY_SPARSE - 1) + 64  # then c + pad > (n + pad) / 10
    padded = np.empty(n + pad, dtype=bool)
    padded[:n] = mask
    padded[n:] = True
    return np.flatnonzero(padded)[:c]


def _in_runs(mask: np.ndarray, c: int) -> bool:
    """Do the ``c`` true elements of flat bool ``mask`` lie in runs of at least
    :data:`_RUN_LENGTH` elements on average?

    Why: numpy's skipping loop mispredicts a branch per true element only where true and
    false elements alternate at random; along a run its branch is predicted, and it is the
    fastest way. The masks of a sweep chunk over a grid of patterns are such runs (the
    operands a fast kernel leaves to the reference path: INF and NaN ranges), where the
    padded branchless loop cost three times as much (2^17 elements, 3% true). The test is
    a compare of neighbours and a count, a fifth of the padded loop's cost.
    """
    if not _RUN_LENGTH:
        return False
    edges = int(np.count_nonzero(np.not_equal(mask[1:], mask[:-1])))
    return (edges + 2) * _RUN_LENGTH <= 2 * c


def padded_mask(n: int) -> np.ndarray:
    """A bool buffer for a mask of ``n`` elements (write it into ``buf[:n]``), padded with
    False to whole 8-element words: what :func:`word_indices` reads."""
    n8 = -(-n // 8) * 8
    buf = np.empty(n8, dtype=bool)
    buf[n:] = False
    return buf


#: :func:`word_indices` gives up where more than 1/_WORDS_SPARSE of the words hold a true
#: element (then a pass over the whole mask costs less than the words' candidates)
_WORDS_SPARSE = 64
_EIGHT = np.arange(8, dtype=np.intp)


def word_indices(buf: np.ndarray) -> np.ndarray | None:
    """The indices of the true elements of a :func:`padded_mask` buffer, found by its
    8-element words (the mask read as uint64: an eighth of the elements to scan), or None
    where they are not sparse (more than 1/64 of the words hold one). No true element: an
    empty array, before any candidate is made (most chunks' NaN errors: a fixed cost).

    Why: a sweep chunk's few true elements (NaN errors, a kernel's left-over operands) lie
    in runs, where numpy's flatnonzero of the whole mask and its count cost more than
    the words' scan and the candidates' gather.
    """
    words = np.flatnonzero(buf.view(np.uint64) != 0)  # (numpy scans bools fastest)
    if not words.size:
        return words
    if words.size * _WORDS_SPARSE >= buf.size:
        return None
    cand = ((words * 8)[:, None] + _EIGHT).ravel()
    return cand[buf[cand]]
