"""Starting child processes (the sweep's workers, the GPU process) safely.

:func:`interrupts_held`: a Ctrl-C goes to the whole terminal process group. Children started with SIGINT
blocked inherit the block and keep it for life, so the same Ctrl-C cannot kill them
mid-reply (the parent stops them), and the parent's own Ctrl-C is delivered when the block
ends instead of being lost. Where signals cannot be blocked (Windows), SIGINT is ignored
meanwhile instead.

:func:`main_not_rerun`: the "spawn" start method runs the parent's ``__main__`` script again
in each child; a user's script without an ``if __name__ == "__main__"`` guard would start
its sweep (or its app) once more in every child. The children need only fpinspector's own
modules, so they start without it.
"""

from __future__ import annotations

import signal
import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["interrupts_held", "main_not_rerun"]


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT held (blocked, or ignored where it cannot be) inside the block; outside the
    main thread, where signal handling cannot change, nothing is done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if hasattr(signal, "pthread_sigmask"):
        old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextmanager
def main_not_rerun() -> Iterator[None]:
    """Children started inside the block do not run the parent's ``__main__`` again."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main
