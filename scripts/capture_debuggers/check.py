#!/usr/bin/env python3
"""CI: re-capture the gdb/lldb paste corpus into a temporary directory and compare it with
the committed one (addresses and pids normalized), so a new debugger version that prints
differently cannot drift unnoticed. Exit 1 with the differing cases; run with the system
python3: ``python3 scripts/capture_debuggers/check.py`` (a few seconds)."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from capture import DEFAULT_OUT, capture, normalized  # noqa: E402


def main() -> int:
    with tempfile.TemporaryDirectory() as td:
        fresh = Path(td)
        capture(fresh, ["gdb", "lldb"])
        drift = []
        for tool in ("gdb", "lldb"):
            old = {p.name: p for p in (DEFAULT_OUT / tool).glob("*.json")}
            new = {p.name: p for p in (fresh / tool).glob("*.json")}
            for name in sorted(old.keys() | new.keys()):
                if name not in old or name not in new:
                    drift.append(f"{tool}/{name}: {'new' if name in new else 'gone'}")
                    continue
                a, b = json.loads(old[name].read_text()), json.loads(new[name].read_text())
                if normalized(a["text"]) != normalized(b["text"]) or a["expect"] != b["expect"]:
                    drift.append(f"{tool}/{name}:\n  committed: {a['text']!r}\n"
                                 f"  now:       {b['text']!r}")
    for d in drift:
        print(d)
    print(f"paste corpus re-capture: {len(drift)} case(s) differ" if drift
          else "paste corpus re-capture: identical")
    return 1 if drift else 0


if __name__ == "__main__":
    sys.exit(main())
