"""``fpinspector decode``: describe every value found in the arguments (or a paste on stdin).

Output streams: values are described and printed a block at a time, so a paste of many
values (``<repeats N times>``) shows its first lines at once and never holds every record
in memory; the JSON document is the same text ``json.dumps(..., indent=2)`` gives.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..model.convert import VARIANTS, convert
from ..model.describe import describe_many
from ..model.formats import FORMATS
from ..model.parse import parse
from ._readout import SCHEMA_VERSION, by_format, display_of, gather_text, hex_of, input_dict

#: Values described per block of output.
BLOCK = 1024

NAME = "decode"
HELP = ("describe values: class, fields, exact decimal, shortest, hex float, neighbours, ULP, "
        "and the value converted into every other format")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("values", nargs="+", metavar="VALUE",
                   help="patterns or values (0x3f800000, 3c00, '00 00 80 3f', 1.0f, ...); "
                   "'-' reads a paste from stdin; put '--' before values starting with '-'")
    p.add_argument("-f", "--format", default=None, choices=list(FORMATS),
                   help="format of values whose width the text does not give (decimals: f32)")
    p.add_argument("--byte-order", default="little", choices=["little", "big", "both"],
                   help="how to read byte dumps (memory order)")
    p.add_argument("--variant", default="d3d", choices=list(VARIANTS),
                   help="encoder used for the readings in the other formats (default d3d)")
    p.add_argument("--json", action="store_true", help="machine-readable output "
                   "(docs/cli-json.md)")


def _records(values: list, variant: str) -> list[dict[str, Any]]:
    """One record per value; describe and the readings in the other formats run once per
    (format, target) over the distinct patterns of that format (a ``<repeats>`` paste is
    described once), not once per value."""
    out: list[dict[str, Any]] = [{} for _ in values]
    for src, idx in by_format(values).items():
        uniq, inv = np.unique(np.array([values[i].bits for i in idx], dtype=np.uint64),
                              return_inverse=True)
        bits = uniq.tolist()
        infos = describe_many(bits, src)
        arr = FORMATS[src].as_bits(uniq)
        readings: dict[str, tuple[Any, list[dict[str, Any]]]] = {}
        for dst in FORMATS:
            if dst != src:
                res = convert(arr, src, dst, variant)
                rb = np.asarray(res.bits).reshape(-1).tolist()
                readings[dst] = (res, [{"bits": b, "hex": hex_of(b, dst),
                                        "shortest": i.shortest}
                                       for b, i in zip(rb, describe_many(rb, dst))])
        base: dict[int, dict[str, Any]] = {}  # per distinct pattern, shared by its copies
        for k, i in zip(inv.reshape(-1).tolist(), idx):
            if k not in base:
                base[k] = infos[k].to_dict()
                base[k]["next_up_hex"] = hex_of(infos[k].next_up, src)
                base[k]["next_down_hex"] = hex_of(infos[k].next_down, src)
            d = dict(base[k])
            d["input"] = input_dict(values[i])
            d["variant"] = variant
            d["as"] = {dst: {**rd[k], "rules": list(res.rules_at(k))}
                       for dst, (res, rd) in readings.items()}
            out[i] = d
    return out


@functools.lru_cache(maxsize=1 << 14)
def _display(bits: int, fmt: str) -> str:
    """Exact or shortest decimal text of a pattern (a repeated value is written once)."""
    return display_of(bits, fmt)


def _text(d: dict[str, Any]) -> str:
    src = d["input"]
    head = f"{d['hex']}  {d['format']}  {d['class']}   (from {src['text']!r}, {src['kind']}"
    head += f", {src['label']})" if src["label"] else ")"
    unb = d["exponent_unbiased"]
    exp = f"{d['exponent_biased']}" + (f" (2^{unb})" if unb is not None else "")
    lines = [head]
    if src["note"]:
        lines.append(f"  note       {src['note']}")
    fmt = FORMATS[d["format"]]
    lines += [
        f"  bits       {d['binary']}",
        f"  fields     sign {d['sign']}  exponent {exp}  fraction 0x{d['fraction']:X}",
        f"  exact      {d['exact']}",
        f"  shortest   {d['shortest']}",
        f"  hex float  {d['hex_float']}",
        f"  next up    {d['next_up_hex']}  {_display(d['next_up'], fmt.name)}",
        f"  next down  {d['next_down_hex']}  {_display(d['next_down'], fmt.name)}",
        f"  ulp        {d['ulp']}",
    ]
    for dst, r in d["as"].items():
        rules = f"  [{', '.join(r['rules'])}]" if r["rules"] else ""
        lines.append(f"  as {dst:<4} ({d['variant']})  {r['hex']:<18}  {_display(r['bits'], dst)}{rules}")
    return "\n".join(lines)


def _blocks(values: list, variant: str) -> Iterator[list[dict[str, Any]]]:
    for i in range(0, len(values), BLOCK):
        yield _records(values[i:i + BLOCK], variant)


def emit_stream(schema: str, blocks: Iterator[list[dict[str, Any]]], as_json: bool,
                text: Callable[[dict[str, Any]], str]) -> int:
    """Print blocks of records as they come: the documented JSON document (the text
    ``json.dumps(doc, indent=2)`` gives for all of them) or text blocks; exit status 0."""
    out = sys.stdout
    first = True
    if as_json:
        head = json.dumps({"schema": schema, "version": SCHEMA_VERSION, "values": []}, indent=2)
        out.write(head[: head.rindex("[]")] + "[")
    for block in blocks:
        for rec in block:
            if as_json:
                body = json.dumps(rec, indent=2).replace("\n", "\n    ")
                out.write(("\n    " if first else ",\n    ") + body)
            else:
                out.write(("" if first else "\n\n") + text(rec))
            first = False
        out.flush()
    out.write("\n  ]\n}\n" if as_json else "\n")
    return 0


def run(args: argparse.Namespace) -> int:
    values = parse(gather_text(args.values), args.format, byte_order=args.byte_order)
    if not values:
        raise ValueError("no values found in the input")
    return emit_stream("fpinspector.decode", _blocks(values, args.variant), args.json, _text)
