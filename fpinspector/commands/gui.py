"""``fpinspector gui`` (and ``fpinspector`` with no arguments): open the desktop app."""

from __future__ import annotations

import argparse
import sys

from ._display_probe import display_problem
from ._gpu_args import add_device_arguments, device_choice

__all__ = ["NAME", "HELP", "add_arguments", "run", "display_problem"]

NAME = "gui"
HELP = "open the desktop inspector (the default when no command is given)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-gpu", action="store_true",
                   help="run without OpenGL (no GPU column; the model works fully)")
    p.add_argument("--gpu-path", choices=("auto", "compute", "fragment"), default="auto",
                   help="GPU capture path (default: auto)")
    add_device_arguments(p)  # the device to start on; the GPU menu switches at run time
    p.add_argument("values", nargs="*", metavar="VALUE",
                   help="values to paste at start; with an app already running, they go to "
                   "it (one app per user) and this launch exits")


def run(args: argparse.Namespace) -> int:
    """Import Qt only here, so the rest of the CLI works on machines without it."""
    values = tuple(getattr(args, "values", ()) or ())
    handed = hand_over(values)
    if handed is not None:  # one app per user: the running one took the arguments
        print(f"fpinspector gui: {handed}")
        return 0
    problem = display_problem()
    if problem:  # printed here: bare `fpinspector` reaches run() outside cli.main's handler
        print(f"fpinspector gui: error: {problem}", file=sys.stderr)
        return 2
    choice = device_choice(args) if hasattr(args, "device") else None
    if choice is not None and not choice.is_default:
        from ..gpu.devices import select_device

        select_device(choice)
    from ..model.sweep.alloc import keep_freed_buffers

    keep_freed_buffers()  # the app's sweeps reuse chunk buffers instead of faulting them in
    try:
        from ..ui.shell.app import main
    except ImportError as exc:
        raise ValueError(f"the desktop app needs PySide6, which cannot be imported: {exc}") from None
    gpu = "off" if getattr(args, "no_gpu", False) else getattr(args, "gpu_path", "auto")
    return int(main(gpu=gpu, values=values) if values else main(gpu=gpu))


def hand_over(values: tuple[str, ...]) -> str | None:
    """Hand ``values`` to this user's running app (which raises its window); what it
    answered, or None when no app runs (or it cannot be reached)."""
    import json

    from ..model.send import channel
    from ..model.send.message import MessageError, parse_reply

    try:
        ok, text = parse_reply(channel.request(json.dumps({"activate": list(values)})))
    except (OSError, MessageError):
        return None
    return ("the running app took the values: " if ok else "the running app: ") + text
