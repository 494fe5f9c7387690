"""The one reader policy for input from outside the program (files, pipes, pasted text).

Why one place: every reader must hold the same three promises, and each reader that made
them up on its own missed one (a GPU report was read whole from ``/dev/zero`` because a
device's ``st_size`` is 0; a 10 MB op name came back in a 10 MB message):

- **bounded reads**: at most ``limit`` bytes are read from a file, a pipe, a device or a
  stream, whatever the file system says its size is (:func:`read_bytes`);
- **bounded parsing**: JSON nests at most :data:`JSON_MAX_DEPTH` levels, integers keep
  Python's digit limit, and any parse failure is a ``ValueError`` (:func:`load_json`);
- **bounded messages**: a message quotes the offending input by :func:`excerpt`, at most
  :data:`EXCERPT_CHARS` characters, never the whole of it.

Each reader still raises its own documented error (a ``ValueError`` subclass or a
``ValueError`` whose message names the file); these helpers raise ``ValueError`` with a
message that starts with the ``what`` they are given (usually the file name).
"""

from __future__ import annotations

import json
import os
import reprlib
import stat
from typing import IO, Any

__all__ = ["EXCERPT_CHARS", "JSON_MAX_DEPTH", "excerpt", "read_bytes", "read_text",
           "load_json", "json_depth", "regular_file"]

#: Most characters of outside input a message quotes.
EXCERPT_CHARS = 80
#: Deepest JSON nesting read (fpinspector's own files nest at most 5 levels).
JSON_MAX_DEPTH = 64
_BLOCK = 1 << 16


def _lead(what: str) -> str:
    """The start of a message: ``"WHAT: "``, or nothing where the caller prefixes its own."""
    return f"{what}: " if what else ""


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """``repr`` of ``value`` cut to at most about ``limit`` characters (the full length said
    when cut), for quoting outside input in a message; costs O(limit), whatever its size."""
    r = reprlib.Repr()
    r.maxstring = r.maxother = limit
    r.maxlevel, r.maxlist, r.maxdict, r.maxtuple = 3, 8, 8, 8
    text = r.repr(value)
    if len(text) <= limit:
        return text
    n = len(value) if isinstance(value, (str, bytes)) else None
    return text[: max(limit - 3, 1)] + "..." + (f" ({n:,} characters)" if n else "")


def read_bytes(source: str | os.PathLike | IO[bytes], limit: int, what: str | None = None
               ) -> bytes:
    """At most ``limit`` bytes of a file (by path) or a binary stream.

    The file system's size is never asked: a pipe, a device (``/dev/zero``) or a file that
    grows while read is read in blocks and refused as soon as it passes ``limit``.

    Raises
    ------
    ValueError
        ``"WHAT: cannot read it (why)"`` or ``"WHAT: more than LIMIT bytes; ..."`` (``what``
        empty: without the ``"WHAT: "``, for a caller that prefixes its own).
    """
    name = what if what is not None else (os.fspath(source) if isinstance(
        source, (str, os.PathLike)) else "input")
    try:
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as fh:
                return _read_capped(fh, limit, name)
        return _read_capped(source, limit, name)
    except OSError as exc:
        raise ValueError(f"{_lead(name)}cannot read it: {exc.strerror or exc}") from None


def regular_file(path: str | os.PathLike, what: str | None = None) -> None:
    """``ValueError`` unless ``path`` is a regular file: for readers that must seek (a zip),
    where a device or a pipe would block or never end."""
    name = what if what is not None else os.fspath(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise ValueError(f"{_lead(name)}cannot read it: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else \
            "a device or another special file"
        raise ValueError(f"{_lead(name)}not a regular file ({kind})")


def _read_capped(fh: IO[bytes], limit: int, name: str) -> bytes:
    parts: list[bytes] = []
    got = 0
    while got <= limit:
        block = fh.read(min(_BLOCK, limit + 1 - got))
        if not block:
            return b"".join(parts)
        parts.append(block)
        got += len(block)
    raise ValueError(f"{_lead(name)}more than {limit:,} bytes; refused before reading the rest")


def read_text(source: str | os.PathLike | IO[bytes], limit: int, what: str | None = None,
              encoding: str = "utf-8") -> str:
    """:func:`read_bytes`, decoded (``ValueError`` naming the first undecodable byte)."""
    data = read_bytes(source, limit, what)
    name = what if what is not None else (os.fspath(source) if isinstance(
        source, (str, os.PathLike)) else "input")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{_lead(name)}not {encoding.upper()} text (byte {exc.start:,} is "
                         f"{excerpt(data[exc.start:exc.start + 4])})") from None


def json_depth(value: Any) -> int:
    """Nesting depth of a decoded JSON value (a scalar is 0), without recursion."""
    depth = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
            depth = max(depth, d + 1)
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
            depth = max(depth, d + 1)
    return depth


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON number")


def load_json(text: str | bytes, what: str, *, max_depth: int = JSON_MAX_DEPTH,
              constants: bool = False) -> Any:
    """Decode JSON text; every failure is ``ValueError("WHAT: why")``.

    ``constants`` allows ``NaN``/``Infinity`` (Python's own JSON writer emits them, as GPU
    reports do); nesting deeper than ``max_depth`` is refused, also where Python's decoder
    would hit its recursion limit.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{_lead(what)}not a JSON file (not UTF-8 text: byte {exc.start:,})"
                             ) from None
    try:
        value = json.loads(text, parse_constant=None if constants else _no_constant)
    except RecursionError:
        raise ValueError(f"{_lead(what)}nested too deeply (at most {max_depth} levels)") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{_lead(what)}not a JSON file ({exc.msg} at line {exc.lineno}, column "
                         f"{exc.colno})") from None
    except ValueError as exc:  # an integer of more than 4300 digits, NaN refused, ...
        raise ValueError(f"{_lead(what)}not a readable JSON file ({excerpt(str(exc))})") from None
    if json_depth(value) > max_depth:
        raise ValueError(f"{_lead(what)}nested too deeply (at most {max_depth} levels)")
    return value
