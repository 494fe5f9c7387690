"""Save and load a workspace (state + history) as a small JSON file, written atomically."""

from __future__ import annotations

import json
import os

from ..model.formats import get_format
from ..model.state import InspectorState, Snapshot, atomic_write

__all__ = ["save_workspace", "load_workspace", "WORKSPACE_VERSION"]

WORKSPACE_VERSION = 1


def save_workspace(path: str | os.PathLike, state: InspectorState,
                   history: list[tuple[str, int]] | None = None) -> None:
    """Write the workspace to ``path`` atomically (temp file in the same folder + os.replace).

    A crash or a full disk leaves either the old file or the new one, never half of one.
    """
    doc = {
        "fpinspector_workspace": WORKSPACE_VERSION,
        "state": state.to_dict(),
        "history": [[f, f"0x{b:X}"] for f, b in (history or [])],
    }
    def write(fh) -> None:
        json.dump(doc, fh, indent=2)
        fh.write("\n")

    atomic_write(path, write)


def load_workspace(path: str | os.PathLike) -> tuple[Snapshot, list[tuple[str, int]]]:
    """Read a workspace file; ValueError with a clear message when it is not a valid one."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as fh:
            doc = json.load(fh)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name} is not a valid workspace: broken JSON at line {exc.lineno}, "
                         f"column {exc.colno} ({exc.msg})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{name} is not a valid workspace: not UTF-8 text") from None
    if not isinstance(doc, dict) or "fpinspector_workspace" not in doc:
        raise ValueError(f"{name} is not an fpinspector workspace (no 'fpinspector_workspace' key)")
    if doc["fpinspector_workspace"] != WORKSPACE_VERSION:
        raise ValueError(f"{name}: unsupported workspace version {doc['fpinspector_workspace']!r}")
    try:
        snap = InspectorState.snapshot_from_dict(doc.get("state"))
        history = []
        for entry in doc.get("history", []):
            fmt, bits = entry
            f = get_format(fmt)
            value = int(str(bits), 16) if isinstance(bits, str) else int(bits)
            if value < 0 or value > f.mask:
                raise ValueError(f"history entry 0x{value:X} does not fit {f.name}")
            history.append((f.name, value))
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} is not a valid workspace: {exc}") from None
    return snap, history
