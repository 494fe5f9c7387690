"""Exact allowed sets of one element of a step, as value-ordered pattern ranges.

The engine's own per-element set is used where it offers one (``Evaluation.allowed_set``);
otherwise the set is enumerated: every pattern of the engine's hull (lowest..highest
allowed pattern) is judged by the engine's verdict, plus the patterns a hull can miss
(signed zeros, denormal ends, the operands themselves). ``_sat`` maps the set through
:meth:`PatternSet.sat_image`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .patterns import PatternSet, key_of

__all__ = ["step_allowed_set", "ENUMERATE_LIMIT"]

#: Hulls up to this many patterns are enumerated exactly (a few tens of ms).
ENUMERATE_LIMIT = 1 << 24


def _from_engine_set(aset: Any, fmt) -> PatternSet:
    ranges = [(int(key_of(lo, fmt)), int(key_of(hi, fmt))) for lo, hi in aset.ranges]
    return PatternSet(fmt, sorted(ranges), bool(aset.any_nan))


def step_allowed_set(se: Any, i: int) -> PatternSet | None:
    """The exact conformant set of element ``i`` of a StepEval (None for uint/bool slots)."""
    from .step_eval import StepEval  # noqa: PLC0415

    f = se.result_format
    if f is None:
        return None
    flat = [np.asarray(np.broadcast_to(x, se.shape)).reshape(-1)[i] for x in se.inputs]
    one = StepEval(se.index, se.step, flat, se.fmt, se.rules, se.options, ())
    inner = _inner_set(one, f)
    return inner.sat_image() if se.step.sat else inner


def _inner_set(one: Any, f) -> PatternSet:
    ev = one.ev
    nan_extra = bool(one.modified_nan)
    if ev is not None and hasattr(ev, "allowed_set") and one.step.kind != "half":
        s = _from_engine_set(ev.allowed_set(0) if ev.shape else ev.allowed_set(()), f)
        s.any_nan = s.any_nan or nan_extra
        return s
    lo, hi, nan_ok = one._hull()
    any_nan = bool(np.asarray(nan_ok))
    lo_p = np.asarray(lo)
    if f.is_nan(lo_p.astype(f.dtype) if one.step.kind != "half" else lo_p):
        return PatternSet(f, [], any_nan)
    half = one.step.kind == "half"
    to_f = (lambda p: p.astype(np.uint16)) if half else (lambda p: p.astype(f.dtype))
    klo, khi = int(key_of(to_f(lo_p), f)), int(key_of(to_f(np.asarray(hi)), f))
    maxden = f.frac_mask
    probes = [0, -1, 1, -2, maxden, -1 - maxden]
    for x in one.inputs:
        if np.asarray(x).dtype != bool:
            probes.append(int(key_of(to_f(np.asarray(x)), f)))
    exact = True
    if khi - klo + 1 > ENUMERATE_LIMIT:
        keys = np.unique(np.array([klo, khi] + probes, np.int64))
        exact = False
    else:
        keys = np.unique(np.concatenate([np.arange(klo, khi + 1, dtype=np.int64),
                                         np.array(probes, np.int64)]))
    from .patterns import pattern_of  # noqa: PLC0415

    pats = pattern_of(keys, f)
    obs = pats.astype(np.uint32) if half else pats
    ok = np.asarray(one._inner_allowed(obs))
    s = PatternSet.from_mask(keys, ok, f, any_nan)
    if not exact:
        s.ranges, s.exact = [(klo, khi)], False
    return s
