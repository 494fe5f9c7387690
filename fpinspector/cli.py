"""Command line: ``fpinspector`` with no arguments opens the app; subcommands script the model.

Each subcommand lives in its own module under ``fpinspector/commands`` and exposes
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from . import commands

__all__ = ["main", "build_parser"]


def _command_modules() -> list:
    mods = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"{commands.__name__}.{info.name}"))
    return mods


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    parser = argparse.ArgumentParser(
        prog="fpinspector",
        description="Inspect GPU floating-point bit patterns under the Direct3D rules. "
        "With no command, opens the desktop app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    runners = {}
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        runners[mod.NAME] = mod.run
    return parser, runners


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser, runners = build_parser()
    if not argv:
        if "gui" in runners:
            return runners["gui"](parser.parse_args(["gui"]))
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    try:
        return int(runners[args.command](args) or 0)
    except BrokenPipeError:  # `fpinspector decode ... | head`: the reader left, not an error
        _silence_stdout()
        return 0
    except (ValueError, OSError) as exc:
        print(f"fpinspector {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"fpinspector {args.command}: interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
