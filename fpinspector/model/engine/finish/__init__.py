"""The finisher: the one place that decides allowed sets and fired rules, for every path.

Kernels (engine/compute.py, engine/fastbits.py) compute bits and exact values only;
whatever path produced them, the verdict, the printed allowed set, the ULP error and the
rules shown come from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..allowed import AllowedArrays, SplitSets
from ..compute import Core
from ..context import Ctx
from ..masked import indices
from .facts import Facts
from .fired import fired_counts, fired_rules
from .frc import frc_one_points, frc_window
from .ordinary import lean_applies, minmax_ordinary, ordinary_mask, ordinary_sets, point_sets
from .select import minmax_allowed, mov_allowed
from .serial import div_route, fused_union
from .windows import finish_windows, tolerance_window

__all__ = ["Facts", "allowed_sets", "fired_counts", "fired_rules", "facts", "nan_results_allow_any_nan",
           "whole_array_points"]


def facts(ctx: Ctx, ops: list[np.ndarray], core: Core,
          loaded: tuple[list[np.ndarray], list[np.ndarray]] | None = None) -> Facts:
    """The per-chunk facts both :func:`allowed_sets` and :func:`fired_rules` read;
    ``loaded``: the operands' values and flush masks (compute.operand_values) where the
    caller decoded them already."""
    return Facts(ctx, ops, core, loaded)


Sets = AllowedArrays | SplitSets


def allowed_sets(f: Facts) -> Sets:
    """The allowed results of every element of the chunk (not for comparisons)."""
    return _allowed_sets(f)


def whole_array_points(ctx: Ctx) -> bool:
    """Whether every element's set is {model result} (+ any NaN where the model is NaN),
    so a verdict needs no per-chunk facts (not on the reference path)."""
    return (not ctx.reference and ctx.traits.rounds
            and _point_kind(ctx) and ctx.fmt.nan_only_from_nan)


def nan_results_allow_any_nan(ctx: Ctx) -> bool:
    """Whether every element whose model result is a NaN has the set {any NaN} and no
    number (F32-NANOUT: the exact result is a NaN): every family but a raw move's, which
    keeps a NaN's payload, and a comparison's, whose results are not patterns
    (``OpFamily.any_nan_result``). A verdict on such an
    element needs no facts. Not on the reference path: it builds every set, and the
    differential test compares the two. Not in a format without infinity (E4M3), where
    an overflow rounds to NaN: there the general sets say which NaN."""
    return (not ctx.reference and ctx.traits.any_nan_result
            and ctx.fmt.nan_only_from_nan)


def _point_kind(ctx: Ctx) -> bool:
    """Tolerance kinds whose set is {model result} (+ any NaN) on every element."""
    either = ctx.flush and not ctx.strict_out
    if ctx.traits.fractional:
        return not either and not ctx.opts["frc_allow_one"]
    return ctx.tol.kind in ("cr", "exact") and not either


def _allowed_sets(f: Facts) -> Sets:
    """Dispatch: min/max, mov, point kinds, ordinary f32 elements, the general code."""
    ctx = f.ctx
    t = ctx.traits
    if t.picks_operand:
        if ctx.reference:
            return minmax_allowed(f)
        return _split(f, minmax_ordinary(f), lambda sub: (point_sets(sub), None),
                      minmax_allowed)
    if t.moves_bits:
        return mov_allowed(f)
    if t.predicate:
        raise ValueError("comparisons have a boolean result, not an allowed set")
    if ctx.reference or not ctx.fmt.nan_only_from_nan:  # (E4M3: a NaN may be an overflow)
        return _general_sets(f)
    if _point_kind(ctx):
        return point_sets(f)
    nan = ctx.fmt.is_nan(f.core.bits)  # the model is NaN only where the exact result is,
    # and then NaN is the only result: no serial order or route gives a number)
    m = ordinary_mask(f) if lean_applies(ctx) else np.zeros(f.n, dtype=bool)
    if not nan.any() and not m.any():
        return _general_sets(f)
    parts: list[tuple[np.ndarray, AllowedArrays]] = []
    if nan.any():
        ni = indices(nan)
        parts.append((ni, AllowedArrays(ctx.fmt, [], [], np.ones(ni.size, dtype=bool))))
    rest = ~nan & ~m
    if m.any():
        idx = indices(m)
        lean, doubt = ordinary_sets(f if idx.size == f.n else f.subset(idx))
        if idx.size == f.n and not doubt.any():
            return lean
        keep = ~doubt
        parts.append((idx[keep], lean.take(indices(keep)) if doubt.any() else lean))
        rest[idx[doubt]] = True
    if rest.any():
        ri = indices(rest)
        parts.append((ri, _general_sets(f.subset(ri))))
    return SplitSets(ctx.fmt, f.n, parts)


def _split(f: Facts, m: np.ndarray, lean_fn: Callable[[Facts], tuple[AllowedArrays, Any]],
           general_fn: Callable[[Facts], AllowedArrays]) -> Sets:
    """Sets from ``lean_fn`` on the elements ``m``, ``general_fn`` on the others."""
    if m.all():
        return lean_fn(f)[0]
    if not m.any():
        return general_fn(f)
    idx, rest = indices(m), indices(~m)
    return SplitSets(f.ctx.fmt, f.n, [(idx, lean_fn(f.subset(idx))[0]),
                                      (rest, general_fn(f.subset(rest)))])


def _general_sets(f: Facts) -> AllowedArrays:
    ctx = f.ctx
    kind = ctx.tol.kind
    if ctx.spec.rcp_route and ctx.flush:
        if kind == "div":
            sets = pin(div_route(f), f.identity, f)
        elif route_applies(ctx):  # d3d10 with option d3d10_div_route: window or route
            sets = union(_window_sets(f), pin(div_route(f), f.identity, f))
        else:  # F32-DIV-D3D10: 1 ULP with IEEE specials, no route
            return _window_sets(f)
        huge = f.inf_div_huge  # §22 note on F32-DIV: INF / huge (exact INF) may give NaN
        if huge.any():
            assert sets.nan is not None
            sets.nan = sets.nan | huge if ctx.opts["inf_div_huge_nan"] else sets.nan & ~huge
        return sets
    if kind == "div":
        return pin(div_route(f), f.identity, f)
    if kind == "fused":
        return fused_union(f)
    if ctx.traits.fractional:
        out = finish_windows(f, *frc_window(f))
        if ctx.opts["frc_allow_one"]:
            out.points.append(frc_one_points(f))
        return out
    return _window_sets(f)


def route_applies(ctx: Ctx) -> bool:
    """The two-step route x * rcp(y) is part of an f32 divide's set: d3d11 (F32-DIV), or
    d3d10 with option d3d10_div_route (F32-DIV-D3D10)."""
    return ctx.div_route


def union(a: AllowedArrays, b: AllowedArrays) -> AllowedArrays:
    """The element-wise union of two sets of the same elements."""
    nan = None
    if a.nan is not None or b.nan is not None:
        nan = np.zeros(a.size, dtype=bool)
        for x in (a.nan, b.nan):
            if x is not None:
                nan = nan | x
    return AllowedArrays(a.fmt, a.windows + b.windows, a.all_points() + b.all_points(), nan)


def _window_sets(f: Facts) -> AllowedArrays:
    """Sets of the window-shaped tolerance kinds (cr, exact, ulp, rel, log)."""
    ctx = f.ctx
    klo, khi = tolerance_window(f)
    pins = f.identity  # (F32-IDENT: none where the op row names no identities)
    math = ctx.spec.math
    if math is not None and math.specials:  # the special-value table: exact results, a
        pins = pins | math.special_inputs(f.vals[0])  # flushed denormal too (exp(0) = 1)
    if ctx.tol.exact_when_representable:  # F64-RCP: exact whenever 1/x is representable
        pins = pins | (f.finite & ~f.inexact)
    return finish_windows(f, klo, khi, pins)


def pin(sets: AllowedArrays, where: np.ndarray, f: Facts) -> AllowedArrays:
    """Replace the sets of ``where`` by the model's result alone (F32-IDENT: exact)."""
    if not where.any():
        return sets
    from .. import grid

    kb = grid.to_key(f.core.bits, f.ctx.fmt)
    keep = ~where
    windows = [(np.where(keep, a, 1), np.where(keep, b, 0), d) for a, b, d in sets.windows]
    points = [(k, w & keep) for k, w in sets.points] + [(kb, where.copy())]
    nan = None if sets.nan is None else sets.nan & keep
    return AllowedArrays(sets.fmt, windows, points, nan)
