"""Streaming sweep summaries: ULP-error histograms, worst inputs, class and rule counts.

A :class:`Summary` is fed one chunk at a time and keeps O(bins + K + N) state, so an
exhaustive 2^32 sweep needs no per-element storage. Everything is vectorized per chunk.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..formats import CLASS_NAMES, FORMATS, FloatFormat, operand_format
from . import alloc
from .hist import (  # noqa: F401  (re-exported: summary.HIST_EDGES, class_counts, ...)
    _ABS,
    _INF,
    _NBINS,
    HIST_EDGES,
    _hist_key,
    class_counts,
    hist_labels,
    histogram_counts,
    row_class_counts,
)

__all__ = ["Summary", "SummarySnapshot", "HIST_EDGES", "hist_labels", "histogram_counts", "class_counts",
           "ERROR_COLUMNS"]

#: Error columns a sweep may produce, as (column, meaning).
ERROR_COLUMNS: dict[str, str] = {
    "err_gpu_model": "GPU vs model (signed steps)",
    "err_gpu": "GPU vs exact (ULP)",
    "err_model": "model vs exact (ULP)",
}


#: Elements a top-k pass looks at at once (:meth:`Summary._top_k`): its temporaries stay
#: small beside a chunk's own arrays.
TOP_K_BLOCK = 1 << 14


@dataclass(frozen=True)
class SummarySnapshot:
    """:meth:`Summary.snapshot`: per error column (the kept k-th largest |error|, the largest
    index kept) once k rows are kept, and the number of non-conformant rows kept."""

    floors: dict[str, tuple[float, int]]
    have: int


class Summary:
    """Mergeable, bounded-size summary of a sweep.

    Parameters
    ----------
    fmt : str
        Operand format name.
    result_format : str
        Result format name (``"bool"`` for comparisons).
    top_k : int
        How many worst inputs to keep per error column.
    first_n : int
        How many non-conformant inputs to keep (the first ones in sweep order).
    """

    def __init__(self, fmt: str, result_format: str, top_k: int = 10, first_n: int = 100) -> None:
        self.fmt = operand_format(fmt).name
        self.result_format = result_format
        self.top_k, self.first_n = int(top_k), int(first_n)
        self.total = 0
        self.hist: dict[str, np.ndarray] = {}
        self.worst: dict[str, dict[str, np.ndarray]] = {}
        self.operand_classes: list[np.ndarray] = []
        self.result_classes: dict[str, np.ndarray] = {}
        self.fired: dict[str, int] = {}
        self.conformant: dict[str, int] = {}
        self.nonconformant: dict[str, np.ndarray] | None = None
        self._local = threading.local()  # reused histogram buffers (no per-chunk churn)
        #: the kept rows :meth:`snapshot` last read (the objects) and what it made of them
        self._last_snapshot: tuple[tuple[Any, ...], Any, SummarySnapshot] | None = None

    # --------------------------------------------------------------------------------
    def add(self, k0: int, operands: tuple[np.ndarray, ...], out: Mapping[str, Any],
            prepared: dict[str, Any] | None = None) -> None:
        """Fold in one chunk: elements ``k0..k0+n-1`` with their operands and stage outputs.

        ``prepared`` is :meth:`prepare`'s result for this chunk (computed in a worker
        thread); chunks must be added in sweep order.
        """
        p = self.prepare(k0, operands, out) if prepared is None else prepared
        self.total += p["n"]
        if not self.operand_classes and p["op_classes"]:
            self.operand_classes = [np.zeros(len(CLASS_NAMES), np.int64) for _ in p["op_classes"]]
        for acc, c in zip(self.operand_classes, p["op_classes"]):
            acc += c
        for col, c in p["res_classes"].items():
            self.result_classes.setdefault(col, np.zeros(len(CLASS_NAMES), np.int64))
            self.result_classes[col] += c
        for rule, c in p["fired"].items():
            self.fired[rule] = self.fired.get(rule, 0) + c
        for col, c in p["conformant"].items():
            self.conformant[col] = self.conformant.get(col, 0) + c
        for col, (h, cand) in p["errors"].items():
            self.hist[col] = self.hist.get(col, 0) + h
            if cand is not None:
                old = self.worst.get(col)
                if old is not None:
                    cand = {f: np.concatenate([old[f], cand[f]]) for f in old}
                order = np.lexsort((cand["index"], -cand["key"]))[: self.top_k]
                self.worst[col] = {f: v[order] for f, v in cand.items()}
        rows = p["nonconformant"]
        have = 0 if self.nonconformant is None else len(self.nonconformant["index"])
        if rows is not None and have < self.first_n:
            rows = {f: v[: self.first_n - have] for f, v in rows.items()}
            self.nonconformant = rows if self.nonconformant is None else {
                f: np.concatenate([self.nonconformant[f], rows[f]]) for f in rows}

    def fold_parts(self, parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """One part for consecutive chunks' :meth:`prepare` parts (in sweep order): adding
        it has the effect of adding each of them in turn.

        Why: a worker's span of chunks sends one part instead of one per chunk, which the
        parent unpickles and merges once (the parent's share of a 2^32 sweep). The parts
        are added to an empty summary of the same settings: counts and histograms add up,
        its top k of the chunks' candidates hold every row that can enter the kept top k
        (one order, key then index), and its first rows are the chunks' first ones."""
        acc = Summary(self.fmt, self.result_format, self.top_k, self.first_n)
        for part in parts:
            acc.add(0, (), {}, prepared=part)
        return {
            "n": acc.total,
            "op_classes": acc.operand_classes,
            "res_classes": acc.result_classes,
            "fired": acc.fired,
            "conformant": acc.conformant,
            "errors": {col: (h, acc.worst.get(col)) for col, h in acc.hist.items()},
            "nonconformant": acc.nonconformant,
        }

    @staticmethod
    def packed(part: dict[str, Any]) -> dict[str, Any]:
        """``part`` (:meth:`prepare`'s or :meth:`fold_parts`') for a pipe: its count arrays
        (operand and result classes, histograms) as their int64 bytes.

        Why: the parent unpickles every part a worker sends, and an ndarray unpickles
        through numpy's reduce protocol at several times the cost of a bytes object (a
        span's part holds six such arrays); :meth:`unpacked` reads them back without a
        copy."""
        return _with_counts(part, lambda a: np.ascontiguousarray(a, dtype=np.int64).tobytes())

    @staticmethod
    def unpacked(part: dict[str, Any]) -> dict[str, Any]:
        """:meth:`packed`'s inverse (read-only arrays over the bytes)."""
        return _with_counts(part, lambda b: np.frombuffer(b, np.int64))

    def snapshot(self) -> SummarySnapshot:
        """What :meth:`prepare` reads of the merged state: per error column the kept top-k's
        smallest key and largest index (once k rows are kept), and how many non-conformant
        rows are kept. Small and picklable: worker processes prepare against it.

        Why remembered: the parent takes one for every span it hands a worker, and past a
        sweep's first spans the kept rows rarely change; it is made again when they are
        other objects than last time (``add`` replaces them, never changes them)."""
        kept, rows = tuple(self.worst.items()), self.nonconformant
        last = self._last_snapshot
        if last is not None and last[1] is rows and len(last[0]) == len(kept) and all(
                a[1] is b[1] for a, b in zip(last[0], kept)):
            return last[2]
        floors = {col: (float(w["key"][-1]), int(w["index"].max()))
                  for col, w in kept if len(w["key"]) >= self.top_k}
        snap = SummarySnapshot(floors, 0 if rows is None else len(rows["index"]))
        self._last_snapshot = (kept, rows, snap)  # (holds them: their ids are not reused)
        return snap

    def prepare(self, k0: int, operands: tuple[np.ndarray, ...], out: Mapping[str, Any],
                snapshot: SummarySnapshot | None = None) -> dict[str, Any]:
        """The chunk's own part of :meth:`add`: counts, histograms, top-k candidates and
        first non-conformant rows, without changing the summary.

        Why: the runner calls this in its stage threads, so the summary's full-chunk
        passes run in parallel and only the small in-order merge stays serial. It reads
        only state that grows monotonically while earlier chunks are merged (the k-th
        worst key, the count of kept non-conformant rows), so an older snapshot only
        admits more candidates, which the merge then drops: the result is the same.
        ``snapshot`` (:meth:`snapshot` of the summary the part will be added to) replaces
        this summary's own state, for a summary in another process.
        """
        snap = self.snapshot() if snapshot is None else snapshot
        fmt = FORMATS.get(self.fmt)  # None for integer codes: no float classes
        rfmt = FORMATS.get(self.result_format)
        patched = (out.get("gpu_patched") is True and out.get("gpu_diff") is not None
                   and all(c in out for c in ("model", "gpu", "err_model", "err_gpu")))
        res_classes = {col: class_counts(rfmt, out[col]) for col in ("model", "gpu")
                       if col in out and rfmt is not None and not (patched and col == "gpu")}
        errors: dict[str, Any] = {}
        if patched:  # (ModelStage: GPU pattern and error differ from the model's on diff only)
            diff = out["gpu_diff"]
            errors["err_model"] = self._prep_errors("err_model", k0, operands, out, snap)
            errors["err_gpu"] = self._prep_patched(k0, operands, out, diff, errors["err_model"],
                                                   snap)
            if rfmt is not None and not diff.size:  # (the model's patterns throughout)
                res_classes["gpu"] = res_classes["model"].copy()
            elif rfmt is not None:
                m, g = np.asarray(out["model"]), np.asarray(out["gpu"])
                res_classes["gpu"] = (res_classes["model"] - class_counts(rfmt, m[diff])
                                      + class_counts(rfmt, g[diff]))
        errors = {col: errors[col][:2] if col in errors else
                  self._prep_errors(col, k0, operands, out, snap)[:2]
                  for col in ERROR_COLUMNS if col in out}
        return {
            "n": len(operands[0]),
            "op_classes": _operand_classes(fmt, operands),
            "res_classes": res_classes,
            "fired": _fired_counts(out),
            "conformant": {col: int(np.count_nonzero(out[col])) for col in ("ok_model", "ok_gpu")
                           if col in out},
            "errors": errors,
            "nonconformant": self._prep_nonconformant(k0, operands, out, snap),
        }

    def _prep_patched(self, k0: int, operands: Sequence[np.ndarray], out: Mapping[str, Any],
                      diff: np.ndarray, model: tuple[np.ndarray, Any, np.ndarray],
                      snap: SummarySnapshot) -> tuple:
        """err_gpu's (histogram, candidates) from err_model's: its histogram with the
        ``diff`` elements moved to their GPU bins, its |err| bits patched on ``diff``."""
        h_m, cand_m, t_m = model
        eg = np.asarray(out["err_gpu"], dtype=np.float64).ravel()
        if not diff.size:  # the GPU gave the model's patterns throughout: err_model's part,
            # and its very rows where the same kept k-th worst admits them
            same_floor = snap.floors.get("err_gpu") == snap.floors.get("err_model")
            cand = cand_m if same_floor else self._top_k("err_gpu", k0, operands, out, t_m,
                                                         None, snap)
            return h_m.copy(), cand, t_m
        em = np.asarray(out["err_model"], dtype=np.float64).ravel()
        sub = eg[diff]
        h_g, t_sub = _hist_key(sub)
        h = h_m - _hist_key(em[diff])[0] + h_g
        t = t_m.copy()
        t[diff] = t_sub
        return h, self._top_k("err_gpu", k0, operands, out, t, None, snap), t

    def _row_fields(self, sel: np.ndarray, k0: int, operands: Sequence[np.ndarray], out: Mapping[str, Any]) -> dict[str, np.ndarray]:
        rows = {"index": (k0 + sel).astype(np.int64)}
        for i, ops in enumerate(operands):
            rows[f"op{i}"] = np.asarray(ops)[sel].astype(np.uint64)
        for col in ("model", "gpu"):
            if col in out:
                rows[col] = np.asarray(out[col])[sel].astype(np.uint64)
        if "exact" in out:
            rows["exact"] = np.asarray(out["exact"], dtype=np.float64)[sel]
        for col in ERROR_COLUMNS:
            if col in out:
                rows[col] = np.asarray(out[col], dtype=np.float64)[sel]
        return rows

    def _prep_errors(self, col: str, k0: int, operands: Sequence[np.ndarray],
                     out: Mapping[str, Any], snap: SummarySnapshot) -> tuple[np.ndarray, Any, Any]:
        """(histogram, top-k candidate rows or None, |err| bits) of one error column."""
        diff = out.get("gpu_diff") if col == "err_gpu_model" else None
        if diff is not None and not diff.size:  # no element differs: 0 steps throughout
            n = int(np.size(out[col]))
            h = np.zeros(_NBINS, np.int64)
            h[0] = n
            return h, self._top_zeros(col, k0, operands, out, n, snap), None
        err = np.asarray(out[col], dtype=np.float64).ravel()
        if diff is not None:  # zero off the differing elements: look at those only
            n = err.size
            sub = err[diff]
            h, t = _hist_key(sub)
            h[0] += n - diff.size
            if np.count_nonzero((t > 0) & (t <= _INF)) >= self.top_k:
                return h, self._top_k(col, k0, operands, out, t, diff, snap), t
            # fewer nonzero than k: zeros (lowest indices first) fill the top k
            t = np.bitwise_and(err.view(np.uint64), _ABS)
            return h, self._top_k(col, k0, operands, out, t, None, snap), t
        h, t = _hist_key(err, self._work(err.size))
        return h, self._top_k(col, k0, operands, out, t, None, snap), t

    def _work(self, n: int) -> np.ndarray | None:
        """Scratch for :func:`_hist_key` (two rows of ``n``): a fresh one (None) where
        malloc keeps freed buffers (:func:`.alloc.keep_freed_buffers`, a sweep's worker
        processes), else this thread's, kept (prepare runs in several threads).

        Why not always kept: held between chunks, its 2 MiB (2^17 elements) add to the
        stage's own peak in every worker; freed, the stage's arrays reuse them. Where
        malloc returns freed blocks to the system, a fresh one each chunk would fault its
        pages in again."""
        if alloc.freed_buffers_kept():
            self._local.work = None
            return None
        work = getattr(self._local, "work", None)
        if work is None or work.shape[1] < n:
            work = self._local.work = np.empty((2, n), np.uint64)
        return work

    def _top_k(self, col: str, k0: int, operands: Sequence[np.ndarray], out: Mapping[str, Any],
               t: np.ndarray, where: np.ndarray | None,
               snap: SummarySnapshot) -> dict[str, np.ndarray] | None:
        """Rows of the chunk's largest |err| that may enter the kept top k (ties: lowest
        index), or None.

        ``t`` is the |err| bits (orders like |err|, NaN above ``_INF``; equal bits are equal
        |err|); ``where`` maps positions of ``t`` to chunk elements (None: identity).

        Why by blocks of :data:`TOP_K_BLOCK`: where candidates may enter (a sweep's first
        spans, before k rows are kept), a pass over the whole chunk made five chunk-sized
        temporaries (indices, keys, their negation, partition's copy): at 2^17 elements,
        the largest moment of a worker's memory. Each block keeps its own k largest (ties:
        lowest index), and the k largest of those are the chunk's: a row of the chunk's
        top k has fewer than k rows before it in the whole chunk, so in its block too.
        """
        floor = snap.floors.get(col)  # (the kept k-th key only grows)
        lo = None
        strict = False
        if floor is not None:
            lo = np.float64(floor[0]).view(np.uint64)
            strict = k0 > floor[1]  # in-order chunk: ties lose to older indices
            if t.size:  # one reduction where no element can enter (most chunks past the
                # sweep's first spans): the mask and its indices are passes more
                top = t.max()
                if top < lo or (strict and top == lo):
                    return None
        k = self.top_k
        if k == 0:
            return None
        pos: list[np.ndarray] = []
        keys: list[np.ndarray] = []
        for b0 in range(0, t.size, TOP_K_BLOCK):
            tb = t[b0:b0 + TOP_K_BLOCK]
            ok = tb <= _INF
            if lo is not None:
                ok &= (tb > lo) if strict else (tb >= lo)
            p = np.flatnonzero(ok)
            if p.size:
                p, kb = _k_largest(p, tb[p], k)
                pos.append(p + b0)
                keys.append(kb)
        if not pos:
            return None
        sel = pos[0] if len(pos) == 1 else _k_largest(np.concatenate(pos),
                                                      np.concatenate(keys), k)[0]
        if where is not None:
            sel = where[sel]
        return self._candidates(col, sel, k0, operands, out)

    def _candidates(self, col: str, sel: np.ndarray, k0: int, operands: Sequence[np.ndarray],
                    out: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """The rows ``sel`` of the chunk as top-k candidates of ``col`` (keyed by |err|)."""
        cand = self._row_fields(sel, k0, operands, out)
        cand["key"] = np.abs(np.asarray(out[col], dtype=np.float64).ravel()[sel])
        return cand

    def _top_zeros(self, col: str, k0: int, operands: Sequence[np.ndarray],
                   out: Mapping[str, Any], n: int, snap: SummarySnapshot
                   ) -> dict[str, np.ndarray] | None:
        """:meth:`_top_k` of a chunk whose |err| is 0 everywhere, without a pass: its first
        k elements where zeros may still enter the kept top k, else None."""
        floor = snap.floors.get(col)
        if floor is not None and (floor[0] > 0 or k0 > floor[1]):
            return None  # (a kept key above 0, or a tie lost to the older indices kept)
        sel = np.arange(min(self.top_k, n), dtype=np.intp)
        return self._candidates(col, sel, k0, operands, out) if sel.size else None

    def _prep_nonconformant(self, k0: int, operands: Sequence[np.ndarray],
                            out: Mapping[str, Any], snap: SummarySnapshot
                            ) -> dict[str, np.ndarray] | None:
        col = "ok_gpu" if "ok_gpu" in out else "ok_model" if "ok_model" in out else None
        if col is None:
            return None
        have = snap.have
        if have >= self.first_n:
            return None
        ok = np.asarray(out[col], dtype=bool)
        if ok.all():  # (a conformant chunk: no rows, as add takes an empty part)
            return None
        sel = np.flatnonzero(~ok)[: self.first_n - have]
        return self._row_fields(sel, k0, operands, out)

    # --------------------------------------------------------------------------------
    def max_error(self, col: str) -> float:
        """Largest |error| seen in ``col`` (NaN errors ignored; NaN if none)."""
        w = self.worst.get(col)
        return float(w["key"][0]) if w is not None and len(w["key"]) else float("nan")

    def nonconformant_count(self) -> int:
        """Elements not allowed by the rule set (GPU when captured, else the model)."""
        col = "ok_gpu" if "ok_gpu" in self.conformant else "ok_model"
        return self.total - self.conformant.get(col, self.total)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what .npz metadata and CSV summaries hold)."""
        def rows(d: dict[str, np.ndarray] | None) -> list[dict[str, Any]]:
            if not d:
                return []
            n = len(d["index"])
            return [{f: _py(v[i]) for f, v in d.items()} for i in range(n)]

        return {
            "format": self.fmt,
            "result_format": self.result_format,
            "total": self.total,
            "histogram_labels": hist_labels(),
            "histograms": {c: h.tolist() for c, h in self.hist.items()},
            "max_error": {c: self.max_error(c) for c in self.hist},
            "worst": {c: rows(w) for c, w in self.worst.items()},
            "operand_classes": [dict(zip(CLASS_NAMES, a.tolist())) for a in self.operand_classes],
            "result_classes": {c: dict(zip(CLASS_NAMES, a.tolist()))
                               for c, a in self.result_classes.items()},
            "fired": dict(self.fired),
            "conformant": dict(self.conformant),
            "nonconformant_count": self.nonconformant_count(),
            "first_nonconformant": rows(self.nonconformant),
        }

    def format_text(self) -> str:
        """Plain-text report for the CLI."""
        d = self.to_dict()
        lines = [f"elements: {d['total']}  ({d['format']} -> {d['result_format']})"]
        for col, name in ERROR_COLUMNS.items():
            if col not in self.hist:
                continue
            lines.append(f"{name}: max |error| {d['max_error'][col]:g}")
            h = d["histograms"][col]
            lines += [f"  {lab:>14}  {c}" for lab, c in zip(d["histogram_labels"], h) if c]
            for r in d["worst"][col][:3]:
                ops = " ".join(f"0x{r[k]:X}" for k in r if k.startswith("op"))
                lines.append(f"  worst: #{r['index']} operands {ops} {name.split(' (')[0]} "
                             f"{r['key']:g} {'steps' if col == 'err_gpu_model' else 'ULP'}")
        for col, n in d["conformant"].items():
            lines.append(f"{col}: {n}/{d['total']} conformant")
        if d["fired"]:
            lines.append("rules fired: " + ", ".join(f"{r}={n}" for r, n in sorted(d["fired"].items()) if n))
        for r in d["first_nonconformant"][:5]:
            ops = " ".join(f"0x{r[k]:X}" for k in r if k.startswith("op"))
            lines.append(f"non-conformant: #{r['index']} operands {ops}")
        return "\n".join(lines)


def _k_largest(pos: np.ndarray, keys: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` largest ``keys`` (ties: the first ones), with their ``pos``, in order."""
    if keys.size <= k:
        return pos, keys
    thr = np.partition(keys, keys.size - k)[keys.size - k]  # the k-th largest
    above = keys > thr
    ties = np.flatnonzero(keys == thr)[: k - int(np.count_nonzero(above))]
    take = np.sort(np.concatenate([np.flatnonzero(above), ties]))
    return pos[take], keys[take]


def _operand_classes(fmt: FloatFormat | None, operands: Sequence[np.ndarray]
                     ) -> list[np.ndarray]:
    """Class counts of each operand (none for integer codes): from a grid chunk's layout
    where the operands have one (sweep/domain.py's ``GridOperands``), else counted."""
    if fmt is None:
        return []
    layout = getattr(operands, "layout", None)
    if layout is not None:
        return row_class_counts(fmt, layout)
    return [class_counts(fmt, o) for o in operands]


def _fired_counts(out: Mapping[str, Any]) -> dict[str, int]:
    """Each fired rule's elements in the chunk: the stage's ``fired_counts`` where it gives
    them (the engine counts its masks as it decides them), else the masks counted."""
    counts = out.get("fired_counts")
    if counts is not None:
        return dict(counts)
    return {rule: int(np.count_nonzero(m)) for rule, m in out.get("fired", {}).items()}


def _py(v: Any) -> Any:
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, (np.integer, np.bool_)):
        return int(v)
    return v


def _with_counts(part: dict[str, Any], each: Callable[[Any], Any]) -> dict[str, Any]:
    """``part`` with ``each`` applied to every count array it holds (operand and result
    classes, error histograms): :meth:`Summary.packed` and :meth:`Summary.unpacked` walk
    the same fields, so the list of fields lives here once."""
    return {**part,
            "op_classes": [each(c) for c in part["op_classes"]],
            "res_classes": {col: each(c) for col, c in part["res_classes"].items()},
            "errors": {col: (each(h), cand) for col, (h, cand) in part["errors"].items()}}
