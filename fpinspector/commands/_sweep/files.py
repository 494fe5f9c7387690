"""Files of ``fpinspector sweep``: output paths checked before the work, partial results
saved on interruption, and the checks that make ``--resume`` continue the same sweep."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["check_outputs", "resume_from", "save_partial"]


def _writable(path: str, what: str) -> None:
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{what} {path} is a folder, not a file")
    folder = p.parent if str(p.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise ValueError(f"cannot write {what} {path}: {exc.strerror or exc}") from None


def check_outputs(args: argparse.Namespace) -> None:
    """Every output path can be written (folder exists or can be made, is writable)."""
    if args.out:
        _writable(args.out, "--out")
        _writable(args.csv or str(Path(args.out).with_suffix(".csv")), "--csv")
    elif args.csv:
        _writable(args.csv, "--csv")
    if args.elements_csv:
        _writable(args.elements_csv, "--elements-csv")


_PLAN_NAMES = {"op": "op", "format": "--format", "rules": "--rules", "options": "--option",
               "gpu": "--gpu", "fixed": "--c", "result_format": "result format",
               "domain": "--domain", "top_k": "--top", "first_n": "--first",
               "kept": "--summary-only", "expression": "--expr", "variables": "--axes",
               "bindings": "--set", "component": "--component"}


def resume_from(out: str, plan: dict[str, Any]):
    """The partial sweep in ``out`` if it was started with the same ``plan`` (None when the
    file does not exist yet); ValueError naming the first difference otherwise."""
    import sys  # noqa: PLC0415

    from ...model.sweep import load_npz  # noqa: PLC0415

    if not os.path.exists(out):
        print(f"fpinspector sweep: {out} does not exist yet: starting from the beginning",
              file=sys.stderr)
        return None
    try:
        prev = load_npz(out, require_complete=False, require_checksum=True)
    except ValueError as exc:
        raise ValueError(f"cannot resume: {exc}") from None
    saved = {**prev.meta, "top_k": prev.summary.top_k, "first_n": prev.summary.first_n,
             "kept": bool(prev.columns or prev.fired) or (plan["kept"] and prev.n_done == 0)}
    saved.setdefault("fixed", None)
    for key, name in _PLAN_NAMES.items():
        want, got = plan.get(key), saved.get(key)
        if want != got:
            raise ValueError(f"cannot resume {out}: it was started with {name} {got!r}, this "
                             f"command has {want!r}")
    return prev


def save_partial(args: argparse.Namespace, res: Any) -> str:
    """Save an unfinished sweep to ``--out`` (``complete: false``); a phrase (``"; ..."``)
    saying where, or why nothing was saved."""
    from ...model.sweep import save_npz  # noqa: PLC0415

    if not args.out:
        return "; nothing saved (give --out FILE to keep partial results)"
    if res.n_done == 0 and not args.resume:
        return f"; nothing was done yet, so {args.out} was not written"
    try:
        save_npz(args.out, res)
    except (OSError, ValueError) as exc:
        return f"; could not save the partial sweep to {args.out}: {exc}"
    return (f"; saved the {res.n_done} elements done to {args.out} (complete: false): run the "
            "same command with --resume to continue")
