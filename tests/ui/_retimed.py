"""Time bounds in UI tests on a shared machine, in one place.

A figure past its bound is measured once more before a test fails: a slowness or freeze of
the app's own comes back every time, a pause of the shared machine does not (CI once saw a
0.45 s stall in a sweep that stalls 20-50 ms here, both cores loaded by other work, and a
5 MB paste refused in 0.45 s that takes 4-30 ms)."""

from __future__ import annotations

from collections.abc import Callable


def retimed(measure: Callable[[], float], bound: float,
            again: Callable[[], None] | None = None) -> float:
    """``measure()``, taken again when it is at or past ``bound`` (after ``again()``, which
    puts things back so that the second measurement does the same work)."""
    got = measure()
    if got >= bound:
        if again is not None:
            again()
        got = measure()
    return got
