"""Rebuild a :class:`~.summary.Summary` from its ``to_dict`` form, checked and dtype-exact.

Why exact: a resumed sweep keeps folding chunks into the summary it reloaded, and the result
must equal an uninterrupted run's; worst-input rows therefore come back with the dtypes the
live summary uses (indices int64, patterns uint64, values float64), never whatever JSON
numbers happen to give. Why checked: the dict comes from a file someone may have edited or
damaged; every field is type-checked here and a bad one raises ``ValueError`` naming it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..formats import CLASS_NAMES
from .hist import hist_labels
from .summary import Summary

__all__ = ["summary_from_dict", "MAX_ROWS"]

#: Most rows a saved worst-input or non-conformant list may hold (the CLI's --top/--first cap).
MAX_ROWS = 1_000_000


def _int(v: Any, what: str, lo: int = 0, hi: int | None = None) -> int:
    if type(v) is not int:  # bool is an int subclass: refused too
        raise ValueError(f"{what}: expected an integer, got {_short(v)}")
    if v < lo or (hi is not None and v > hi):
        raise ValueError(f"{what}: {v} is out of range")
    return v


def _num(v: Any, what: str) -> float:
    if type(v) not in (int, float):
        raise ValueError(f"{what}: expected a number, got {_short(v)}")
    return float(v)


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _obj(v: Any, what: str) -> dict:
    if not isinstance(v, dict):
        raise ValueError(f"{what}: expected an object, got {_short(v)}")
    return v


def _list(v: Any, what: str) -> list:
    if not isinstance(v, list):
        raise ValueError(f"{what}: expected a list, got {_short(v)}")
    return v


def _counts(v: Any, what: str, n: int | None = None) -> dict[str, int]:
    d = _obj(v, what)
    out = {str(k): _int(c, f"{what}[{k!r}]") for k, c in d.items()}
    if n is not None and len(out) != n:
        raise ValueError(f"{what}: expected {n} counts, got {len(out)}")
    return out


def _classes(v: Any, what: str) -> np.ndarray:
    d = _counts(v, what)
    if list(d) != list(CLASS_NAMES):
        raise ValueError(f"{what}: expected the classes {', '.join(CLASS_NAMES)}")
    return np.array([d[c] for c in CLASS_NAMES], np.int64)


def _field_dtype(name: str) -> type:
    if name == "index":
        return np.int64
    if name in ("model", "gpu") or (name.startswith("op") and name[2:].isdigit()):
        return np.uint64
    return np.float64


def _rows(v: Any, what: str, need: tuple[str, ...]) -> dict[str, np.ndarray] | None:
    """Rows of a worst-input or non-conformant list as columns of the live dtypes."""
    rows = _list(v, what)
    if len(rows) > MAX_ROWS:
        raise ValueError(f"{what}: {len(rows)} rows; at most {MAX_ROWS}")
    if not rows:
        return None
    first = _obj(rows[0], f"{what}[0]")
    names = list(first)
    missing = [f for f in need if f not in first]
    if missing:
        raise ValueError(f"{what}: rows need the field(s) {', '.join(missing)}")
    cols: dict[str, list] = {f: [] for f in names}
    for i, r in enumerate(rows):
        r = _obj(r, f"{what}[{i}]")
        if list(r) != names:
            raise ValueError(f"{what}[{i}]: fields differ from the first row's")
        for f in names:
            dt = _field_dtype(f)
            if dt is np.float64:
                cols[f].append(_num(r[f], f"{what}[{i}].{f}"))
            else:
                cols[f].append(_int(r[f], f"{what}[{i}].{f}", 0, (1 << 64) - 1 if dt is np.uint64
                                    else (1 << 63) - 1))
    return {f: np.array(c, dtype=_field_dtype(f)) for f, c in cols.items()}


def summary_from_dict(d: Any, *, top_k: int = 10, first_n: int = 100) -> Summary:
    """The :class:`Summary` whose ``to_dict()`` is ``d`` (what a sweep file holds).

    ``top_k`` and ``first_n`` are the sizes the sweep ran with (saved in its metadata); the
    rebuilt summary goes on with them. Raises ``ValueError`` naming the first bad field.
    """
    d = _obj(d, "summary")
    for key in ("format", "result_format"):
        if not isinstance(d.get(key), str):
            raise ValueError(f"summary.{key}: expected a name")
    s = Summary(d["format"], d["result_format"], top_k=top_k, first_n=first_n)
    s.total = _int(d.get("total"), "summary.total")
    nbins = len(hist_labels())
    for col, h in _obj(d.get("histograms"), "summary.histograms").items():
        h = _list(h, f"summary.histograms[{col!r}]")
        if len(h) != nbins:
            raise ValueError(f"summary.histograms[{col!r}]: expected {nbins} bins, got {len(h)}")
        s.hist[str(col)] = np.array([_int(c, f"summary.histograms[{col!r}]") for c in h],
                                    np.int64)
    for col, rows in _obj(d.get("worst"), "summary.worst").items():
        got = _rows(rows, f"summary.worst[{col!r}]", ("index", "key"))
        if got is not None:  # (a live summary has no entry until a row is kept)
            if np.isnan(got["key"]).any():
                raise ValueError(f"summary.worst[{col!r}]: NaN keys")
            s.worst[str(col)] = got
    s.operand_classes = [_classes(c, f"summary.operand_classes[{i}]") for i, c in
                         enumerate(_list(d.get("operand_classes"), "summary.operand_classes"))]
    s.result_classes = {str(k): _classes(v, f"summary.result_classes[{k!r}]") for k, v in
                        _obj(d.get("result_classes"), "summary.result_classes").items()}
    s.fired = _counts(d.get("fired"), "summary.fired")
    s.conformant = _counts(d.get("conformant"), "summary.conformant")
    s.nonconformant = _rows(d.get("first_nonconformant"), "summary.first_nonconformant",
                            ("index",))
    for what, n in [("fired", v) for v in s.fired.values()] + [
            ("conformant", v) for v in s.conformant.values()]:
        if n > s.total:
            raise ValueError(f"summary.{what}: a count exceeds the {s.total} elements")
    classes = [(f"operand_classes[{i}]", c) for i, c in enumerate(s.operand_classes)] + [
        (f"result_classes[{k!r}]", c) for k, c in s.result_classes.items()]
    for what, c in classes:
        if int(c.sum()) != s.total:
            raise ValueError(f"summary.{what}: counts {int(c.sum())} elements, not {s.total}")
    ncount = _int(d.get("nonconformant_count", 0), "summary.nonconformant_count", 0, s.total)
    if ncount != s.nonconformant_count():
        raise ValueError(f"summary.nonconformant_count: {ncount}, but the conformant counts "
                         f"say {s.nonconformant_count()}")
    for col, h in s.hist.items():
        if int(h.sum()) != s.total:
            raise ValueError(f"summary.histograms[{col!r}]: counts {int(h.sum())} elements, "
                             f"not {s.total}")
    return s
