"""Save and load a workspace (state + history) as a small JSON file, written atomically.

Loading treats the file as untrusted: at most :data:`MAX_WORKSPACE_BYTES` are read, every
field is type-checked (no floats for patterns, no ``true`` for a version, no unknown op), and
every problem is one ``ValueError`` reading "Cannot open workspace FILE: why".
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from ..formats import FORMATS
from ..reading import excerpt, load_json, read_bytes
from .atomic import atomic_write
from .inspector import InspectorState
from .snapshot import Snapshot

__all__ = ["save_workspace", "load_workspace", "WORKSPACE_VERSION", "MAX_WORKSPACE_BYTES",
           "MAX_HISTORY"]

WORKSPACE_VERSION = 1
#: Largest workspace file read (a real one is a few KB; this bounds the time a bad one costs).
MAX_WORKSPACE_BYTES = 16 << 20
#: Most history entries a workspace may hold (the History dock shows the newest 200).
MAX_HISTORY = 10_000
_KEYS = {"fpinspector_workspace", "state", "history"}
_HEX = re.compile(r"0[xX][0-9a-fA-F]{1,16}\Z")


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

    def write(fh: Any) -> None:
        json.dump(doc, fh, indent=2)
        fh.write("\n")

    atomic_write(path, write)


def load_workspace(path: str | os.PathLike) -> tuple[Snapshot, list[tuple[str, int]]]:
    """Read a workspace file; ``ValueError("Cannot open workspace FILE: why")`` when it
    cannot be read or is not a valid workspace (nothing else escapes)."""
    name = os.fspath(path)
    try:
        return _load(name)
    except ValueError as exc:
        raise ValueError(f"Cannot open workspace {name}: {exc}") from None


def _load(name: str) -> tuple[Snapshot, list[tuple[str, int]]]:
    data = read_bytes(name, MAX_WORKSPACE_BYTES, "")  # the reader policy (model/reading.py)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    doc = load_json(text, "")
    if not isinstance(doc, dict) or "fpinspector_workspace" not in doc:
        raise ValueError("not an fpinspector workspace (no 'fpinspector_workspace' key)")
    version = doc["fpinspector_workspace"]
    if type(version) is not int or version != WORKSPACE_VERSION:
        raise ValueError(f"unsupported workspace version {_short(version)} (this app reads "
                         f"version {WORKSPACE_VERSION})")
    unknown = sorted(set(doc) - _KEYS)
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(map(repr, unknown))}")
    snap = InspectorState.snapshot_from_dict(doc.get("state"))
    return snap, _history(doc.get("history", []))


def _short(v: Any) -> str:
    return excerpt(v, 40)


def _history(entries: Any) -> list[tuple[str, int]]:
    if not isinstance(entries, list):
        raise ValueError("history must be a list of [format, pattern] pairs")
    if len(entries) > MAX_HISTORY:
        raise ValueError(f"history has {len(entries)} entries; at most {MAX_HISTORY}")
    out = []
    for i, entry in enumerate(entries):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            raise ValueError(f"history entry {i}: expected [format, pattern], got "
                             f"{_short(entry)}")
        fmt, bits = entry
        f = FORMATS.get(fmt)
        if f is None:
            raise ValueError(f"history entry {i}: unknown format {_short(fmt)}")
        if isinstance(bits, str) and _HEX.match(bits):
            value = int(bits, 16)
        elif type(bits) is int:
            value = bits
        else:
            raise ValueError(f"history entry {i}: the pattern must be a hex string such as "
                             f"'0x3F800000', got {_short(bits)}")
        if value < 0 or value > f.mask:
            raise ValueError(f"history entry {i}: 0x{value:X} does not fit {f.name}")
        out.append((f.name, value))
    return out
