"""Ctrl-C during long CLI work: the first one asks the work to stop cleanly, the second aborts.

Why: a sweep interrupted by KeyboardInterrupt loses everything computed so far; turning the
first SIGINT into a cancel flag lets the sweep finish the chunks in flight, save them and say
so. Child processes are started with SIGINT held (blocked): they inherit the block, so the
same Ctrl-C (sent to the whole terminal process group) does not kill them mid-reply, and ours
is delivered when the block ends instead of being lost.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ...model.sweep.child_start import interrupts_held

__all__ = ["stop_on_interrupt", "interrupts_held"]


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def stop_on_interrupt(note: str) -> Iterator[threading.Event]:
    """An Event set by the first Ctrl-C (``note`` is printed to stderr then); a second Ctrl-C
    raises KeyboardInterrupt as usual. Outside the main thread, or where SIGINT is ignored
    (a command a shell started in the background, or under ``nohup``-style wrappers: the
    terminal's Ctrl-C is not meant for it, and Python itself leaves it ignored): an Event
    nothing sets."""
    stop = threading.Event()
    if not _main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield stop
        return

    def handler(signum, frame) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        print(f"\n{note}", file=sys.stderr, flush=True)

    old = signal.signal(signal.SIGINT, handler)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, old)

