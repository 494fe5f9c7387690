"""Save and reload sweeps: .npz (arrays + JSON metadata, atomic) and CSV summaries.

Files are written to a temporary name in the target folder and moved into place with
``os.replace``, so a reader never sees half a file; a cancelled sweep is saved with
``"complete": false`` and :func:`load_npz` refuses it unless asked.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..formats import operand_format
from ..state.atomic import atomic_write
from .domain import Axis, GridDomain, UnaryDomain
from .runner import SweepResult
from .csv_elements import write_csv_elements
from .summary import Summary

__all__ = ["save_npz", "load_npz", "write_csv_summary", "write_csv_elements", "FILE_VERSION"]

FILE_VERSION = 1


def _atomic_write(path: str | os.PathLike, write, binary: bool = False) -> Path:
    return atomic_write(path, write, binary=binary)


def _axis_meta(ax: Axis) -> dict[str, Any]:
    return {"format": ax.fmt.name, "kind": ax.kind, "start": ax.start, "stop": ax.stop, "n": ax.n}


def save_npz(path: str | os.PathLike, result: SweepResult) -> Path:
    """Write ``result`` to ``path`` (.npz): columns, fired masks, axes, metadata, summary.

    The ``complete`` flag in the metadata is the result's own: a cancelled sweep never
    produces a file that claims to be complete.
    """
    meta = dict(result.meta)
    meta.update(
        version=FILE_VERSION,
        complete=bool(result.complete),
        n_done=int(result.n_done),
        axes=[_axis_meta(a) for a in result.domain.axes],
        timings=result.timings,
    )
    arrays: dict[str, np.ndarray] = {
        "meta": np.array(json.dumps(meta)),
        "summary": np.array(json.dumps(result.summary.to_dict())),
    }
    for i, ax in enumerate(result.domain.axes):
        arrays[f"axis{i}"] = ax.patterns()
    for name, col in result.columns.items():
        arrays[f"col__{name}"] = col
    for rule, mask in result.fired.items():
        arrays[f"fired__{rule}"] = mask

    def write(fh) -> None:
        np.savez(fh, **arrays)

    return _atomic_write(path, write, binary=True)


def load_npz(path: str | os.PathLike, *, require_complete: bool = True) -> SweepResult:
    """Read a file written by :func:`save_npz` back into a :class:`SweepResult`.

    Raises ``ValueError`` for files that are not sweeps, and for incomplete (cancelled)
    sweeps unless ``require_complete`` is False.
    """
    try:
        z = np.load(path, allow_pickle=False)
    except (OSError, EOFError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read sweep file ({exc})") from None
    if not isinstance(z, np.lib.npyio.NpzFile):
        raise ValueError(f"{path}: not an fpinspector sweep file")
    with z:
        files = set(z.files)
        if "meta" not in files or "summary" not in files:
            raise ValueError(f"{path}: not an fpinspector sweep file")
        try:
            meta = json.loads(str(z["meta"]))
            sdict = json.loads(str(z["summary"]))
            cols = {k[5:]: z[k] for k in files if k.startswith("col__")}
            fired = {k[7:]: z[k] for k in files if k.startswith("fired__")}
        except (OSError, EOFError, ValueError, KeyError) as exc:
            raise ValueError(f"{path}: cannot read sweep file ({exc})") from None
    if require_complete and not meta.get("complete"):
        raise ValueError(f"{path}: sweep is incomplete (cancelled after {meta.get('n_done')} elements)")
    axes = [
        Axis(operand_format(a["format"]), a["kind"], a["start"], a["stop"], int(a["n"]))
        for a in meta["axes"]
    ]
    domain = UnaryDomain(axes[0]) if len(axes) == 1 else GridDomain(axes[0], axes[1])
    summary = _summary_from_dict(sdict)
    timings = meta.pop("timings", {})
    res = SweepResult(domain, summary, cols, fired, bool(meta["complete"]), int(meta["n_done"]),
                      meta, timings)
    return res


def _summary_from_dict(d: dict[str, Any]) -> Summary:
    """Rebuild the parts of a Summary that plots and reports read."""
    s = Summary(d["format"], d["result_format"])
    s.total = int(d["total"])
    s.hist = {c: np.asarray(h, dtype=np.int64) for c, h in d["histograms"].items()}
    for c, rows in d["worst"].items():
        if rows:
            s.worst[c] = {f: np.asarray([r[f] for r in rows]) for f in rows[0]}
        else:
            s.worst[c] = {"key": np.zeros(0), "index": np.zeros(0, np.int64)}
    s.operand_classes = [np.asarray(list(c.values()), np.int64) for c in d["operand_classes"]]
    s.result_classes = {k: np.asarray(list(v.values()), np.int64) for k, v in d["result_classes"].items()}
    s.fired = {k: int(v) for k, v in d["fired"].items()}
    s.conformant = {k: int(v) for k, v in d["conformant"].items()}
    rows = d["first_nonconformant"]
    s.nonconformant = {f: np.asarray([r[f] for r in rows]) for f in rows[0]} if rows else None
    return s


def write_csv_summary(path: str | os.PathLike, result: SweepResult) -> Path:
    """CSV of the summary: one ``section,key,value`` row per figure (histograms, counts,
    worst inputs, first non-conformant inputs), readable by a spreadsheet or a script."""
    d = result.summary.to_dict()

    def write(fh) -> None:
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

    return _atomic_write(path, write)
