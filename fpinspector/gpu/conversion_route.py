"""How the "this GPU (render target)" row reaches each target format from any inspected format.

The hardware conversions start from f32: a render target stores an f32 shader output as
f16/f11/f10, and a texture sample turns f16/f11/f10 into f32 (``GpuSession.convert`` paths
"render" and "sample"). So the row converts *through f32*:

* f32 source: render target f32 -> f16 / f11 / f10;
* f16 / f11 / f10 source: sample it to f32 on the GPU, then render that f32 to the others;
* f64 source: no GPU format holds f64, so the model's D3D f64 -> f32 (CONV-DTOF) makes the
  f32 the hardware starts from; the f32 cell itself stays "—" (it is the model's, not the GPU's).

No Qt here: the GPU worker thread calls :func:`convert_via_f32` with the session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..model.formats import FORMATS, get_format
from .capture_formats import SHADER_FLOAT
from .errors import error_text

__all__ = ["GpuConversions", "SAMPLED", "RENDERED", "BATCHED", "convert_via_f32", "route_text"]

#: Formats the GPU can sample into f32 (texelFetch of a r16f / r11g11b10f texture): the
#: formats D3D converts into by CONV-F2F-RTZ/SAT, its texture formats.
SAMPLED = tuple(n for n, f in FORMATS.items() if f.d3d_conversion == "rtz_sat")
#: Formats an f32 shader output can be rendered into.
RENDERED = SAMPLED
NO_F64 = "—: no render target or texture format holds f64, so the GPU has no f64 result"


def _no_texture(name: str) -> str:
    """Why the GPU row has no result in format ``name`` (f64, bf16, FP8)."""
    if name == F64_NAME:
        return NO_F64
    return (f"—: no GL render target or texture format holds {name}, so the GPU has no "
            f"{name} result")


F64_NAME = next(n for n, f in FORMATS.items() if f.d3d_conversion == "exact")
#: Sources whose row can be asked for many patterns at once and split (:meth:`element`):
#: every tip and reason is the same for each pattern. (An f64 row's tips name each
#: pattern's own f32 starting point.)
BATCHED = (SHADER_FLOAT, *SAMPLED)


@dataclass
class GpuConversions:
    """The GPU row: per target format a result pattern (ndarray) or the reason there is none
    (str), a tooltip saying how each one was obtained, and the route in one line."""

    results: dict[str, Any] = field(default_factory=dict)
    tips: dict[str, str] = field(default_factory=dict)
    route: str = ""

    def element(self, i: int) -> GpuConversions:
        """The row of element ``i`` of a row asked for several patterns at once (the
        reasons and tips are the batch's: :data:`BATCHED` sources only)."""
        return GpuConversions({d: r[i:i + 1] if isinstance(r, np.ndarray) else r
                               for d, r in self.results.items()}, dict(self.tips), self.route)


def route_text(src: str) -> str:
    """How the row reaches the hardware from ``src``, in one line (the row's note and header
    tip). Known before the GPU answers, so the row waiting for an answer says the same."""
    src, hub = get_format(src).name, SHADER_FLOAT
    rendered = " / ".join(RENDERED)
    if src == hub:
        return f"render target: {src} shader output stored as {rendered}"
    if src in SAMPLED:
        others = " / ".join(d for d in RENDERED if d != src)
        return (f"through {hub}: the {src} value sampled from a texture as {hub} on the GPU, "
                f"then rendered to {others} render targets")
    if src == F64_NAME:
        return (f"through {hub}: {src} → {hub} by the model's D3D rule (CONV-DTOF; no GPU "
                f"format holds {src}), then {hub} rendered to {rendered} render targets")
    return (f"through {hub}: {src} → {hub} by the model (exact; no GPU format holds {src}), "
            f"then {hub} rendered to {rendered} render targets")


def convert_via_f32(session: Any, bits: Any, src: str, dsts: tuple[str, ...]) -> GpuConversions:
    """Convert patterns ``bits`` of ``src`` to each of ``dsts`` on the GPU, through f32.

    Parameters
    ----------
    session : GpuSession (or anything with ``convert(bits, src, dst)``)
    bits : array of ``src`` patterns
    src : inspected format name
    dsts : target format names (``src`` itself is skipped)

    Returns
    -------
    GpuConversions
        A failing step becomes the reason text of the cells that need it, never an exception.
    """
    src = get_format(src).name
    a = np.asarray(bits, dtype=get_format(src).dtype)
    out = GpuConversions(route=route_text(src))
    hub, word = SHADER_FLOAT, get_format(SHADER_FLOAT).dtype
    if src == hub:
        x, start = a, f"the inspected {hub}"
    elif src in SAMPLED:
        start = f"the GPU's sample of the {src} texture as {hub}"
        try:
            x = np.asarray(session.convert(a, src, hub)).astype(word)
        except Exception as exc:  # noqa: BLE001 - shown in the cells
            x, start = None, f"sampling {src} → {hub} failed: {error_text(exc)}"
        if hub in dsts:
            out.results[hub] = x if x is not None else start
            out.tips[hub] = f"texture sample ({src} texture read as {hub} by texelFetch)"
    elif src == F64_NAME:
        from ..model.convert import convert

        x = np.asarray(convert(a, src, hub, "d3d").bits).astype(word)
        start = (f"the model's D3D {src} → {hub} (CONV-DTOF) pattern "
                 f"0x{int(x.reshape(-1)[0]):08X}, as no GPU format holds {src}")
        if hub in dsts:
            out.results[hub] = (f"—: the {hub} step is the model's CONV-DTOF, not the GPU "
                                f"(no texture or render target holds {src})")
            out.tips[hub] = out.results[hub]
    else:  # bf16, FP8: widened exactly by the model
        from ..model.convert import convert

        x = np.asarray(convert(a, src, hub, "ieee").bits).astype(word)
        start = f"the model's exact {src} → {hub} widening (no GPU format holds {src})"
        if hub in dsts:
            out.results[hub] = out.tips[hub] = f"—: {start}; the GPU has no step of it"
    for dst in dsts:
        if dst == src or dst in out.results:
            continue
        if dst != hub and dst not in RENDERED:
            out.results[dst] = _no_texture(dst)
        elif x is None:
            out.results[dst] = start
        else:
            try:
                out.results[dst] = np.asarray(session.convert(x, hub, dst))
            except Exception as exc:  # noqa: BLE001 - one target missing is not fatal
                out.results[dst] = f"—: {error_text(exc)}"
        out.tips[dst] = (f"render target f32 → {dst}, starting from {start}"
                         if dst in RENDERED else _no_texture(dst))
    return out
