"""Exact values: the infinitely precise result of every op, in one package.

Entries:

- :mod:`.vector`: whole arrays of float64 operands -> (hi, lo) float64 pairs, per op
  family (add/sub/mul/div/sqrt, the fused sums of products mad/dp, the unary ops through
  their :class:`~..oprow.UnaryMath`); the engine's reference computation
  (engine/compute.py) and its fast paths call it. Its pair forms are the same ops on
  double-double operands with the bound of their rounding: each op's vector computation
  is here once, for both entries.
- :mod:`.bounded`: whole arrays of double-double operands carrying an absolute error bound
  -> the same with a bound and a "needs the scalar entry" mask, per instruction, from
  :mod:`.vector`'s pair forms; the expression layer chains it over a program
  (model/expr/exact.py).
- :mod:`.scalar`: one element, exactly: Fractions while the value is rational, mpmath
  beyond, IEEE signed zeros, INF and NaN; the expression layer's per-element fallback.
- :mod:`.unary`: each unary op's exact function (vector and scalar forms), pointed at by
  its op row (engine/optable.py); :mod:`.mpcontext`: the per-thread mpmath contexts.
"""

from .mpcontext import mp_context

__all__ = ["mp_context"]
