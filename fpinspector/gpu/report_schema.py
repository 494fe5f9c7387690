"""The whole schema of a saved GPU report (versions 2 and 3), checked before any of it is used.

Why whole: the comparison, the text report and the app's GPUs view read every field of a
report; a saved report that a user or a disk damaged must fail here, once, with the field
named (``probes[3].verdict.d3d11: expected true or false, got 'yes'``), never later as a
TypeError in whatever code happens to read that field (in the app: on every op change).
Checked: types, ranges (counts and fractions), lengths (strings, lists), and the fields
that must agree (histogram bins and counts, samples, verdicts per rule set).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from ..model.reading import excerpt

__all__ = ["check_report_dict", "MAX_TEXT", "MAX_ITEMS"]

#: Longest text field (a probe's question, a deviation's summary: a few hundred characters).
MAX_TEXT = 4096
#: Most entries of any list or object (a report holds ~100 probes and ~40 unsupported pairs).
MAX_ITEMS = 10_000
#: Most samples a ULP distribution may claim (``gpu-report --samples`` allows 2^26).
MAX_SAMPLES = 1 << 40


class _Bad(ValueError):
    pass


def _fail(where: str, want: str, v: Any) -> _Bad:
    return _Bad(f"{where}: expected {want}, got {excerpt(v)}")


def _text(v: Any, where: str) -> str:
    if not isinstance(v, str):
        raise _fail(where, "text", v)
    if len(v) > MAX_TEXT:
        raise _Bad(f"{where}: {len(v):,} characters; at most {MAX_TEXT}")
    return v


def _opt_text(v: Any, where: str) -> str | None:
    return None if v is None else _text(v, where)


def _flag(v: Any, where: str) -> bool:
    if type(v) is not bool:
        raise _fail(where, "true or false", v)
    return v


def _int(v: Any, where: str, lo: int = 0, hi: int = MAX_SAMPLES) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise _fail(where, f"an integer {lo}..{hi}", v)
    return v


def _num(v: Any, where: str, *, finite: bool = False) -> float:
    if type(v) not in (int, float) or (finite and not math.isfinite(v)):
        raise _fail(where, "a finite number" if finite else "a number", v)
    return float(v)


def _list(v: Any, where: str) -> list:
    if not isinstance(v, list):
        raise _fail(where, "a list", v)
    if len(v) > MAX_ITEMS:
        raise _Bad(f"{where}: {len(v):,} entries; at most {MAX_ITEMS}")
    return v


def _obj(v: Any, where: str) -> dict:
    if not isinstance(v, dict):
        raise _fail(where, "an object", v)
    if len(v) > MAX_ITEMS:
        raise _Bad(f"{where}: {len(v):,} entries; at most {MAX_ITEMS}")
    for k in v:
        _text(k, f"{where} key")
    return v


def _texts(v: Any, where: str) -> list[str]:
    return [_text(x, f"{where}[{i}]") for i, x in enumerate(_list(v, where))]


def _flags(v: Any, where: str) -> dict[str, bool]:
    return {k: _flag(x, f"{where}.{k}") for k, x in _obj(v, where).items()}


def _fields(d: Any, where: str, spec: Mapping[str, Callable[[Any, str], object]],
            optional: tuple[str, ...] = ()) -> dict:
    d = _obj(d, where)
    for key, check in spec.items():
        if key not in d:
            if key in optional:
                continue
            raise _Bad(f"{where}: missing {key!r}")
        check(d[key], f"{where}.{key}")
    return d


def _scalar_or_list(v: Any, where: str) -> None:
    """A driver info value: text, a number, a flag, null, or a list of those."""
    items = _list(v, where) if isinstance(v, list) else [v]
    for i, x in enumerate(items):
        if x is not None and type(x) not in (bool, int, float):
            _text(x, f"{where}[{i}]" if isinstance(v, list) else where)


_INFO = {"renderer": _text, "vendor": _text, "version": _text, "paths": _texts, "fp64": _flag,
         "device": lambda v, w: None if v is None else _int(v, w, 0, 1 << 16),
         "backend": _text, "driver": _text, "process": _text, "path": _text,
         "half_float_arithmetic": _texts}
_PROBE = {"id": _text, "question": _text, "rule": _text, "path": _text, "inputs": _texts,
          "observed": _text, "model": _text, "verdict": _flags, "deviation": _opt_text,
          "capture_note": _opt_text}
_DEVIATION = {"id": _text, "summary": _text, "paths": _texts, "rules": _texts,
              "format": _text, "ops": _texts}
_UNSUPPORTED = {"op": _text, "format": _text, "reason": _text}
_FIDELITY = {"path": _text, "raw_bits": _flag, "wire": _flag, "note": _text,
             "classes": _flags, "f64_classes": _flags, "f16_classes": _flags,
             "mismatches": _list}


def _info(v: Any, where: str) -> None:
    d = _fields(v, where, _INFO, optional=("device", "backend", "driver", "process", "path",
                                           "half_float_arithmetic"))
    for k, x in d.items():
        if k not in _INFO:
            _scalar_or_list(x, f"{where}.{k}")


def _hex_or_word(v: str, where: str) -> None:
    """Observed/model results: a 0x pattern (read as hex by the app) or a short word."""
    if v.startswith("0x"):
        try:
            int(v, 16)
        except ValueError:
            raise _fail(where, "a 0x hex pattern", v) from None
        if len(v) > 18:
            raise _fail(where, "a pattern of at most 64 bits", v)


def _probe(p: Any, where: str) -> None:
    d = _fields(p, where, _PROBE, optional=("deviation", "capture_note"))
    _hex_or_word(d["observed"], f"{where}.observed")
    _hex_or_word(d["model"], f"{where}.model")
    for i, x in enumerate(d["inputs"]):
        _hex_or_word(x, f"{where}.inputs[{i}]")


def _ulp(u: Any, where: str) -> None:
    d = _fields(u, where, {"op": _text, "rule": _text, "path": _text,
                           "samples": lambda v, w: _int(v, w, 1), "max_ulp": _num,
                           "mean_ulp": _num, "bins": _list, "counts": _list,
                           "allowed_fraction": _obj, "verdict": _flags})
    samples = d["samples"]
    for key in ("max_ulp", "mean_ulp"):
        if d[key] < 0:
            raise _fail(f"{where}.{key}", "a number >= 0", d[key])
    bins = [_num(b, f"{where}.bins[{i}]", finite=True) for i, b in enumerate(d["bins"])]
    counts = [_int(c, f"{where}.counts[{i}]", 0, samples) for i, c in enumerate(d["counts"])]
    if len(bins) != len(counts) + 1 or not counts:
        raise _Bad(f"{where}: {len(bins)} bin edges for {len(counts)} counts (one more edge "
                   "than counts)")
    if any(b >= c for b, c in zip(bins, bins[1:])):
        raise _Bad(f"{where}.bins: edges must increase")
    if sum(counts) > samples:
        raise _Bad(f"{where}: the histogram counts {sum(counts)} of {samples} samples")
    fractions = d["allowed_fraction"]
    for k, x in fractions.items():
        if not 0.0 <= _num(x, f"{where}.allowed_fraction.{k}") <= 1.0:
            raise _fail(f"{where}.allowed_fraction.{k}", "a fraction 0..1", x)
    if set(d["verdict"]) != set(fractions):
        raise _Bad(f"{where}: verdicts for {sorted(d['verdict'])} but allowed fractions for "
                   f"{sorted(fractions)}")


def _fidelity(v: Any, where: str) -> None:
    for path, f in _obj(v, where).items():
        # f16_classes: version 3 (absent in version 2 and read as "f16 not measured")
        d = _fields(f, f"{where}.{path}", _FIDELITY, optional=("f16_classes",))
        if d["path"] != path:
            raise _Bad(f"{where}.{path}.path: {excerpt(d['path'])} under {excerpt(path)}")


def _header(d: dict) -> None:
    if "created" in d:
        _text(d["created"], "created")
    if "fpinspector" in d:
        _text(d["fpinspector"], "fpinspector")
    if "rules" in d:
        _fields(d["rules"], "rules", {"digest": _text, "rule_sets": _texts},
                optional=("digest", "rule_sets"))
    if "settings" in d:
        _fields(d["settings"], "settings",
                {"samples": lambda v, w: _int(v, w, 1), "seed": lambda v, w: _int(
                    v, w, 0, (1 << 64) - 1), "paths": _texts},
                optional=("samples", "seed", "paths"))


def check_report_dict(d: dict) -> None:
    """Check every field of a decoded version-2 or -3 report (schema and version already read).

    Raises ``ValueError`` naming the first bad field and quoting at most
    :data:`~fpinspector.model.reading.EXCERPT_CHARS` characters of it.
    """
    _header(d)
    _info(d.get("info"), "info")
    if "half_float" in d:
        _text(d["half_float"], "half_float")
    _fidelity(d.get("fidelity"), "fidelity")
    for i, p in enumerate(_list(d.get("probes"), "probes")):
        _probe(p, f"probes[{i}]")
    for i, u in enumerate(_list(d.get("ulp"), "ulp")):
        _ulp(u, f"ulp[{i}]")
    for i, x in enumerate(_list(d.get("deviations", []), "deviations")):
        _fields(x, f"deviations[{i}]", _DEVIATION)
    for i, x in enumerate(_list(d.get("unsupported", []), "unsupported")):
        _fields(x, f"unsupported[{i}]", _UNSUPPORTED)
