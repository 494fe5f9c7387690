"""``fpinspector send``: put a value into the running app (starting it when none runs).

``send 0x3f800000``, ``send --format f16 --bytes "00 3c"``, ``send -`` (stdin: any text the
paste reader reads, or a message as ``--json`` prints it), ``send --to B ...``. ``--json``
prints the message instead of sending it: one JSON object on one line, the exact shape the
gdb and lldb ``fpi --json`` commands print. Exit 0 when the app took the value, 1 when it
could not be reached or started, 2 on bad input (or a value the app refused), 3 when no
display is available to start the app on.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from ..model.formats import FORMATS
from ..model.parse import parse
from ..model.send import channel
from ..model.send.message import (
    MAX_LANES,
    TARGETS,
    WIDTHS,
    Activate,
    Message,
    MessageError,
    message_from_bytes,
    message_to_json,
    parse_reply,
    parse_request,
)
from ..model.state.paste import MAX_PASTE_CHARS
from ._display_probe import display_problem

__all__ = ["NAME", "HELP", "add_arguments", "run", "build_message", "deliver_line"]

NAME = "send"
HELP = "send a value to the running app (started when none runs): exact bits, one undo step"

#: How long ``send`` waits for an app it started to listen (a cold start imports Qt, numpy
#: and the GPU layer: seconds on a loaded machine).
START_WAIT_S = 60.0
_BYTE = re.compile(r"(?:0[xX])?[0-9a-fA-F]{2}")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("values", nargs="*", metavar="VALUE",
                   help="patterns or values, as a paste reads them (0x3f800000, 1.5f, "
                   "'00 00 80 3f', gdb output...); '-' reads stdin (also a --json message)")
    p.add_argument("-f", "--format", choices=list(WIDTHS), default=None,
                   help="the values' format (patterns whose width the text does not give; "
                   "with --bytes: the lanes' format, default f32)")
    p.add_argument("--bytes", metavar="HEX", default=None,
                   help="raw bytes in memory order ('00 3c 00 40' or 003c0040): "
                   "little-endian lanes of --format, the lowest first")
    p.add_argument("--to", choices=list(TARGETS), type=_target, default=None,
                   help="where the value goes: operand A, B, C, or the inspector only "
                   "(default: like a paste, the inspector and the operands)")
    p.add_argument("--label", default=None, help="what the app says it is (default: the text)")
    p.add_argument("--json", action="store_true",
                   help="print the message (one JSON line) instead of sending it")
    p.add_argument("--no-start", action="store_true",
                   help="do not start the app when none runs (exit 1 instead)")


def _target(text: str) -> str:
    return "inspector" if text.lower() == "inspector" else text.upper()


def _read_stdin() -> str:
    text = sys.stdin.read(MAX_PASTE_CHARS + 1)
    if len(text) > MAX_PASTE_CHARS:
        raise MessageError(f"more than {MAX_PASTE_CHARS:,} characters on stdin")
    return text


def _bytes(text: str) -> bytes:
    t = text.strip()
    if re.fullmatch(r"(?:0[xX])?(?:[0-9a-fA-F]{2})+", t) and not re.search(r"[\s,]", t):
        return bytes.fromhex(t[2:] if t[:2].lower() == "0x" else t)
    parts = [w for w in re.split(r"[\s,;]+", t) if w]
    bad = [w for w in parts if not _BYTE.fullmatch(w)]
    if not parts or bad:
        raise MessageError(f"--bytes takes hex bytes ('00 3c 00 40'), not {(bad or [t])[0]!r}")
    return bytes(int(w, 16) for w in parts)


def build_message(args: argparse.Namespace) -> Message:
    """The message the arguments describe; MessageError (or the paste reader's
    ValueError) says why there is none."""
    if args.bytes is not None:
        if args.values:
            raise MessageError("give --bytes or values, not both")
        data = _bytes(args.bytes)
        return message_from_bytes(data, args.format or "f32", args.label or args.bytes.strip(),
                                  "cli", args.to)
    text = " ".join(_read_stdin() if v == "-" else v for v in args.values)
    if not text.strip():
        raise MessageError("nothing to send: give a value, --bytes, or '-' for stdin")
    if text.lstrip().startswith("{"):
        got = parse_request(text.strip())
        if isinstance(got, Activate):
            raise MessageError("an activation is not a value")
        if args.to or args.label:
            got = Message(got.format, got.lanes, args.label or got.label, got.source,
                          args.to or got.to)
        return got
    if len(text) > MAX_PASTE_CHARS:
        raise MessageError(f"more than {MAX_PASTE_CHARS:,} characters of text")
    fmt = args.format if args.format in FORMATS else None
    if args.format and fmt is None:
        raise MessageError(f"--format {args.format} goes with --bytes (text is read as floats)")
    values = parse(text, format=fmt)
    if not values:
        raise MessageError("no value found in the text")
    fmts = sorted({v.format for v in values})
    if len(fmts) > 1:
        raise MessageError(f"one message holds one format; the text has {', '.join(fmts)} "
                           "(give --format)")
    if len(values) > MAX_LANES:
        raise MessageError(f"{len(values)} values: a message holds at most {MAX_LANES}")
    return Message(fmts[0], tuple(int(v.bits) for v in values),
                   _one_line(args.label or text), "cli", args.to)


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:79] + "…"


def deliver_line(line: str, start: bool = True, wait: float = START_WAIT_S) -> tuple[int, str]:
    """Send one message line to the app (starting it when none runs and ``start``);
    (exit code, what to print): 0 taken, 1 unreachable, 2 refused, 3 no display."""
    try:
        return _answer(channel.request(line))
    except channel.NoListener:
        if not start:
            return 1, "no fpinspector app is running (--no-start)"
    except OSError as exc:
        return 1, f"the app could not be reached: {exc}"
    problem = display_problem()
    if problem:
        return 3, f"no app is running and none can start here: {problem}"
    return _start_and_send(line, wait)


def _answer(reply: bytes) -> tuple[int, str]:
    try:
        ok, text = parse_reply(reply)
    except MessageError as exc:
        return 1, f"the app's answer was not understood: {exc}"
    return (0, text) if ok else (2, f"the app refused the value: {text}")


def _start_and_send(line: str, wait: float) -> tuple[int, str]:
    """Start the app detached (its stderr kept in a file, for an early exit's reason) and
    send as soon as it listens."""
    log = tempfile.TemporaryFile()
    kw: dict = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": log}
    if sys.platform == "win32":
        kw["creationflags"] = (subprocess.DETACHED_PROCESS  # type: ignore[attr-defined]
                               | subprocess.CREATE_NEW_PROCESS_GROUP)  # type: ignore[attr-defined]
    else:
        kw["start_new_session"] = True
    app = subprocess.Popen([sys.executable, "-m", "fpinspector", "gui"], **kw)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            return _answer(channel.request(line))
        except channel.NoListener:
            pass
        except OSError as exc:
            return 1, f"the app started but could not be reached: {exc}"
        code = app.poll()
        if code is not None:
            log.seek(0)
            tail = log.read()[-600:].decode("utf-8", "replace").strip()
            return 1, f"the app exited (code {code}) before it listened" + (
                f": {tail}" if tail else "")
        time.sleep(0.1)
    return 1, f"the app started (pid {app.pid}) but did not listen within {wait:g} s"


def run(args: argparse.Namespace) -> int:
    try:
        msg = build_message(args)
    except (MessageError, ValueError) as exc:
        print(f"fpinspector send: error: {exc}", file=sys.stderr)
        return 2
    line = message_to_json(msg)
    if args.json:
        print(line)
        return 0
    wait = float(os.environ.get("FPINSPECTOR_SEND_WAIT", START_WAIT_S))
    code, text = deliver_line(line, start=not args.no_start, wait=wait)
    _say(text if code == 0 else f"fpinspector send: error: {text}",
         sys.stdout if code == 0 else sys.stderr)
    return code


def _say(text: str, stream) -> None:  # type: ignore[no-untyped-def]
    """Print what the app said even on a console that cannot show all of it (Windows'
    cp1252 lacks most characters a label may hold): the value was delivered, the exit code
    says so."""
    enc = getattr(stream, "encoding", None) or "utf-8"
    print(text.encode(enc, "replace").decode(enc, "replace"), file=stream)
