"""Does a capture path carry raw bits? Raw moves of every f32 (and f64, f16) class, per path.

Two checks per capture path (compute, fragment), plus the R32F render target that
conversions use:

* **wire**: an integer pass-through (uint in, uint out: no float anywhere) returns every
  word. This is the capture itself (upload, texture / SSBO, target, read-back); if it
  fails, no result of that path can be trusted bit for bit.
* **raw move**: ``uintBitsToFloat`` -> float variable -> ``floatBitsToUint`` (the ``mov``
  kernel; for f64 ``packDouble2x32``) returns the same bits for each class: signed zeros,
  denormals, normals, infinities, quiet and signaling NaNs with payloads. A driver whose
  float registers canonicalise NaNs or flush denormals on a move fails the classes
  concerned; results of that class on that path then show the path, not the op
  (:func:`affected_classes` names them; the report and the app mark them).

f16 classes are checked on a path that captures f16 (WebGPU with ``shader-f16``: f16 pairs
in ``array<vec2<f16>>`` memory); GL without half-float arithmetic has no f16 route, and its
``f16_classes`` stay empty.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..model.formats import get_format
from .capture_formats import SHADER_DOUBLE, SHADER_FLOAT, SHADER_HALF
from .shaders import Kernel

__all__ = ["F32_CLASSES", "F64_CLASSES", "F16_CLASSES", "PathFidelity", "check_fidelity",
           "classify_bits", "affected_classes", "fidelity_note", "session_note", "f16_summary"]

#: f32 test patterns per class (both signs where the sign matters).
F32_CLASSES: dict[str, tuple[int, ...]] = {
    "zero": (0x00000000, 0x80000000),
    "denormal": (0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00012345),
    "normal": (0x00800000, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x40490FDB),
    "infinity": (0x7F800000, 0xFF800000),
    "quiet NaN": (0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FD23456),
    "signaling NaN": (0x7F800001, 0xFF800001, 0x7FA00000, 0x7FBFFFFF, 0xFFBFFFFF, 0x7F812345),
}
#: f64 test patterns per class.
F64_CLASSES: dict[str, tuple[int, ...]] = {
    "zero": (0, 1 << 63),
    "denormal": (1, (1 << 63) | 1, 0x000FFFFFFFFFFFFF, 0x0008000000000000),
    "normal": (0x3FF0000000000000, 0xBFF0000000000000, 0x7FEFFFFFFFFFFFFF, 0x0010000000000000),
    "infinity": (0x7FF0000000000000, 0xFFF0000000000000),
    "quiet NaN": (0x7FF8000000000000, 0xFFF8000000000001, 0x7FFFFFFFFFFFFFFF),
    "signaling NaN": (0x7FF0000000000001, 0xFFF4000000000000, 0x7FF7FFFFFFFFFFFF),
}
#: f16 test patterns per class (quiet NaN: top fraction bit set; signaling: clear).
F16_CLASSES: dict[str, tuple[int, ...]] = {
    "zero": (0x0000, 0x8000),
    "denormal": (0x0001, 0x8001, 0x03FF, 0x0200),
    "normal": (0x0400, 0x3C00, 0xBC00, 0x7BFF),
    "infinity": (0x7C00, 0xFC00),
    "quiet NaN": (0x7E00, 0xFE01, 0x7FFF),
    "signaling NaN": (0x7C01, 0xFC01, 0x7DFF),
}
_TABLES = {SHADER_FLOAT: F32_CLASSES, SHADER_DOUBLE: F64_CLASSES, SHADER_HALF: F16_CLASSES}
_KEYS = {SHADER_FLOAT: "classes", SHADER_DOUBLE: "f64_classes", SHADER_HALF: "f16_classes"}
WIRE32 = Kernel("wire", "u32", ("u32",), "u32", "{0}", (), "integer pass-through")


@dataclass
class PathFidelity:
    """What one capture path does to raw bits."""

    path: str
    wire: bool
    classes: dict[str, bool] = field(default_factory=dict)
    f64_classes: dict[str, bool] = field(default_factory=dict)
    #: empty when the path has no f16 route (GL without half-float arithmetic)
    f16_classes: dict[str, bool] = field(default_factory=dict)
    mismatches: list[dict[str, str]] = field(default_factory=list)

    @property
    def raw_bits(self) -> bool:
        """Every class survives the capture and a raw move."""
        return self.wire and all(self.classes.values()) and all(self.f64_classes.values()) \
            and all(self.f16_classes.values())

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "raw_bits": self.raw_bits, "note": self.note()}

    def note(self) -> str:
        if not self.wire:
            return (f"the {self.path} capture does not return raw words: no result of this "
                    "path can be trusted bit for bit")
        bad = [c for c, ok in self.classes.items() if not ok]
        bad64 = [f"f64 {c}" for c, ok in self.f64_classes.items() if not ok]
        bad16 = [f"f16 {c}" for c, ok in self.f16_classes.items() if not ok]
        if not bad and not bad64 and not bad16:
            kinds = ([SHADER_FLOAT] + [SHADER_DOUBLE] * bool(self.f64_classes)
                     + [SHADER_HALF] * bool(self.f16_classes))
            named = " and ".join([", ".join(kinds[:-1]), kinds[-1]] if len(kinds) > 1 else kinds)
            return f"raw bits: every {named} class survives a raw move"
        return (f"a raw move on the {self.path} path changes {', '.join(bad + bad64 + bad16)}: "
                "results of those classes on this path may show the path, not the op")


def _arr(values: tuple[int, ...], dtype: Any) -> np.ndarray:
    return np.array(values, dtype=dtype)


def _check_classes(run: Any, classes: dict[str, tuple[int, ...]], dtype: Any, path: str,
                   width: int, out: PathFidelity) -> dict[str, bool]:
    result = {}
    for name, values in classes.items():
        x = _arr(values, dtype)
        got = np.asarray(run(x)).astype(dtype)
        ok = got == x
        result[name] = bool(ok.all())
        out.mismatches += [{"path": path, "class": name, "input": f"0x{int(a):0{width}X}",
                            "got": f"0x{int(g):0{width}X}"} for a, g in zip(x[~ok], got[~ok])]
    return result


def check_fidelity(session: Any, paths: tuple[str, ...] | None = None) -> dict[str, PathFidelity]:
    """Raw-move fidelity of each capture path of ``session`` (and of the R32F target as
    path "render"). Works with a :class:`GpuSession` or a :class:`ChildSession`."""
    info = session.info
    out: dict[str, PathFidelity] = {}
    all32 = np.concatenate([_arr(v, np.uint32) for v in F32_CLASSES.values()])
    for path in paths or tuple(info["paths"]):
        wire = session.run_kernel(WIRE32, all32, path=path)
        fid = PathFidelity(path, bool(np.array_equal(wire, all32)))
        fid.classes = _check_classes(lambda x, p=path: session.capture("mov", x, path=p),
                                     F32_CLASSES, np.uint32, path, 8, fid)
        if session.supports("mov", SHADER_DOUBLE, path=path):
            fid.f64_classes = _check_classes(
                lambda x, p=path: session.capture("mov", x, format=SHADER_DOUBLE, path=p),
                F64_CLASSES, np.uint64, path, 16, fid)
        if session.supports("mov", SHADER_HALF, path=path):
            fid.f16_classes = _check_classes(
                lambda x, p=path: session.capture("mov", x, format=SHADER_HALF, path=p),
                F16_CLASSES, np.uint16, path, 4, fid)
        out[path] = fid
    render = PathFidelity("render", True)
    render.classes = _check_classes(lambda x: session.convert(x, SHADER_FLOAT, SHADER_FLOAT,
                                                             path="render"),
                                    F32_CLASSES, np.uint32, "render", 8, render)
    out["render"] = render
    return out


def classify_bits(bits: np.ndarray, fmt: str = SHADER_FLOAT) -> np.ndarray:
    """The :data:`F32_CLASSES` / :data:`F64_CLASSES` / :data:`F16_CLASSES` class name of
    each pattern of ``fmt``."""
    b = np.asarray(bits, np.uint64)  # f32 / f16 words widen exactly
    rec = get_format(fmt)
    ebits, fbits = rec.exp_bits, rec.frac_bits
    one = np.uint64(1)
    exp = (b >> np.uint64(fbits)) & np.uint64((1 << ebits) - 1)
    frac = b & np.uint64((1 << fbits) - 1)
    quiet = (b >> np.uint64(fbits - 1)) & one
    top = (1 << ebits) - 1
    return np.select(
        [(exp == 0) & (frac == 0), exp == 0, exp < top, frac == 0, quiet == one],
        ["zero", "denormal", "normal", "infinity", "quiet NaN"], "signaling NaN")


def affected_classes(fidelity: dict[str, Any] | None, path: str, fmt: str = SHADER_FLOAT) -> set[str]:
    """Classes a path does not carry raw (from :func:`check_fidelity` results or their
    ``to_dict()`` form); every class when its wire check failed."""
    if not fidelity or path not in fidelity:
        return set()
    f = fidelity[path]
    d = f.to_dict() if isinstance(f, PathFidelity) else f
    table = _TABLES.get(fmt, F32_CLASSES)
    if not d.get("wire", True):
        return set(table)
    return {c for c, ok in (d.get(_KEYS.get(fmt, "classes")) or {}).items() if not ok}


def fidelity_note(fidelity: dict[str, Any] | None, path: str, fmt: str, bits: Any) -> str | None:
    """A warning when ``bits`` (a result on ``path``) is of a class that path does not carry
    raw, else None: what the app and the report show next to such a result."""
    if fmt not in _TABLES:
        return None
    bad = affected_classes(fidelity, path, fmt)
    if not bad:
        return None
    cls = str(classify_bits(np.asarray([int(bits)]), fmt)[0])
    if cls not in bad:
        return None
    return (f"capture fidelity: a raw move of a {cls} on the {path} path does not keep its "
            "bits here, so this result's bits may be the path's, not the op's")


def session_note(info: dict[str, Any] | None, fmt: str, bits: Any) -> str | None:
    """:func:`fidelity_note` for a result captured on a session's default path, from its
    ``info`` (the app's GPU worker puts the fidelity check under ``info["fidelity"]``)."""
    info = info or {}
    return fidelity_note(info.get("fidelity"), str(info.get("path", "")), fmt, bits)


def f16_summary(entry: dict[str, Any]) -> str:
    """One phrase on a saved fidelity entry's f16 classes: raw, which classes change, no
    f16 route on the path (``f16_classes`` empty), or not measured (a report saved before
    f16 fidelity was measured: schema version 2 has no ``f16_classes``)."""
    if "f16_classes" not in entry:
        return "f16 not measured (a report from before schema version 3)"
    classes = entry["f16_classes"]
    if not classes:
        return "no f16 route on this path"
    if not entry.get("wire", True):
        return "f16 not raw (the wire changes bits)"
    bad = [c for c, ok in classes.items() if not ok]
    return f"f16 changes {', '.join(bad)}" if bad else "f16 raw (every class)"
