"""What the gdb and lldb ``fpi`` commands share: the command line, the message, the sending.

Loaded by its path into the debugger's own Python (which has neither this package nor
numpy): it loads ``model/send/message.py`` and ``model/send/channel.py`` the same way, so
the debuggers build and send exactly the message ``fpinspector send`` does. Standard
library only.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_SEND = os.path.join(os.path.dirname(_HERE), "model", "send")

#: A float element's format by its size in bytes; an integer's code type by (size, signed).
FLOATS = {2: "f16", 4: "f32", 8: "f64"}
#: Words in a 2-byte float type's name that make it bfloat16, not IEEE half: gdb's register
#: lanes (``builtin_type_bfloat16``), GCC's and Clang's ``__bf16``, C++23's ``bfloat16_t``.
BFLOAT16_NAMES = ("bf16", "bfloat16")


def float_format(type_name: str, size: int) -> str | None:
    """The format of a float type of ``size`` bytes named ``type_name``, None for a size
    the app has no float of."""
    if size == 2 and any(w in type_name.lower() for w in BFLOAT16_NAMES):
        return "bf16"
    return FLOATS.get(size)
INTS = {(4, True): "i32", (4, False): "u32", (2, False): "u16", (1, False): "u8"}
#: ``fpi/d`` and friends: the float format to read the bytes as.
LETTERS = {"f": "f32", "d": "f64", "h": "f16"}
USAGE = ("usage: fpi[/f|/d|/h] [--json] [--to A|B|C|inspector] EXPR  (/f f32, /d f64, "
         "/h f16 lanes: a register or integer read as that float)")


def _load(name: str):  # type: ignore[no-untyped-def]
    key = f"_fpinspector_send_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, os.path.join(_SEND, f"{name}.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[key] = mod  # (dataclasses look their module up while the class is made)
    spec.loader.exec_module(mod)
    return mod


message = _load("message")
channel = _load("channel")


class UsageError(ValueError):
    """The command line of ``fpi`` is wrong (the debugger shows it as its own error)."""


def parse_args(arg: str) -> tuple[str | None, bool, str | None, str]:
    """``/d --json --to B expr`` -> (format asked for or None, json, target, expression).
    The expression is the rest of the line as typed (it may hold spaces and quotes)."""
    rest = arg.strip()
    fmt = None
    if rest.startswith("/"):
        word, _, rest = rest.partition(" ")
        letters = word[1:]
        if len(letters) != 1 or letters not in LETTERS:
            raise UsageError(f"unknown format letter {word!r}. {USAGE}")
        fmt = LETTERS[letters]
    as_json, to = False, None
    while True:
        rest = rest.lstrip()
        if rest.startswith("--json") and rest[6:7] in ("", " "):
            as_json, rest = True, rest[6:]
        elif rest.startswith("--to") and rest[4:5] in (" ", "="):
            parts = rest[5:].lstrip().split(None, 1)
            if not parts:
                raise UsageError(f"--to needs A, B, C or inspector. {USAGE}")
            word = parts[0]
            to = "inspector" if word.lower() == "inspector" else word.upper()
            if to not in message.TARGETS:
                raise UsageError(f"--to {word!r}: one of A, B, C, inspector")
            rest = parts[1] if len(parts) > 1 else ""
        elif rest.startswith("-") and rest[1:2] in LETTERS and rest[2:3] in ("", " "):
            fmt, rest = LETTERS[rest[1]], rest[2:]  # lldb spelling: fpi -d EXPR
        else:
            break
    if not rest.strip():
        raise UsageError(USAGE)
    return fmt, as_json, to, rest.strip()


def build(data: bytes, fmt: str, label: str, source: str,  # type: ignore[no-untyped-def]
          to: str | None):
    """The message of ``data`` (ValueError with the reason when there is none)."""
    return message.message_from_bytes(data, fmt, label, source, to)


def _command() -> list[str] | None:
    """How to run ``fpinspector``: ``$FPINSPECTOR_COMMAND``, the one of the environment
    this file was installed into, or the one on PATH."""
    env = os.environ.get("FPINSPECTOR_COMMAND")
    if env:
        return shlex.split(env, posix=os.name != "nt")
    d = _HERE
    for _ in range(7):
        for rel in ("bin/fpinspector", "Scripts/fpinspector.exe", ".venv/bin/fpinspector",
                    ".venv/Scripts/fpinspector.exe"):
            p = os.path.join(d, *rel.split("/"))
            if os.path.isfile(p) and os.access(p, os.X_OK):
                return [p]
        d = os.path.dirname(d)
    found = shutil.which("fpinspector")
    return [found] if found else None


def send(line: str) -> str:
    """Send one message line to the app; start it (through ``fpinspector send -``) when
    none runs. Returns the app's answer; ValueError with the reason when it failed."""
    try:
        ok, text = message.parse_reply(channel.request(line))
    except channel.NoListener:
        cmd = _command()
        if cmd is None:
            raise ValueError("no fpinspector app is running and the fpinspector command was "
                             "not found (set FPINSPECTOR_COMMAND)") from None
        try:
            res = subprocess.run(cmd + ["send", "-"], input=line, capture_output=True,
                                 text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ValueError(f"could not run {cmd[0]}: {exc}") from None
        if res.returncode:
            raise ValueError((res.stderr or res.stdout).strip()
                             or f"fpinspector send exited with {res.returncode}")
        return res.stdout.strip()
    except (OSError, ValueError) as exc:
        raise ValueError(f"sending failed: {exc}") from None
    if not ok:
        raise ValueError(f"the app refused the value: {text}")
    return text
