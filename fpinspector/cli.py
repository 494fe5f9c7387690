"""Command line: ``fpinspector`` with no arguments opens the app; subcommands script the model.

Each subcommand lives in its own module under ``fpinspector/commands`` and exposes
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.

Two entry points: ``fpinspector`` (console) and ``fpinspector-gui`` (``gui_scripts``: on
Windows it opens no console window beside the app). Both call
``multiprocessing.freeze_support()`` first, so a frozen build's worker processes run their
task instead of starting another app.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import io
import multiprocessing
import os
import pkgutil
import sys
from collections.abc import Sequence

from . import __version__, commands

__all__ = ["main", "gui_main", "build_parser", "safe_text_streams", "OPTIONAL_MODULES"]

#: Packages some commands need and the rest of the CLI does not: what each is for, and the
#: exit status of a command that cannot run without it (3: no GL at all, as gpu-report's
#: own "no usable OpenGL context"; 2: the app cannot start)
OPTIONAL_MODULES: dict[str, tuple[str, int]] = {
    "moderngl": ("OpenGL GPU capture", 3),
    "glcontext": ("OpenGL GPU capture", 3),
    "PySide6": ("the desktop app", 2),
    "shiboken6": ("the desktop app", 2),
    "pyqtgraph": ("the desktop app", 2),
}

#: ASCII spellings of the symbols the CLI prints, for a console or file whose encoding
#: lacks them (a Windows code page, a redirected stdout); anything else becomes "?"
_ASCII_SPELLINGS = {
    "\u2192": "->", "\u2190": "<-", "\u221e": "inf", "\u2212": "-", "\u222a": "|",
    "\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u2248": "~", "\u00b1": "+/-",
    "\u2014": "--", "\u2013": "-", "\u2026": "...", "\u00a7": "S", "\u00b7": ".",
    "\u2022": "*", "\u2717": "x", "\u26a0": "!", "\u25b6": ">", "\u25c0": "<", "\u00b5": "u",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
}
_ERRORS = "fpinspector-ascii"


def _spell_out(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    bad = err.object[err.start:err.end]
    return "".join(_ASCII_SPELLINGS.get(ch, "?") for ch in bad), err.end


codecs.register_error(_ERRORS, _spell_out)


def safe_text_streams() -> None:
    """Text output never fails on encoding: stdout and stderr keep their encoding, and what
    it cannot hold is written in ASCII (``->`` for an arrow, ``?`` for the rest).

    Why: a Windows console redirected to a file or a pipe writes the ANSI code page
    (cp1252), which has no ``∪`` or ``→``; Python's default (strict) then raised half-way
    through the output and the file held nothing. UTF-8 streams are left alone, and so is
    an error handler the user chose (``PYTHONIOENCODING=cp1252:strict``).
    """
    chosen = os.environ.get("PYTHONIOENCODING", "")
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, io.TextIOWrapper) or ":" in chosen:
            continue
        try:
            codec = codecs.lookup(stream.encoding).name
        except LookupError:
            continue
        if codec.startswith("utf"):
            continue
        if stream.errors in ("strict", "backslashreplace"):
            try:
                stream.reconfigure(errors=_ERRORS)
            except (ValueError, OSError):  # closed, or a stream that cannot switch
                pass


def _command_modules() -> list:
    mods = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"{commands.__name__}.{info.name}"))
    return mods


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    parser, runners, _ = _build()
    return parser, runners


def _build() -> tuple[argparse.ArgumentParser, dict, dict]:
    parser = argparse.ArgumentParser(
        prog="fpinspector",
        description="Inspect GPU floating-point bit patterns under the Direct3D rules. "
        "With no command, opens the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"fpinspector {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    runners = {}
    subparsers = {}
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        runners[mod.NAME] = mod.run
        subparsers[mod.NAME] = p
    return parser, runners, subparsers


def _parse(parser: argparse.ArgumentParser, subparsers: dict,
           argv: list[str]) -> argparse.Namespace:
    """Options may stand before the operands (``eval rcp --format f64 0x3ff0...``): a
    command's own parser reads its arguments intermixed where argparse allows it."""
    sub = subparsers.get(argv[0]) if argv else None
    if sub is not None and "--" not in argv:  # argparse cannot intermix around "--"
        try:
            args = sub.parse_intermixed_args(argv[1:])
        except TypeError:  # a parser argparse cannot intermix (REMAINDER, ...)
            return parser.parse_args(argv)
        args.command = argv[0]
        return args
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    multiprocessing.freeze_support()
    safe_text_streams()
    argv = list(sys.argv[1:] if argv is None else argv)
    parser, runners, subparsers = _build()
    if not argv:
        if "gui" not in runners:
            parser.print_help()
            return 0
        argv = ["gui"]
    args = _parse(parser, subparsers, argv)
    try:
        return int(runners[args.command](args) or 0)
    except BrokenPipeError:  # `fpinspector decode ... | head`: the reader left, not an error
        _silence_stdout()
        return 0
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing not in OPTIONAL_MODULES:
            raise
        what, status = OPTIONAL_MODULES[missing]
        print(f"fpinspector {args.command}: error: {what} needs the Python package "
              f"'{missing}', which is not installed (pip install {missing})", file=sys.stderr)
        return status
    except (ValueError, OSError) as exc:
        print(f"fpinspector {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"fpinspector {args.command}: interrupted", file=sys.stderr)
        return 130


def gui_main() -> int:
    """``fpinspector-gui``: the app, from a windowed launcher (``pythonw`` on Windows).

    There stdout and stderr are None; what the app or a failed start would print is kept,
    and a start that fails is shown in a message box instead of vanishing.
    """
    multiprocessing.freeze_support()
    captured = None
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - process-long
    if sys.stderr is None:
        captured = sys.stderr = io.StringIO()
    status = main(["gui", *sys.argv[1:]])
    if status != 0 and captured is not None:
        show_start_failure(captured.getvalue().strip() or f"the app exited with {status}")
    return status


def show_start_failure(text: str) -> None:
    """A message box where the platform has one without Qt (Windows); else stderr."""
    if sys.platform == "win32":
        import ctypes

        ctypes.windll.user32.MessageBoxW(None, text, "fpinspector", 0x10)  # MB_ICONERROR
    elif sys.__stderr__ is not None:
        print(text, file=sys.__stderr__)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
