"""Exact allowed sets of one element of a step, as value-ordered pattern ranges.

The engine's own per-element set (``Evaluation.allowed_set``) is used for the engine's
ops; for ``movc`` and ``f32tof16`` (a uint holding an f16 pattern) it is rebuilt from the
verdicts: the hull (lowest..highest allowed pattern) is cut into classes (negative normals,
negative denormals, -0, +0, positive denormals, positive normals); narrow pieces are judged
pattern by pattern, wide ones by their ends and middle (the engine's window is contiguous
inside a class, and denormals are allowed all together or not at all), plus the patterns a
hull can miss (signed zeros, denormal ends, the operands). ``_sat`` maps the set through
:meth:`PatternSet.sat_image` (in :meth:`.step_eval.StepEval.allowed_set`).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..engine import AllowedSet, Evaluation
from ..engine.conversions import ConvEvaluation
from ..engine.grid import from_key, to_key
from ..formats import FloatFormat
from .patterns import PatternSet
from .program import Step

__all__ = ["OneElementStep", "element_allowed_set", "REGION_LIMIT"]


class OneElementStep(Protocol):
    """What the sets are built from: a step evaluated on one element's operands (a
    :class:`~.step_eval.StepEval` of shape ``()``)."""

    step: Step
    inputs: list[np.ndarray]
    ev: Evaluation | ConvEvaluation | None
    modified_nan: np.ndarray

    def inner_allowed(self, obs: np.ndarray) -> np.ndarray: ...

    def hull(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


def _from_engine_set(aset: AllowedSet, fmt: FloatFormat) -> PatternSet:
    ranges = [(int(to_key(lo, fmt)), int(to_key(hi, fmt))) for lo, hi in aset.ranges]
    return PatternSet(fmt, sorted(ranges), bool(aset.any_nan))


def element_allowed_set(one: OneElementStep, f: FloatFormat) -> PatternSet:
    """The exact conformant set of ``one``'s result before ``_sat``, in format ``f``."""
    ev = one.ev
    nan_extra = bool(one.modified_nan)
    if ev is not None and one.step.kind != "half":
        s = _from_engine_set(ev.allowed_set(0), f)
        s.any_nan = s.any_nan or nan_extra
        return s
    lo, hi, nan_ok = one.hull()
    any_nan = bool(np.asarray(nan_ok))
    half = one.step.kind == "half"
    to_f = (lambda p: np.asarray(p).astype(np.uint16)) if half else \
        (lambda p: np.asarray(p).astype(f.dtype))
    if f.is_nan(to_f(lo)):
        return PatternSet(f, [], any_nan)
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
            ranges += PatternSet.from_mask(ks, verdict(ks), f, False).ranges
            continue
        v = verdict(np.array([r0, (r0 + r1) // 2, r1], np.int64))
        if v.any():  # all three: the whole class piece; some: only the hull is known
            exact = exact and bool(v.all())
            ranges.append((r0, r1))
    extra = np.array(sorted({p for p in probes if not klo <= p <= khi}), np.int64)
    if extra.size:
        ranges += [(int(p), int(p)) for p, good in zip(extra, verdict(extra)) if good]
    s = PatternSet(f, _merge(ranges), any_nan)
    if not exact:
        s.ranges, s.exact = [(klo, khi)], False
    return s


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for x, y in sorted(ranges):
        if out and x <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], y)
        else:
            out.append([x, y])
    return [(a, b) for a, b in out]


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
