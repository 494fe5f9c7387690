"""Exact allowed sets of one element of a step, as value-ordered pattern ranges.

The engine's own per-element set (``Evaluation.allowed_set``) is used for the engine's
ops; for ``movc`` and ``f32tof16`` (a uint holding an f16 pattern) it is rebuilt from the
verdicts: the hull (lowest..highest allowed pattern) is cut into classes (negative normals,
negative denormals, -0, +0, positive denormals, positive normals); narrow pieces are judged
pattern by pattern, wide ones by their ends and middle (the engine's window is contiguous
inside a class, and denormals are allowed all together or not at all), plus the patterns a
hull can miss (signed zeros, denormal ends, the operands). ``_sat`` maps the set through
:func:`sat_image` (in :meth:`.step_eval.StepEval.allowed_set`). The sets are the engine's
:class:`~..engine.AllowedSet` (shown as patterns: ``AllowedSet.hex_text``).
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

import numpy as np

from ..engine import AllowedSet, Evaluation
from ..engine.conversions import ConvEvaluation
from ..engine.grid import from_key, to_key
from ..formats import FloatFormat
from .program import Step

__all__ = ["OneElementStep", "element_allowed_set", "sat_image", "REGION_LIMIT"]


class OneElementStep(Protocol):
    """What the sets are built from: a step evaluated on one element's operands (a
    :class:`~.step_eval.StepEval` of shape ``()``)."""

    step: Step
    inputs: list[np.ndarray]
    ev: Evaluation | ConvEvaluation | None
    modified_nan: np.ndarray

    def inner_allowed(self, obs: np.ndarray) -> np.ndarray: ...

    def hull(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


def element_allowed_set(one: OneElementStep, f: FloatFormat) -> AllowedSet:
    """The exact conformant set of ``one``'s result before ``_sat``, in format ``f``."""
    ev = one.ev
    nan_extra = bool(one.modified_nan)
    if ev is not None and one.step.kind != "half":
        aset = ev.allowed_set(0)  # (its patterns, read as keys of the step's format f)
        keys = [(int(to_key(lo, f)), int(to_key(hi, f))) for lo, hi in aset.ranges]
        return AllowedSet.from_keys(f, keys, bool(aset.any_nan) or nan_extra)
    lo, hi, nan_ok = one.hull()
    any_nan = bool(np.asarray(nan_ok))
    half = one.step.kind == "half"
    to_f = (lambda p: np.asarray(p).astype(np.uint16)) if half else \
        (lambda p: np.asarray(p).astype(f.dtype))
    if f.is_nan(to_f(lo)):
        return AllowedSet.from_keys(f, [], any_nan)
    klo, khi = int(to_key(to_f(lo), f)), int(to_key(to_f(hi), f))
    def verdict(keys: np.ndarray) -> np.ndarray:
        pats = from_key(keys, f)
        return np.asarray(one.inner_allowed(pats.astype(np.uint32) if half else pats))

    maxden = f.frac_mask
    probes = [0, -1, 1, -2, maxden, -1 - maxden]
    probes += [int(to_key(to_f(x), f)) for x in one.inputs if np.asarray(x).dtype != bool]
    ranges: list[tuple[int, int]] = []
    exact = True
    for r0, r1 in _regions(klo, khi, maxden):
        if r1 - r0 < REGION_LIMIT:
            ks = np.arange(r0, r1 + 1, dtype=np.int64)
            ranges += AllowedSet.from_runs(f, ks, verdict(ks)).keys
            continue
        v = verdict(np.array([r0, (r0 + r1) // 2, r1], np.int64))
        if v.any():  # all three: the whole class piece; some: only the hull is known
            exact = exact and bool(v.all())
            ranges.append((r0, r1))
    extra = np.array(sorted({p for p in probes if not klo <= p <= khi}), np.int64)
    if extra.size:
        ranges += [(int(p), int(p)) for p, good in zip(extra, verdict(extra)) if good]
    if not exact:
        return AllowedSet(f.name, ((klo, khi),), any_nan, exact=False)
    return AllowedSet.from_keys(f, ranges, any_nan)


def sat_image(s: AllowedSet, f: FloatFormat) -> AllowedSet:
    """The set's image under ``_sat`` (EXPR-SAT: min(1, max(0, x)) with the min/max
    rules): NaN, negatives, zeros and denormals may give +0; -0 and negative denormals
    may stay -0 / themselves; denormals may stay; values >= 1 give 1.0."""
    one = int(to_key(f.encode(1.0), f))
    maxden = (1 << f.frac_bits) - 1
    out: set[int] = set()
    kept: list[tuple[int, int]] = []
    pinf = int(to_key(f.pos_inf, f))
    ninf = -pinf - 1  # the key of -INF
    for lo, hi in s.keys:
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
    if s.any_nan:
        out.add(0)
    image = AllowedSet.from_keys(f, kept + [(k, k) for k in out], False)
    return dataclasses.replace(image, exact=s.exact)


#: regions wider than this are judged by their ends and middle (the engine's window is
#: contiguous within a class: normals, denormals, each zero)
REGION_LIMIT = 1 << 16


def _regions(klo: int, khi: int, maxden: int) -> list[tuple[int, int]]:
    """[klo, khi] cut at the class borders: -normals, -denormals, -0, +0, +denormals, +normals."""
    cuts = [(-(1 << 62), -2 - maxden), (-1 - maxden, -2), (-1, -1), (0, 0), (1, maxden),
            (maxden + 1, 1 << 62)]
    out = []
    for a, b in cuts:
        x, y = max(a, klo), min(b, khi)
        if x <= y:
            out.append((x, y))
    return out
