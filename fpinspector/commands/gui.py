"""``fpinspector gui`` (and ``fpinspector`` with no arguments): open the desktop app."""

from __future__ import annotations

import argparse

NAME = "gui"
HELP = "open the desktop inspector (the default when no command is given)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-gpu", action="store_true",
                   help="run without OpenGL (no GPU column; the model works fully)")
    p.add_argument("--gpu-path", choices=("auto", "compute", "fragment"), default="auto",
                   help="GPU capture path (default: auto)")


def run(args: argparse.Namespace) -> int:
    """Import Qt only here, so the rest of the CLI works on machines without it."""
    try:
        from ..ui.app import main
    except ImportError as exc:
        raise ValueError(f"the desktop app needs PySide6, which cannot be imported: {exc}") from None
    return int(main(gpu="off" if getattr(args, "no_gpu", False) else getattr(args, "gpu_path", "auto")))
