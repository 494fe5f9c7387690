"""The mpmath contexts of the exact values: one private context per thread and precision.

Why private: mpmath's global ``mp`` belongs to the caller (and to other threads), and
``mpmath.workprec`` sets the precision of that one global context, so two threads refining
elements at once (an expression map's stage threads, sweep workers) could leave one
computing at the precision the other restored. mpmath is imported lazily: the model stays
numpy-only until a reference value is needed.
"""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["mp_context"]

_MP = threading.local()


def mp_context(prec: int = 120) -> Any:
    """A private mpmath context at ``prec`` bits, one per thread (imported lazily: the
    model stays numpy-only until a reference value is needed). Why private: mpmath's
    global ``mp`` belongs to the caller (and to other threads); the engine never changes
    its precision."""
    cache = getattr(_MP, "contexts", None)
    if cache is None:
        cache = _MP.contexts = {}
    ctx = cache.get(prec)
    if ctx is None:
        import mpmath

        ctx = cache[prec] = mpmath.MPContext()
        ctx.prec = prec
    return ctx
