"""Argument types shared by the subcommands: bounded counts, worker counts and durations.

Why one place: every numeric option is checked by argparse itself, so a bad value is a usage
error (exit 2, one line naming the option) before any work starts, and a limit changes here
once (``--workers`` gets its default and upper bound from :func:`workers`).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from ..model.reading import excerpt

__all__ = ["count", "workers", "seconds", "samples", "seed", "MAX_WORKERS", "MAX_SAMPLES"]

#: Most parallel workers (threads or processes) any subcommand starts.
MAX_WORKERS = 256
#: Most random inputs per op of a GPU report (2^24: a few hundred MB of work arrays; the
#: shipped examples use 2^16).
MAX_SAMPLES = 1 << 24


def count(lo: int, hi: int, what: str = "a count") -> Callable[[str], int]:
    """argparse type: a whole number in ``lo..hi`` (decimal, or 0x hex)."""

    def parse(text: str) -> int:
        try:
            n = int(text.strip(), 0) if len(text) <= 40 else None
        except ValueError:
            n = None
        if n is None:
            raise argparse.ArgumentTypeError(f"expected {what} (a whole number), got "
                                             f"{excerpt(text, 40)}")
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"{what} must be {lo}..{hi}, got {n}")
        return n

    parse.__name__ = what
    return parse


def workers(text: str) -> int:
    """argparse type of ``--workers``: 1..:data:`MAX_WORKERS` parallel workers."""
    return count(1, MAX_WORKERS, "a number of workers")(text)


def samples(text: str) -> int:
    """argparse type of ``--samples``: 1..:data:`MAX_SAMPLES` random inputs per op."""
    return count(1, MAX_SAMPLES, "a number of samples")(text)


def seed(text: str) -> int:
    """argparse type of ``--seed``: 0..2^64-1 (numpy's generators take no negative seed)."""
    return count(0, (1 << 64) - 1, "a seed")(text)


def seconds(lo: float, hi: float) -> Callable[[str], float]:
    """argparse type: a duration in seconds, ``lo < value <= hi``."""

    def parse(text: str) -> float:
        try:
            v = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            v = math.nan
        if math.isnan(v) and text.strip().lower().lstrip("+-") != "nan":
            raise argparse.ArgumentTypeError(f"expected seconds, got {excerpt(text, 40)}")
        if not (math.isfinite(v) and lo < v <= hi):
            raise argparse.ArgumentTypeError(f"seconds must be more than {lo:g} and at most "
                                             f"{hi:g}, got {text}")
        return v

    parse.__name__ = "seconds"
    return parse
