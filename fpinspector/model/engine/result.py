"""The engine's per-element result record and the builders of allowed windows.

An allowed set is: a window of patterns [klo, khi] in value order (see grid.to_key),
plus "any NaN" (nan_ok), plus extra single patterns (either-way allowances such as an
unflushed min/max operand), minus denormals when the output must be flushed (F32-FTZ).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..formats import FloatFormat
from . import grid

__all__ = ["Ctx", "Parts", "window_tol", "window_hull", "cr_window", "empty_window",
           "parts_allowed", "scatter"]


@dataclass
class Ctx:
    """What one evaluation is about: op, operand format, rule set, options, flags."""

    op: str
    fmt: FloatFormat
    rules: str
    opts: dict
    flush: bool  # F32-FTZ applies (f32 math op under d3d10/d3d11)

    @property
    def strict_out(self) -> bool:
        return self.flush and self.opts["ftz_output"] == "strict"


@dataclass
class Parts:
    """Flat (1-D) arrays describing every element of an evaluation."""

    fmt: FloatFormat | None
    result_format: str
    bits: np.ndarray
    hi: np.ndarray
    lo: np.ndarray
    klo: np.ndarray | None = None
    khi: np.ndarray | None = None
    nan_ok: np.ndarray | None = None
    deny_denorm: bool = False
    extras: list = field(default_factory=list)  # (patterns, mask)
    fired: dict = field(default_factory=dict)
    ftz_in: list = field(default_factory=list)  # per operand: flushed on input
    ftz_out: np.ndarray | None = None  # result was a denormal flushed on output
    unrounded: np.ndarray | None = None  # result before the output flush (patterns)
    readings: list = field(default_factory=list)
    tol_text: str = ""

    def fire(self, rule: str, mask: np.ndarray) -> None:
        """Record that ``rule`` decided the elements in ``mask`` (ORed with earlier calls)."""
        m = np.asarray(mask, dtype=bool)
        if m.shape != self.bits.shape:
            m = np.broadcast_to(m, self.bits.shape)
        if rule in self.fired:
            self.fired[rule] = self.fired[rule] | m
        else:
            self.fired[rule] = m.copy()


def empty_window(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.ones(n, dtype=np.int64), np.zeros(n, dtype=np.int64)


def cr_window(bits: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """The window holding only the model's (correctly rounded) pattern."""
    k = grid.to_key(bits, fmt)
    return k, k.copy()


def _flush_key(k: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    return grid.to_key(grid.flush_pat(grid.from_key(k, fmt), fmt), fmt)


def window_tol(
    hi: np.ndarray, lo: np.ndarray, down: np.ndarray, up: np.ndarray, fmt: FloatFormat
) -> tuple[np.ndarray, np.ndarray]:
    """Keys of the values within [exact - down, exact + up] (down, up >= 0, float64)."""
    lh, ll = grid.two_sum(hi, -down)
    hh, hl = grid.two_sum(hi, up)
    return grid.window_keys(lh, ll + lo, hh, hl + lo, fmt)


def window_hull(*pairs: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Smallest window containing every given window."""
    klo = np.minimum.reduce([p[0] for p in pairs])
    khi = np.maximum.reduce([p[1] for p in pairs])
    return klo, khi


def finish_window(parts: Parts, ctx: Ctx, klo: np.ndarray, khi: np.ndarray) -> None:
    """Store the window, flushing its ends when the output flushes (F32-FTZ).

    Non-finite exact results keep only the model pattern; NaN results allow any NaN.
    """
    fmt = ctx.fmt
    nan = np.isnan(parts.hi)
    inf = np.isinf(parts.hi)
    kb = grid.to_key(parts.bits, fmt) if parts.fmt is fmt else None
    if kb is not None:
        klo = np.where(inf, kb, klo)
        khi = np.where(inf, kb, khi)
    if ctx.flush:
        if not ctx.strict_out:  # option ftz_output=either: keep unflushed values too
            parts.extras.append(("window", klo.copy(), khi.copy()))
        klo = _flush_key(klo, fmt)
        khi = _flush_key(khi, fmt)
    e_lo, e_hi = empty_window(len(klo))
    parts.klo = np.where(nan, e_lo, klo)
    parts.khi = np.where(nan, e_hi, khi)
    parts.nan_ok = nan if parts.nan_ok is None else (parts.nan_ok | nan)
    parts.deny_denorm = ctx.strict_out


CHUNK = 1 << 16  # the general engine works on slices this long (cache-friendly, bounded memory)


def run_chunked(handler, ctx: Ctx, tol, flat: list[np.ndarray]) -> Parts:
    """Run an op handler over cache-sized slices of the flat operands and join the results.

    Each chunk is copied straight into arrays allocated once: peak memory is one record
    plus one chunk (not two records), and there is no second pass to join them.
    """
    n = flat[0].size
    step = CHUNK if n > 2 * CHUNK else max(n, 1)
    if n <= step:
        return handler(ctx, tol, flat)
    if getattr(handler, "kernel", None) is not None:
        return _run_deferred(handler, ctx, tol, flat, step)
    out: Parts | None = None
    for s in range(0, n, step):
        e = min(n, s + step)
        c = handler(ctx, tol, [a[s:e] for a in flat])
        if out is None:
            out = _alloc_like(c, n)
        _put(out, c, s, e, n)
    assert out is not None
    out.fired = dict(sorted(out.fired.items()))  # rule order independent of chunking
    return out


def _run_deferred(handler, ctx: Ctx, tol, flat: list[np.ndarray], step: int) -> Parts:
    """run_chunked for a plain-kernel handler (engine/plain.py): the kernel runs chunk by
    chunk; the non-plain elements of every chunk are gathered and go through the general
    handler once at the end (itself chunked) and are scattered back.

    Why: the general handler costs a few hundred microseconds per call however few
    elements it gets; once per chunk that was ~15% of an exhaustive sweep's model stage.
    Handlers are element-wise, so the record is the same (tests/model/test_engine_plain.py
    and test_engine_perf2.py).
    """
    n = flat[0].size
    out: Parts | None = None
    rest: list[np.ndarray] = []  # flat indices of the elements the kernel left over
    for s in range(0, n, step):
        e = min(n, s + step)
        plain, c = handler.kernel(ctx, tol, [a[s:e] for a in flat])
        if c is None:  # nothing plain in this chunk
            rest.append(np.arange(s, e))
            continue
        if out is None:
            out = _alloc_like(c, n)
        _put(out, c, s, e, n)
        if plain is not None:
            rest.append(np.flatnonzero(~plain) + s)
    if out is None:  # nothing plain at all
        return run_chunked(handler.general, ctx, tol, flat)
    idx = np.concatenate(rest) if rest else np.zeros(0, np.intp)
    if idx.size:
        sub = run_chunked(handler.general, ctx, tol, [a[idx] for a in flat])
        scatter(out, sub, idx)
    out.fired = dict(sorted(out.fired.items()))  # rule order independent of chunking
    return out


def scatter(parts: Parts, sub: Parts, idx: np.ndarray) -> None:
    """Overwrite the elements ``idx`` of ``parts`` with the record ``sub`` (one element of
    sub per index); rules that fired in only one of them are cleared / added there."""
    for name in _FIELDS:
        getattr(parts, name)[idx] = getattr(sub, name)
    for a, b in zip(parts.ftz_in, sub.ftz_in):
        a[idx] = b
    for e, h in zip(parts.extras, sub.extras):
        e[1][idx] = h[1]
        e[2][idx] = h[2]
    for k, m in sub.fired.items():
        if k not in parts.fired:
            parts.fired[k] = np.zeros(parts.bits.size, bool)
        parts.fired[k][idx] = m
    for k, m in parts.fired.items():
        if k not in sub.fired:
            m[idx] = False


_FIELDS = ("bits", "hi", "lo", "klo", "khi", "nan_ok", "ftz_out", "unrounded")


def _alloc_like(c: Parts, n: int) -> Parts:
    emp = lambda a: np.empty(n, dtype=a.dtype)  # noqa: E731
    out = Parts(c.fmt, c.result_format, emp(c.bits), emp(c.hi), emp(c.lo))
    for name in _FIELDS[3:]:
        if getattr(c, name) is not None:
            setattr(out, name, emp(getattr(c, name)))
    out.deny_denorm = c.deny_denorm
    out.readings, out.tol_text = c.readings, c.tol_text
    out.ftz_in = [emp(a) for a in c.ftz_in]
    out.extras = [(x[0], emp(x[1]), emp(x[2])) for x in c.extras]
    return out


def _put(out: Parts, c: Parts, s: int, e: int, n: int) -> None:
    for name in _FIELDS:
        dst = getattr(out, name)
        if dst is not None:
            dst[s:e] = getattr(c, name)
    for dst, src in zip(out.ftz_in, c.ftz_in):
        dst[s:e] = src
    for dst, src in zip(out.extras, c.extras):
        dst[1][s:e] = src[1]
        dst[2][s:e] = src[2]
    for k, m in c.fired.items():
        if k not in out.fired:  # zeros: earlier chunks did not fire it
            out.fired[k] = np.zeros(n, dtype=bool)
        out.fired[k][s:e] = m


def parts_allowed(p: Parts, obs: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
    """Verdict from a Parts record (see result.py for what the allowed set is); ``idx`` maps
    each observation to its element when observations broadcast over the evaluation."""
    sel = (lambda a: a) if idx is None else (lambda a: a[idx])
    if p.fmt is None:
        return obs == sel(p.bits)
    fmt = p.fmt
    k = grid.to_key(obs, fmt)
    ok = k >= sel(p.klo)
    ok &= k <= sel(p.khi)
    if p.deny_denorm:
        ok &= ~grid.is_den(obs, fmt)
    nan_ok = sel(p.nan_ok)
    if nan_ok.any():  # (no NaN result anywhere in most chunks of a sweep)
        ok |= nan_ok & fmt.is_nan(obs)
    for kind, x, y in p.extras:
        if kind == "pat":
            ok |= sel(y) & (obs == sel(x))
        else:
            ok |= (k >= sel(x)) & (k <= sel(y))
    return ok
