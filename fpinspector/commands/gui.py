"""``fpinspector gui`` (and ``fpinspector`` with no arguments): open the desktop app."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping

from ._gpu_args import add_device_arguments, device_choice

NAME = "gui"
HELP = "open the desktop inspector (the default when no command is given)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-gpu", action="store_true",
                   help="run without OpenGL (no GPU column; the model works fully)")
    p.add_argument("--gpu-path", choices=("auto", "compute", "fragment"), default="auto",
                   help="GPU capture path (default: auto)")
    add_device_arguments(p)  # the device to start on; the GPU menu switches at run time


def display_problem(env: Mapping[str, str] | None = None, platform: str | None = None
                    ) -> str | None:
    """Why a window cannot open here, or None. On Linux without X11/Wayland, Qt aborts the
    process (SIGABRT, no message we can catch), so check before importing the app."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux") or env.get("QT_QPA_PLATFORM"):
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return ("no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set). "
            "Run it in a desktop session, or set QT_QPA_PLATFORM=offscreen for a headless run; "
            "the decode, convert, eval and gpu-report commands need no display")


def run(args: argparse.Namespace) -> int:
    """Import Qt only here, so the rest of the CLI works on machines without it."""
    problem = display_problem()
    if problem:  # printed here: bare `fpinspector` reaches run() outside cli.main's handler
        print(f"fpinspector gui: error: {problem}", file=sys.stderr)
        return 2
    choice = device_choice(args) if hasattr(args, "device") else None
    if choice is not None and not choice.is_default:
        from ..gpu.devices import select_device

        select_device(choice)
    try:
        from ..ui.app import main
    except ImportError as exc:
        raise ValueError(f"the desktop app needs PySide6, which cannot be imported: {exc}") from None
    return int(main(gpu="off" if getattr(args, "no_gpu", False) else getattr(args, "gpu_path", "auto")))
