"""Which rules decided each element: one table row per (rule ID, where it applies).

Rows are data: a rule ID, the op families (their records, engine/families.py) or ops it
belongs to, an optional condition
on the evaluation (rule set, format, flush) and the element mask from :class:`Facts`.
Every path (fast or reference) ends here, so an element's fired rules never depend on how
its bits were computed. IDs are defined in docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import fastbits, grid
from ..context import Ctx
from ..families import ARITH, COMPARE, FAMILIES, FRC, FUSED, MOV, ROUND, SELECT, UNARY, OpFamily
from ..masked import indices
from .facts import Facts

__all__ = ["fired_rules", "fired_counts", "ROWS", "precision_rule"]


@dataclass(frozen=True)
class Row:
    """``rule`` fires on the elements ``mask(facts)`` of ops in ``scope`` when ``when(ctx)``.

    ``ordinary``: the rule can fire on an ordinary element (normal operands and result,
    no identity): False (the row is evaluated on the other elements only; the
    differential test proves it never fires on ordinary ones), True (evaluated on them
    too), or ALWAYS (it fires on every ordinary element: its mask is True there, e.g. an
    accuracy rule whose mask is "finite and no NaN operand"). ``ordinary_mask``: a
    cheaper mask that equals ``mask`` on ordinary elements, used there instead.
    """

    rule: str | Callable[[Ctx], str]
    scope: tuple[OpFamily | str, ...]  # family records, or op names
    mask: Callable[[Facts], np.ndarray]
    when: Callable[[Ctx], bool] = lambda ctx: True
    ordinary: bool | str = False
    ordinary_mask: Callable[[Facts], np.ndarray] | None = None

    def applies(self, ctx: Ctx) -> bool:
        return (ctx.traits in self.scope or ctx.op in self.scope) and self.when(ctx)

    def rule_id(self, ctx: Ctx) -> str:
        return self.rule(ctx) if callable(self.rule) else self.rule


#: Row.ordinary value: the row's mask is True on every ordinary element.
ALWAYS = "always"


def precision_rule(ctx: Ctx) -> str:
    """The accuracy rule of the op: the tolerance row's rule (engine/tolerances.py)."""
    return ctx.tol.rule


def _div_route(ctx: Ctx) -> bool:
    """The divide's set holds the two-step route (F32-DIV): d3d11, or d3d10 with option
    d3d10_div_route (the rule set's and the format's records: ``Ctx.div_route``)."""
    return ctx.div_route


def _infinf(f: Facts) -> np.ndarray:
    """F32-INFINF: INF - INF, INF / INF, INF * 0 (and fused products INF * 0)."""
    op = f.ctx.op
    if f.ctx.traits.sums_products:
        from ..exact.vector import fused_terms

        pairs, _ = fused_terms(f.vals)
        m = np.zeros(f.n, dtype=bool)
        for x, y in pairs:
            m |= (np.isinf(x) & (y == 0)) | ((x == 0) & np.isinf(y))
        return m | (f.exact_nan & ~f.nan_in)
    if f.ctx.traits.fractional:
        return np.isinf(f.vals[0])
    invalid = f.ctx.spec.invalid  # the arith row's invalid operations of INF and 0
    assert invalid is not None, f"{op}: an arith row needs its invalid operations"
    return invalid(f)


def _denormal_kept(f: Facts) -> np.ndarray:
    """F16-DENORM, F64-DENORM: a denormal operand or result, kept (no flush).

    Where the operands' magnitudes are known (IEEE storage) and the result is a pattern
    of the format: magnitude - 1 wraps 0 to the top, so the smallest of the result's and
    the operands' (magnitude - 1) is below the fraction mask exactly when one of them is a
    denormal. Why: one compare and no ORs, in two reused buffers (7 passes of the
    patterns' width instead of 9 and four fresh arrays; about a tenth of an f16 mul sweep
    chunk's fired rules)."""
    fmt = f.ctx.fmt
    bits = f.core.bits
    mags = f._mags
    if mags is None or bits.dtype != fmt.dtype:
        m = grid.is_den(bits, fmt)
        for i in range(len(f.ops)):
            m |= f.operand_is_den(i)
        return m
    dt = fmt.dtype.type
    t = np.bitwise_and(bits, dt(fmt.mask & ~fmt.sign_mask))
    t -= dt(1)
    s = np.empty_like(t)
    for mg in mags:
        np.subtract(mg, dt(1), out=s)
        np.minimum(t, s, out=t)
    return t < dt(fmt.frac_mask)


def _minmax_nan_rule(ctx: Ctx) -> str:
    return ctx.fmt.minmax_nan_rule


def _denorm_rule(ctx: Ctx) -> str:
    return ctx.fmt.denorm_rule


def _keeps_denormals_under_d3d(ctx: Ctx) -> bool:
    """The format's own denormal rule (F16-DENORM, F64-DENORM) is D3D's: under ieee754
    IEEE-RNE says it."""
    return bool(ctx.fmt.denorm_rule) and ctx.rule_set.d3d


#: the families whose result is the exact value rounded (``OpFamily.rounds``)
_MATH = tuple(f for f in FAMILIES.values() if f.rounds)
_FLUSH = lambda ctx: ctx.flush  # noqa: E731

#: The rule table. Order does not matter: ``fired`` is reported sorted by rule ID.
ROWS: tuple[Row, ...] = (
    # inputs and outputs
    Row("F32-FTZ", _MATH, lambda f: f.any_ftz_in | f.ftz_out, _FLUSH),
    Row("F32-FTZ", (COMPARE,), lambda f: f.any_ftz_in, _FLUSH),
    Row("F32-NANOUT", _MATH, lambda f: f.exact_nan & f.nan_in),  # (an invalid operation's
    # NaN without a NaN operand is its own rule's: F32-SQRTNEG, F32-INFINF, F32-LOG0, F32-DIV0)
    Row("F32-NANPROP", _MATH, lambda f: f.nan_in),
    # IEEE special cases
    Row("F32-INFINF", (ARITH, FUSED, FRC), _infinf),
    Row("F32-IDENT", (ARITH,), lambda f: f.identity),
    Row("F32-DIV0", ("div",), lambda f: (f.vals[1] == 0) & ~np.isnan(f.vals[0])),
    Row("F32-DIV0", ("rcp",), lambda f: f.vals[0] == 0),
    Row("F32-SQRTNEG", ("sqrt", "rsq"), lambda f: f.negative_operand),
    Row("F32-LOG0", ("log",), lambda f: f.vals[0] <= 0),
    # accuracy: the tolerance row's rule
    Row(precision_rule, ("add", "sub", "mul"), lambda f: f.inexact & f.finite, ordinary=True,
        ordinary_mask=lambda f: f.inexact_of_a_normal_result),
    Row(precision_rule, ("div",), lambda f: f.inexact & f.finite,
        lambda ctx: not _div_route(ctx), ordinary=True,
        ordinary_mask=lambda f: f.inexact_of_a_normal_result),
    Row("F32-DIV", ("div",), lambda f: f.finite & (f.vals[1] != 0), _div_route,
        ordinary=ALWAYS),
    Row("F32-DIV", ("div",), lambda f: f.inf_div_huge,
        lambda ctx: _div_route(ctx) and ctx.opts["inf_div_huge_nan"]),
    Row(precision_rule, (FUSED,), lambda f: f.finite, ordinary=ALWAYS),
    Row(precision_rule, (UNARY,), lambda f: f.finite & ~f.nan_in, ordinary=ALWAYS),
    Row(precision_rule, (ROUND,), lambda f: ~f.nan_in, ordinary=ALWAYS),
    Row(precision_rule, (FRC,), lambda f: f.finite, ordinary=ALWAYS),
    Row(_denorm_rule, (ARITH, FUSED), _denormal_kept, _keeps_denormals_under_d3d),
    # min / max
    Row("F32-MINMAX-FTZ", (SELECT,), lambda f: f.any_ftz_in, _FLUSH),
    Row(_minmax_nan_rule, (SELECT,),
        lambda f: (f.choice.na ^ f.choice.nb) & ~f.choice.snan),
    Row("F32-NANOUT", (SELECT,), lambda f: f.choice.na & f.choice.nb),
    Row("IEEE-MINMAX", (SELECT,), lambda f: f.choice.snan,
        lambda ctx: ctx.minmax_snan),
    Row("F32-MINMAX-ZERO", (SELECT,), lambda f: f.choice.zero_tie),
    # comparisons
    Row("F32-CMPNAN", (COMPARE,), lambda f: f.nan_in),
    Row("F32-CMPZERO", (COMPARE,), lambda f: (f.vals[0] == 0) & (f.vals[1] == 0)),
    Row("F32-CMPINF", (COMPARE,),
        lambda f: ~f.nan_in & (np.isinf(f.vals[0]) | np.isinf(f.vals[1]))),
    # raw move: the one exception where a NaN keeps its payload
    Row("F32-NANOUT", (MOV,), lambda f: f.ctx.fmt.is_nan(f.core.bits)),
)


def _ordinary(f: Facts) -> np.ndarray:
    """Normal operands and a normal result, and no F32-IDENT operand (+/-1, for mul/div)."""
    fmt = f.ctx.fmt
    bits = f.core.bits
    m = grid.is_normal(bits, fmt) if bits.dtype != bool else np.ones(f.n, dtype=bool)
    for o in f.ops:
        m &= grid.is_normal(o, fmt)
    for i, v in f.ctx.spec.identities:
        if v == 1:
            m &= ~f.operand_is_one(i)
    return m


def _ordinary_one(f: Facts) -> bool | None:
    """:func:`_ordinary` of a one-element record (an app's), read from its patterns as
    Python ints (:func:`grid.is_normal_one`) in a format with INF (None for the others:
    the array version decides). Why: the array version's passes cost a
    quarter of an element's fired rules."""
    fmt = f.ctx.fmt
    if not fmt.has_inf:
        return None
    pats = [int(o[0]) for o in f.ops]
    bits = f.core.bits
    for p in pats if bits.dtype == bool else [*pats, int(bits[0])]:
        if not grid.is_normal_one(p, fmt):
            return False
    one, mag = grid.pattern_of(1.0, fmt), fmt.mask & ~fmt.sign_mask
    return not any(v == 1 and (pats[i] & mag) == one for i, v in f.ctx.spec.identities)


def _uniform_nan_chunk(facts: Facts) -> tuple[int, bool, int] | None:
    """A unary op whose operands all share one sign, biased exponent and (for the zero and
    all-ones exponents) fraction class, and whose results are all NaN (half of an
    exhaustive sqrt, rsq or log sweep is such chunks): every row of its family reads only
    the operand's class (NaN, flushed, negative, zero) and the NaN result, so every row's
    mask is constant over the chunk. Returns that class (sign and exponent, fraction not
    0, the first result pattern), else None."""
    ctx = facts.ctx
    if facts.n < 2 or not (ctx.traits.rounds and ctx.spec.arity == 1):
        return None
    fmt = ctx.fmt
    x = facts.ops[0]
    b = facts.core.bits
    if not grid.all_nan(b, fmt):
        return None
    top = x >> fmt.dtype.type(fmt.frac_bits)
    t0 = int(top[0])
    if top.min() != t0 or top.max() != t0:
        return None
    if t0 & fmt.exp_max in (0, fmt.exp_max):  # zero vs denormal, INF vs NaN: the fraction
        frac = (x & fmt.dtype.type(fmt.frac_mask)) != 0
        if frac.any() and not frac.all():
            return None
    return t0, bool(x[0] & fmt.dtype.type(fmt.frac_mask)), int(b[0])


#: Rules of a uniform NaN chunk (:func:`_uniform_nan_chunk`) by evaluation and class. Why:
#: an exhaustive sweep meets the same few classes in thousands of chunks (half of a sqrt
#: sweep), and the rows on one element cost ~150 us of Python per chunk of 2^16.
_UNIFORM_RULES: dict[tuple, tuple[str, ...]] = {}
_KEYS_KEPT = 4096  # (each of the two caches here is emptied when it holds this many)


def _ctx_key(ctx: Ctx) -> tuple | None:
    """What the rows read of an evaluation, as a dict key (None: an unhashable option)."""
    key = (ctx.op, ctx.family, ctx.fmt.name, ctx.rules, tuple(sorted(ctx.opts.items())),
           ctx.flush, ctx.tol, ctx.readings, ctx.reference)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _kept(cache: dict, key: tuple | None, make: Callable[[], Any]) -> Any:
    """``cache[key]``, made by ``make()`` and kept the first time (a ``None`` key: made,
    not kept); the cache is emptied when it holds :data:`_KEYS_KEPT` keys."""
    if key is None:
        return make()
    value = cache.get(key)
    if value is None:
        if len(cache) >= _KEYS_KEPT:
            cache.clear()
        value = cache[key] = make()
    return value


def _uniform_rules(facts: Facts, rows: list[Row], ctx_key: tuple | None,
                   cls: tuple[int, bool, int]) -> tuple[str, ...]:
    """The rule IDs that fire on every element of a uniform NaN chunk of class ``cls``:
    the rows on its first element, once per evaluation and class."""
    def make() -> tuple[str, ...]:
        out: dict[str, np.ndarray] = {}
        _evaluate_rows(facts.subset(np.zeros(1, dtype=np.intp)), rows, out, None, 1)
        return tuple(sorted(k for k, v in out.items() if v[0]))

    return _kept(_UNIFORM_RULES, None if ctx_key is None else (ctx_key, cls), make)


def _anywhere(m: np.ndarray) -> bool:
    """``m.any()``, read from the element itself where there is one (an app's record):
    numpy's reduction costs a microsecond or two per row there."""
    return bool(m[0]) if m.size == 1 else bool(m.any())


def _evaluate_rows(facts: Facts, rows: list[Row], out: dict[str, np.ndarray],
                   idx: np.ndarray | None, n: int, ordinary: bool = False,
                   where: np.ndarray | None = None, final: bool = False,
                   counts: dict[str, int] | None = None) -> None:
    """OR each row's mask into ``out`` (arrays of n), at ``idx`` when facts is a subset,
    and only ``where`` (a mask of the facts' elements) when given; on ordinary elements a
    row marked ALWAYS is True without evaluating its mask.

    With ``idx``, ``out`` must be False at ``idx`` (the subset is the elements the
    ordinary pass left): the subset's masks are ORed together per rule and written there
    once, without reading ``out`` back (a gather per row was the subset's largest cost
    when a chunk has many non-ordinary elements).

    ``final`` (the facts are the whole of ``out``'s elements, and nothing writes into
    ``out`` afterwards): a rule's mask is its row's mask itself, possibly a fact the facts
    keep, and a second row of the same rule ID makes a new array; so nothing here is
    written in place. Why: a zero-filled array ORed with the mask was two of a sweep
    chunk's passes per fired rule.

    With ``final``, each row's mask is counted instead of ``any``-ed, and ``counts`` gets
    each rule's count (:func:`fired_counts`)."""
    ctx = facts.ctx
    picked: dict[str, np.ndarray] = {}
    if final:
        for row in rows:
            m = np.asarray(row.mask(facts), dtype=bool)
            if counts is None:  # (one element's record: no counts asked)
                if not _anywhere(m):
                    continue
            else:
                c = int(np.count_nonzero(m))
                if not c:
                    continue
            rid = row.rule_id(ctx)
            out[rid] = out[rid] | m if rid in out else m
            if counts is not None:
                counts[rid] = c if out[rid] is m else int(np.count_nonzero(out[rid]))
        return
    for row in rows:
        if ordinary and row.ordinary == ALWAYS:
            m = np.ones(facts.n, dtype=bool) if where is None else where
        else:
            mask = row.ordinary_mask if ordinary and row.ordinary_mask else row.mask
            m = np.asarray(mask(facts), dtype=bool)
            if where is not None:
                m = m & where
        if not _anywhere(m):
            continue
        rid = row.rule_id(ctx)
        if idx is not None:
            picked[rid] = picked[rid] | m if rid in picked else m
            continue
        if rid not in out:
            out[rid] = np.zeros(n, dtype=bool)
        out[rid] |= m
    for rid, m in picked.items():
        if rid not in out:
            out[rid] = np.zeros(n, dtype=bool)
        out[rid][idx] = m


#: From 1/WHOLE_CHUNK_FROM of a chunk not ordinary on, its rows run on the whole chunk
#: instead of twice (ordinary rows, then every row on a subset of the rest). Measured per
#: chunk of 2^17: the two ways cost the same at about a sixth (f16 mul and div, f32 mad)
#: to a quarter (f32 mul and div); at a third to a half the subset way cost 1.4-2x more
#: (f16 x f16 grid rows with many denormal or overflowing products, sqrt of negatives).
WHOLE_CHUNK_FROM = 5

#: Fast kernels whose chunks always take the whole-chunk way: their rows cost less than
#: the ordinary mask and the subset (masks read in the patterns' own width, the exact
#: value's in float32). Measured per chunk of 2^17 (2026-11-28, load 1.0-1.4, the fired
#: rules alone, before the whole-chunk rows were made cheaper): f16 mul split against
#: whole 739 against 863 us with every element ordinary, 868 against 858 at 2% not
#: ordinary, 1205 against 857 at 10%; every chunk of the exhaustive f16 x f16 sweep holds
#: 6% denormal and 3% INF/NaN B patterns (9-100% not ordinary). A sampled decision cost
#: 70 us a chunk, more than it could save there. (f16 add crosses at about 4%; f16 div,
#: mad and sqrt above 10%, as f32: they keep the threshold.)
WHOLE_CHUNK_KERNELS: frozenset[Any] = frozenset({fastbits.f16_mul})


def fired_rules(facts: Facts) -> dict[str, np.ndarray]:
    """Rule ID -> mask of the elements it decided (only rules that fired somewhere).

    Computed once per facts (kept on them): one element's rule list, sentences and steps
    each ask, and an app shows all three for every edit. The masks are read-only."""
    return dict(_known(facts))


def fired_counts(facts: Facts) -> dict[str, int] | None:
    """Rule ID -> number of elements it decided (the keys of :func:`fired_rules`), where
    deciding the rules gave the counts (rows on the whole chunk, a uniform chunk); else
    None (count the masks).

    Why: a sweep's summary counts each fired rule per chunk, and a row's count costs about
    what the ``any`` that decides whether it fired and that later count together cost."""
    _known(facts)  # (the masks and their counts, decided once)
    counts = facts.__dict__[_COUNTS]
    return None if counts is None else dict(counts)


def _known(facts: Facts) -> dict[str, np.ndarray]:
    """The facts' fired masks (read-only), computed once and kept with their counts."""
    known = facts.__dict__.get(_KEPT)
    if known is None:
        masks, facts.__dict__[_COUNTS] = _fired_rules(facts)
        known = facts.__dict__[_KEPT] = {k: _read_only(m) for k, m in masks.items()}
    return known


_KEPT = "_fired_rules"  # (a dict, not an array: Facts.subset does not slice it)
_COUNTS = "_fired_counts"  # rule ID -> count, or None where not counted


def _read_only(mask: np.ndarray) -> np.ndarray:
    """A read-only view of a rule's mask (shared by every caller; the mask may be a fact
    the facts keep, which stays writable for them)."""
    view = mask.view()
    view.flags.writeable = False
    return view


_ROWS_OF: dict[tuple, list[Row]] = {}


def _rows_of(ctx: Ctx, ctx_key: tuple | None) -> list[Row]:
    """The rows that apply to an evaluation (kept per evaluation key: a sweep asks once
    per chunk, and the filter costs more than a small chunk's masks)."""
    return _kept(_ROWS_OF, ctx_key, lambda: [r for r in ROWS if r.applies(ctx)])


def _fired_rules(facts: Facts) -> tuple[dict[str, np.ndarray], dict[str, int] | None]:
    """The masks, and their counts where deciding them gave them (else None)."""
    ctx = facts.ctx
    ctx_key = _ctx_key(ctx)
    rows = _rows_of(ctx, ctx_key)
    out: dict[str, np.ndarray] = {}
    counts: dict[str, int] = {}
    n = facts.n
    if ctx.reference or ctx.traits.moves_bits:
        _evaluate_rows(facts, rows, out, None, n, final=True, counts=counts)
        return dict(sorted(out.items())), counts
    cls = _uniform_nan_chunk(facts)
    if cls is not None:  # every row's mask is constant: one element decides
        rules = _uniform_rules(facts, rows, ctx_key, cls)
        return {k: np.ones(n, dtype=bool) for k in rules}, {k: n for k in rules}
    if ctx.spec.fast.get(ctx.fmt.name) in WHOLE_CHUNK_KERNELS:  # (its fast kernel)
        _evaluate_rows(facts, rows, out, None, n, final=True, counts=counts)
        return dict(sorted(out.items())), counts
    one = _ordinary_one(facts) if n == 1 else None
    if one is not None:  # one element: the ordinary rows, or every row (as below)
        if one:
            _evaluate_rows(facts, [r for r in rows if r.ordinary], out, None, n, ordinary=True)
        else:
            _evaluate_rows(facts, rows, out, None, n, final=True)
        return dict(sorted(out.items())), None
    m = _ordinary(facts)
    count = int(np.count_nonzero(m))
    if (n - count) * WHOLE_CHUNK_FROM >= n:  # many other elements: every row on the whole
        # chunk, once (a row that never fires on ordinary elements is False there, an
        # ALWAYS row True: the reference path's answer, without a second pass per row)
        _evaluate_rows(facts, rows, out, None, n, final=True, counts=counts)
        return dict(sorted(out.items())), counts
    # most elements are ordinary: only the rows that can fire there (their masks on the
    # whole chunk cost less than copying the facts into a subset), the others on the rest
    ordinary_rows = [r for r in rows if r.ordinary]
    if count == n:
        _evaluate_rows(facts, ordinary_rows, out, None, n, ordinary=True)
        return dict(sorted(out.items())), None
    _evaluate_rows(facts, ordinary_rows, out, None, n, ordinary=True, where=m)
    idx = indices(~m)
    _evaluate_rows(facts.subset(idx), rows, out, idx, n)
    return dict(sorted(out.items())), None
