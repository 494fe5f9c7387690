"""``fpinspector convert``: convert values into another format under the D3D rules or a
named vendor variant, with the CONV-* rules that fired."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from ..model.convert import VARIANTS, convert
from ..model.convert.variants import MODES
from ..model.formats import FORMATS
from ..model.parse import parse
from ._readout import by_format, display_of, emit, gather_text, input_dict, short_many

NAME = "convert"
HELP = "convert values into another format (d3d rules by default, or a vendor variant)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("values", nargs="+", metavar="VALUE",
                   help="patterns or values, as for decode; '-' reads stdin")
    p.add_argument("--to", required=True, choices=list(FORMATS), help="target format")
    p.add_argument("--from", dest="src", default=None, choices=list(FORMATS),
                   help="source format where the text does not give it (decimals: f32)")
    p.add_argument("--variant", default="d3d", choices=list(VARIANTS) + list(MODES) + ["all"],
                   help="encoder: d3d (default), a vendor variant, a mode (rtz, rne_sat, "
                   "rtz_sat: OCP SAT into FP8) or 'all' side by side")
    p.add_argument("--byte-order", default="little", choices=["little", "big", "both"],
                   help="how to read byte dumps (memory order)")
    p.add_argument("--json", action="store_true", help="machine-readable output "
                   "(docs/cli-json.md)")


def _records(values: list, dst: str, variants: list[str]) -> list[dict[str, Any]]:
    """One record per value; one convert call per (source format, variant) over all values."""
    out: list[dict[str, Any]] = [{} for _ in values]
    for src, idx in by_format(values).items():
        bits = [values[i].bits for i in idx]
        arr = FORMATS[src].as_bits(np.array(bits, dtype=np.uint64))
        froms = short_many(bits, src)
        per_variant = []
        for name in variants:
            res = convert(arr, src, dst, name)
            per_variant.append((name, res, short_many(
                np.asarray(res.bits).reshape(-1).tolist(), dst)))
        for k, i in enumerate(idx):
            results = []
            for name, res, shorts in per_variant:
                r = dict(shorts[k])
                r["variant"] = name
                r["rules"] = list(res.rules_at(k))
                r["explain"] = list(res.explain_at(k))
                results.append(r)
            out[i] = {"input": input_dict(values[i]), "from": froms[k], "to": dst,
                      "results": results}
    return out


def _text(d: dict[str, Any]) -> str:
    src = d["from"]
    lines = [f"{src['hex']} {src['format']} ({display_of(src['bits'], src['format'])}) -> {d['to']}"
             f"   (from {d['input']['text']!r})"]
    for r in d["results"]:
        rules = f"  [{', '.join(r['rules'])}]" if r["rules"] else ""
        lines.append(f"  {r['variant']:<12} {r['hex']:<18}  {display_of(r['bits'], d['to']):<14} "
                     f"{r['class']}{rules}")
    if len(d["results"]) == 1:
        lines += [f"    {s}" for s in d["results"][0]["explain"]]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    values = parse(gather_text(args.values), args.src, byte_order=args.byte_order)
    if not values:
        raise ValueError("no values found in the input")
    variants = ([v for v, var in VARIANTS.items() if var.covers(args.to)]  # (bf16, FP8:
                if args.variant == "all" else [args.variant])  # d3d and ieee)
    records = _records(values, args.to, variants)
    return emit("fpinspector.convert", records, args.json, _text)
