"""Pieces shared by ``sweep``, ``sweep --expr`` and ``expr``: rule options and the progress line.

Why a module of their own: the expression commands used them from ``sweep``, which loads
the expression sweep lazily, so the three imported each other in a ring.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["rule_options", "progress_line"]


def rule_options(pairs: list[str]) -> dict[str, Any]:
    """``--option NAME=VALUE`` pairs as the rule engine's options (choices matched loosely)."""
    from ..model import OPTIONS  # noqa: PLC0415

    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or name not in OPTIONS:
            raise ValueError(f"bad option {pair!r}; use NAME=VALUE with NAME one of "
                             f"{', '.join(OPTIONS)}")
        choices = OPTIONS[name].choices
        match = [c for c in choices if str(c).lower() == text.strip().lower()]
        if not match:
            raise ValueError(f"option {name}: choose one of {', '.join(map(str, choices))}")
        out[name] = match[0]
    return out


def progress_line(quiet: bool) -> Callable[[int, int], None] | None:
    """A ``progress(done, total)`` that redraws one stderr line twice a second (None: quiet)."""
    if quiet:
        return None
    t0 = time.perf_counter()
    last = [0.0]

    def show(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] < 0.5 and done < total:
            return
        last[0] = now
        rate = done / max(now - t0, 1e-9)
        print(f"\r{done}/{total} ({100 * done / total:.1f}%, {rate / 1e6:.1f} M/s)",
              end="\n" if done == total else "", file=sys.stderr, flush=True)

    return show
