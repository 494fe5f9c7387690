"""Shared helpers of the decode and convert commands: input gathering and one-line readouts."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from ..model.describe import ValueInfo, describe, describe_many, display_decimal
from ..model.formats import get_format
from ..model.parse import ParsedValue
from ..model.parse.reader import MAX_INPUT_CHARS
from ..model.reading import read_bytes

__all__ = ["SCHEMA_VERSION", "by_format", "gather_text", "input_dict", "short", "short_many"]

#: Bumped only on incompatible changes to the JSON output (docs/cli-json.md).
SCHEMA_VERSION = 1
#: Most bytes of standard input read (the parser takes at most 2^20 characters, up to 4
#: bytes each in UTF-8).
STDIN_BYTES = 4 * MAX_INPUT_CHARS


def _stdin() -> str:
    """Standard input, at most :data:`STDIN_BYTES` of it (``yes | fpinspector decode -``
    is refused after 4 MiB, not read until memory runs out); undecodable bytes replaced."""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # (a replaced sys.stdin: text already)
        text = sys.stdin.read(MAX_INPUT_CHARS + 1)
        if len(text) > MAX_INPUT_CHARS:
            raise ValueError(f"standard input: more than {MAX_INPUT_CHARS:,} characters")
        return text
    return read_bytes(raw, STDIN_BYTES, "standard input").decode("utf-8", "replace")


def gather_text(values: list[str]) -> str:
    """Join the VALUE arguments with spaces; ``-`` reads standard input (a paste)."""
    parts = [_stdin() if v == "-" else v for v in values]
    return " ".join(parts)


def input_dict(v: ParsedValue) -> dict[str, Any]:
    """Where a value came from, for the JSON ``input`` object."""
    return {"text": v.text, "start": v.start, "end": v.end, "kind": v.kind, "label": v.label,
            "note": v.note, "group": v.group}


def short(bits: int, fmt: str) -> dict[str, Any]:
    """Pattern, hex, class and shortest decimal of one pattern."""
    info = describe(bits, fmt)
    return {"format": info.format, "bits": info.bits, "hex": info.hex,
            "class": info.class_name, "shortest": info.shortest, "exact": info.exact}


def hex_of(bits: int, fmt: str) -> str:
    f = get_format(fmt)
    return f"0x{int(bits):0{(f.bits + 3) // 4}X}"


def display_of(bits: int, fmt: str) -> str:
    """Exact value when short, else shortest round trip: what text output shows."""
    return display_decimal(int(bits), fmt)


def short_of(info: ValueInfo) -> dict[str, Any]:
    """The short readout of a described pattern (see :func:`short`)."""
    return {"format": info.format, "bits": info.bits, "hex": info.hex,
            "class": info.class_name, "shortest": info.shortest, "exact": info.exact}


def short_many(bits: list[int], fmt: str) -> list[dict[str, Any]]:
    """:func:`short` for many patterns of one format (one vectorized describe)."""
    return [short_of(i) for i in describe_many(bits, fmt)]


def by_format(values: list[ParsedValue]) -> dict[str, list[int]]:
    """Indices of the parsed values per format, so each format is handled in one pass."""
    groups: dict[str, list[int]] = {}
    for i, v in enumerate(values):
        groups.setdefault(v.format, []).append(i)
    return groups


def emit(schema: str, records: list[dict[str, Any]], as_json: bool,
         text: Callable[[dict[str, Any]], str]) -> int:
    """Print the records as the documented JSON document or as text blocks; exit status 0."""
    if as_json:
        print(json.dumps({"schema": schema, "version": SCHEMA_VERSION, "values": records},
                         indent=2))
    else:
        print("\n\n".join(text(r) for r in records))
    return 0
