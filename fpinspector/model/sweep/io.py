"""Save and reload sweeps: .npz (arrays + JSON metadata, atomic) and CSV summaries.

Files are written to a temporary name in the target folder and moved into place with
``os.replace``, so a reader never sees half a file; a cancelled sweep is saved with
``"complete": false`` and :func:`load_npz` refuses it unless asked. Axes are saved as their
definition (kind, ends, count), never as pattern arrays: saving costs memory for what the
sweep kept (summaries, and per-element columns where kept), not for the size of its domain.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import numpy as np

from ..formats import operand_format
from ..reading import excerpt, regular_file
from ..state.atomic import atomic_write
from .csv_elements import write_csv_elements
from .domain import Axis, Domain, GridDomain, UnaryDomain
from .npz_read import READ_ERRORS, NpzMembers, load_json, open_members
from .runner import SweepResult
from .summary_dict import MAX_ROWS, summary_from_dict

__all__ = ["save_npz", "load_npz", "content_digest", "CHECKSUM_KEY", "write_csv_summary", "write_csv_elements", "FILE_VERSION",
           "MAX_LOAD_BYTES"]

FILE_VERSION = 1
#: The metadata key holding the SHA-256 of the file's contents (:func:`content_digest`).
CHECKSUM_KEY = "sha256"
#: Most bytes the per-element arrays of one file may take once loaded (1 GiB: a kept sweep
#: of 2^24 elements with every column); ``load_npz(max_bytes=...)`` raises it.
MAX_LOAD_BYTES = 1 << 30
_TEXT_META = ("op", "format", "rules", "result_format", "domain", "renderer")


class _Refused(ValueError):
    """A sweep file read fine but is not acceptable (message says why)."""


def _axis_meta(ax: Axis) -> dict[str, Any]:
    return {"format": ax.fmt.name, "kind": ax.kind, "start": ax.start, "stop": ax.stop, "n": ax.n}


def save_npz(path: str | os.PathLike, result: SweepResult) -> Path:
    """Write ``result`` to ``path`` (.npz): columns, fired masks, axes, metadata, summary.

    The ``complete`` flag in the metadata is the result's own: a cancelled sweep never
    produces a file that claims to be complete. Memory: the metadata and the summary, plus
    the per-element arrays the result already holds (none for summary-only sweeps).
    """
    meta = dict(result.meta)
    meta.update(
        version=FILE_VERSION,
        complete=bool(result.complete),
        n_done=int(result.n_done),
        axes=[_axis_meta(a) for a in result.domain.axes],
        shape=list(result.domain.shape),
        top_k=int(result.summary.top_k),
        first_n=int(result.summary.first_n),
        timings=result.timings,
    )
    summary = json.dumps(result.summary.to_dict())
    arrays: dict[str, np.ndarray] = {}
    n = int(result.n_done)  # a cancelled sweep's columns: only what was computed
    for name, col in result.columns.items():
        arrays[f"col__{name}"] = col[:n]
    for rule, mask in result.fired.items():
        arrays[f"fired__{rule}"] = mask[:n]
    meta = json.loads(json.dumps(meta))  # (the form a reader gets back, for the checksum)
    meta[CHECKSUM_KEY] = content_digest(meta, summary, arrays)
    arrays["meta"] = np.array(json.dumps(meta))
    arrays["summary"] = np.array(summary)

    def write(fh: BinaryIO) -> None:
        np.savez(fh, **arrays)  # type: ignore[arg-type]  # (numpy's stub types **kwds as bool)

    return atomic_write(path, write, binary=True)


def content_digest(meta: dict[str, Any], summary: str, arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 of what a sweep file holds: the metadata (but this digest), the summary text
    and every per-element array (name, dtype, shape and bytes), in a fixed order."""
    h = hashlib.sha256()
    body = {k: v for k, v in meta.items() if k != CHECKSUM_KEY}
    for part in (json.dumps(body, sort_keys=True), summary):
        h.update(len(part).to_bytes(8, "little") + part.encode("utf-8", "surrogatepass"))
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"\n{name}|{a.dtype.str}|{a.shape}|{a.nbytes}\n".encode())
        h.update(a.tobytes() if a.dtype.kind == "U" else a.view(np.uint8).reshape(-1).data)
    return h.hexdigest()


def load_npz(path: str | os.PathLike, *, require_complete: bool = True,
             max_bytes: int = MAX_LOAD_BYTES, require_checksum: bool = False) -> SweepResult:
    """Read a file written by :func:`save_npz` back into a :class:`SweepResult`.

    Raises ``ValueError`` (only) for files that are not sweeps, damaged or inconsistent
    files (every array's shape is checked against the metadata before it is read, and the
    arrays may take at most ``max_bytes``), and for incomplete (cancelled) sweeps unless
    ``require_complete`` is False. A file's SHA-256 (``meta["sha256"]``, written since files
    carry one) is always checked; ``require_checksum`` (what ``--resume`` asks) also refuses
    a file written before, which cannot be checked.
    """
    if isinstance(path, (str, os.PathLike)):
        regular_file(path)  # a zip is read by seeking: a device or a pipe never ends
    try:
        zf, members = open_members(path)
    except READ_ERRORS as exc:
        raise ValueError(f"{path}: cannot read sweep file ({_why(exc)})") from None
    with zf:
        try:
            return _load(members, require_complete, max_bytes, require_checksum)
        except _Refused as exc:
            raise ValueError(f"{path}: {exc}") from None
        except READ_ERRORS as exc:
            raise ValueError(f"{path}: cannot read sweep file ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _load(members: NpzMembers, require_complete: bool, max_bytes: int,
          require_checksum: bool = False) -> SweepResult:
    names = members.names()
    if "meta" not in names or "summary" not in names:
        raise _Refused("not an fpinspector sweep file")
    try:
        meta = load_json(members.text("meta"), "metadata")
        domain, top_k, first_n = _check_meta(meta)
    except ValueError as exc:
        raise _Refused(f"not a valid sweep file: {exc}") from None
    if require_complete and not meta["complete"]:
        raise _Refused(f"sweep is incomplete (cancelled after {meta['n_done']} of "
                       f"{domain.size} elements)")
    arrays = [n for n in names if n.startswith(("col__", "fired__"))]
    try:
        total = _check_arrays(members, arrays, meta["n_done"], domain.size)
        if total > max_bytes:
            raise ValueError(f"its arrays take {total} bytes; the limit is {max_bytes} "
                             "(load_npz(max_bytes=...) raises it)")
        stext = members.text("summary")
        sdict = load_json(stext, "summary")
        summary = summary_from_dict(sdict, top_k=top_k, first_n=first_n)
        if summary.total != meta["n_done"]:
            raise ValueError(f"the summary counts {summary.total} elements, the metadata "
                             f"{meta['n_done']}")
    except ValueError as exc:
        raise _Refused(f"not a valid sweep file: {exc}") from None
    raw = {n: members.read(n) for n in arrays}
    _check_digest(meta, stext, raw, require_checksum)
    cols = {n[5:]: _full(a, domain.size) for n, a in raw.items() if n.startswith("col__")}
    fired = {n[7:]: _full(a, domain.size) for n, a in raw.items() if n.startswith("fired__")}
    timings = meta.pop("timings", {})
    return SweepResult(domain, summary, cols, fired, meta["complete"], meta["n_done"], meta,
                       timings)


def _check_digest(meta: dict[str, Any], summary: str, arrays: dict[str, np.ndarray],
                  required: bool) -> None:
    saved = meta.pop(CHECKSUM_KEY, None)
    if saved is None:
        if required:
            raise _Refused("written by an fpinspector that saved no checksum, so its numbers "
                           "cannot be checked: run the sweep again without --resume")
        return
    if not (isinstance(saved, str) and len(saved) == 64):
        raise _Refused(f"its checksum {excerpt(saved)} is not a SHA-256; the file is damaged")
    if content_digest(meta, summary, arrays) != saved:
        raise _Refused("its contents do not match their SHA-256 checksum: the file was "
                       "damaged or edited")


def _check_meta(meta: Any) -> tuple[Domain, int, int]:
    """Types and consistency of the metadata; returns (domain, top_k, first_n)."""
    if not isinstance(meta, dict):
        raise ValueError("metadata is not an object")
    if type(meta.get("version")) is not int or meta["version"] != FILE_VERSION:
        raise ValueError(f"unsupported file version {meta.get('version')!r} (this reads "
                         f"version {FILE_VERSION})")
    if type(meta.get("complete")) is not bool:
        raise ValueError(f"'complete' must be true or false, got {meta.get('complete')!r}")
    axes = meta.get("axes")
    if not isinstance(axes, list) or len(axes) not in (1, 2):
        n = len(axes) if isinstance(axes, list) else "no"
        raise ValueError(f"{n} axes; a sweep file holds 1 (unary op) or 2 (A x B grid)")
    domain = _domain([_axis(a, i) for i, a in enumerate(axes)])
    if "shape" in meta and meta["shape"] != list(domain.shape):
        raise ValueError(f"shape {meta['shape']!r} does not match the axes {list(domain.shape)}")
    n_done = meta.get("n_done")
    if type(n_done) is not int or not 0 <= n_done <= domain.size:
        raise ValueError(f"n_done {n_done!r} is not a count of 0..{domain.size} elements")
    if meta["complete"] and n_done != domain.size:
        raise ValueError(f"marked complete after {n_done} of {domain.size} elements")
    for key in _TEXT_META:
        if key in meta and not isinstance(meta[key], str):
            raise ValueError(f"{key!r} must be text, got {meta[key]!r}")
    for key in ("fixed", "options"):
        v = meta.get(key)
        if v is not None and not (isinstance(v, dict) and all(
                isinstance(x, str) for kv in v.items() for x in kv)):
            raise ValueError(f"{key!r} must map names to text")
    timings = meta.get("timings", {})
    if not isinstance(timings, dict) or not all(type(t) in (int, float) for t in timings.values()):
        raise ValueError("'timings' must map stage names to seconds")
    sizes = []
    for key, default in (("top_k", 10), ("first_n", 100)):
        v = meta.get(key, default)
        if type(v) is not int or not 0 <= v <= MAX_ROWS:
            raise ValueError(f"{key} {v!r} is not a count of 0..{MAX_ROWS}")
        sizes.append(v)
    return domain, sizes[0], sizes[1]


def _axis(a: Any, i: int) -> Axis:
    if not isinstance(a, dict) or not all(k in a for k in ("format", "kind", "start", "stop", "n")):
        raise ValueError(f"axis {i} needs format, kind, start, stop and n")
    if not isinstance(a["format"], str) or not isinstance(a["kind"], str):
        raise ValueError(f"axis {i}: format and kind must be names")
    try:
        return Axis(operand_format(a["format"]), a["kind"], a["start"], a["stop"], a["n"])
    except ValueError as exc:
        raise ValueError(f"axis {i}: {exc}") from None


def _domain(axes: list[Axis]) -> Domain:
    if len(axes) == 1:
        return UnaryDomain(axes[0])
    return GridDomain(axes[0], axes[1])


def _check_arrays(members: NpzMembers, names: list[str], n_done: int, size: int) -> int:
    """Every per-element array is 1-D with one entry per element done (files before this
    check held the whole domain); returns the bytes they take once loaded."""
    total = 0
    for name in names:
        shape, dtype = members.headers[name]
        if not name.split("__", 1)[1]:
            raise ValueError(f"array {name!r} has no name")
        if shape not in ((n_done,), (size,)):
            raise ValueError(f"array {name!r} has shape {shape}; the metadata says {n_done} "
                             f"of {size} elements were done")
        kinds = "b" if name.startswith("fired__") else "biuf"
        if dtype.kind not in kinds or dtype.itemsize > 8:
            raise ValueError(f"array {name!r} has dtype {dtype}")
        total += size * dtype.itemsize
    return total


def _full(a: np.ndarray, size: int) -> np.ndarray:
    """A column of the whole domain (zeros after the elements done), as the runner keeps it."""
    if a.shape[0] == size:
        return a
    out = np.zeros(size, a.dtype)
    out[: a.shape[0]] = a
    return out


def write_csv_summary(path: str | os.PathLike, result: SweepResult) -> Path:
    """CSV of the summary: one ``section,key,value`` row per figure (histograms, counts,
    worst inputs, first non-conformant inputs), readable by a spreadsheet or a script."""
    d = result.summary.to_dict()

    def write(fh: TextIO) -> None:
        w = csv.writer(fh)
        w.writerow(["section", "key", "value"])
        for k in ("op", "format", "rules", "result_format", "domain"):
            w.writerow(["meta", k, result.meta.get(k, "")])
        w.writerow(["meta", "complete", int(result.complete)])
        w.writerow(["meta", "elements", d["total"]])
        for col, h in d["histograms"].items():
            for lab, c in zip(d["histogram_labels"], h):
                w.writerow([f"histogram:{col}", lab, c])
            w.writerow(["max_error", col, d["max_error"][col]])
        for i, cls in enumerate(d["operand_classes"]):
            for k, v in cls.items():
                w.writerow([f"operand{i}_class", k, v])
        for col, cls in d["result_classes"].items():
            for k, v in cls.items():
                w.writerow([f"{col}_class", k, v])
        for k, v in sorted(d["fired"].items()):
            w.writerow(["fired", k, v])
        for k, v in d["conformant"].items():
            w.writerow(["conformant", k, v])
        w.writerow(["nonconformant", "count", d["nonconformant_count"]])
        for col, rows in d["worst"].items():
            for r in rows:
                w.writerow([f"worst:{col}", r["index"], json.dumps(r)])
        for r in d["first_nonconformant"]:
            w.writerow(["first_nonconformant", r["index"], json.dumps(r)])

    return atomic_write(path, write)
