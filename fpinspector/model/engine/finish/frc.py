"""frc's window: x - round_ni(x), rounded once (every rule set), inside [+0, 1).

The table of the frc instruction says the result lies in [+0, 1) (so a tiny negative x,
whose exact 1 + x rounds to 1.0, gives the value below 1); the operation line
x - round_ni(x) would give 1.0. The table is the default; option ``frc_allow_one`` also
allows 1.0 where the rounded difference is 1.0 (AMBIGUOUS in docs/rules.md, F32-INSTR).
"""

from __future__ import annotations

import numpy as np

from .. import grid
from .facts import Facts

__all__ = ["frc_window", "frc_one_points"]


def frc_window(f: Facts) -> tuple[np.ndarray, np.ndarray]:
    """Key interval of frc's allowed results (before the output flush)."""
    ctx = f.ctx
    fmt = ctx.fmt
    one = grid.pattern_of(1.0, fmt)
    below = one - 1  # keys of positive patterns are the patterns
    kb = grid.to_key(f.unrounded, fmt)  # exact under every rule set (d3d10: "same")
    klo, khi = kb, kb.copy()
    np.maximum(klo, 0, out=klo)
    np.minimum(khi, below, out=khi)
    np.minimum(klo, khi, out=klo)  # a rounded 1.0 alone becomes the value below 1
    return klo, khi


def frc_one_points(f: Facts) -> tuple[np.ndarray, np.ndarray]:
    """(key of 1.0, where 1.0 is allowed under option frc_allow_one)."""
    fmt = f.ctx.fmt
    one = grid.pattern_of(1.0, fmt)
    where = grid.to_key(f.unrounded, fmt) >= one
    return np.full(f.n, one, dtype=np.int64), where & f.finite
