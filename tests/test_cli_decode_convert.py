"""CLI ``decode`` and ``convert``: text and JSON output (docs/cli-json.md), errors on stderr
with a non-zero exit. Expected patterns come from struct/numpy or docs/rules.md's
disagreement table (CONV-F2F-RTZ, CONV-F2F-SAT, CONV-UNSIGNED, CONV-WIDEN)."""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import numpy as np
import pytest

from fpinspector.cli import main
from fpinspector.model.formats import FORMATS

DECODE_KEYS = {
    "format", "bits", "hex", "binary", "class", "sign", "exponent_biased", "exponent_unbiased",
    "fraction", "value", "exact", "shortest", "hex_float", "next_up", "next_down",
    "next_up_hex", "next_down_hex", "ulp", "input", "variant", "as",
}


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_decode_0x3c00_json_documented_keys(capsys):
    """The brief's example; keys are exactly those of docs/cli-json.md."""
    rc, out, err = run_cli(capsys, "decode", "0x3c00", "--json")
    assert rc == 0 and err == ""
    doc = json.loads(out)
    assert doc["schema"] == "fpinspector.decode" and doc["version"] == 1
    (v,) = doc["values"]
    assert set(v) == DECODE_KEYS
    assert (v["format"], v["bits"], v["class"], v["exact"], v["hex_float"]) == (
        "f16", 0x3C00, "normal", "1", "0x1p+0")
    assert v["next_up_hex"] == "0x3C01" and v["ulp"] == float(np.spacing(np.float16(1)))
    assert v["as"]["f32"]["bits"] == struct.unpack("<I", struct.pack("<f", 1.0))[0]
    assert "CONV-WIDEN" in v["as"]["f32"]["rules"]
    assert set(v["as"]) == set(FORMATS) - {"f16"}  # every other format
    assert v["input"] == {"text": "0x3c00", "start": 0, "end": 6, "kind": "hex", "label": "",
                          "note": "", "group": 0}
    doc_text = (Path(__file__).resolve().parents[1] / "docs" / "cli-json.md").read_text("utf-8")
    for key in DECODE_KEYS:
        assert f"`{key}`" in doc_text, key


def test_decode_text_output_and_byte_order(capsys):
    rc, out, _ = run_cli(capsys, "decode", "3f 80 00 00", "--byte-order", "both")
    assert rc == 0
    assert "0x0000803F" in out and "0x3F800000" in out and "bytes-be" in out
    rc, out, _ = run_cli(capsys, "decode", "1.5", "--format", "f16")
    assert rc == 0 and out.startswith("0x3E00  f16  normal")
    assert "exact      1.5" in out and "hex float  0x1.8p+0" in out


def test_decode_reads_stdin_paste(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("$1 = {0x3f800000, 0x40000000}\n"))
    rc, out, _ = run_cli(capsys, "decode", "-", "--json")
    assert rc == 0
    assert [v["bits"] for v in json.loads(out)["values"]] == [0x3F800000, 0x40000000]


@pytest.mark.parametrize("argv, msg", [
    (["decode", "1.0 zz"], "unknown word 'zz' at index 4"),
    (["decode", "0x3c0"], "f11 or f10"),
    (["decode", "   "], "no values"),
    (["convert", "--to", "f16", "(1"], "unclosed"),
])
def test_errors_on_stderr_nonzero_exit(capsys, argv, msg):
    rc, out, err = run_cli(capsys, *argv)
    assert rc != 0 and out == ""
    assert msg in err and "Traceback" not in err


@pytest.mark.parametrize("value, variant, want", [
    ("0x3F803000", "d3d", 0x3C01),  # case 1: 1 + 3*2^-11, toward zero (CONV-F2F-RTZ)
    ("0x3F803000", "ieee", 0x3C02),  # ... nearest even
    ("1e6", "d3d", 0x7BFF),  # case 2: saturate (CONV-F2F-SAT)
    ("65520", "ieee", 0x7C00),  # ... INF
])
def test_convert_f16_disagreement_cases(capsys, value, variant, want):
    rc, out, _ = run_cli(capsys, "convert", value, "--to", "f16", "--variant", variant, "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["schema"] == "fpinspector.convert"
    (r,) = doc["values"][0]["results"]
    assert (r["variant"], r["bits"]) == (variant, want)


def test_convert_neg_inf_to_f11_all_variants_CONV_UNSIGNED(capsys):
    rc, out, _ = run_cli(capsys, "convert", "--to", "f11", "--variant", "all", "--json", "--",
                         "-inf")
    assert rc == 0
    rec = json.loads(out)["values"][0]
    assert rec["from"]["bits"] == 0xFF800000
    by = {r["variant"]: r for r in rec["results"]}
    assert by["d3d"]["bits"] == 0 and "CONV-UNSIGNED" in by["d3d"]["rules"]
    assert by["d3d"]["explain"] and len(by) >= 7
    rc, out, _ = run_cli(capsys, "convert", "1.0", "--to", "f11")
    assert rc == 0 and "0x3C0" in out


def test_decode_json_strings_read_back(capsys):
    """What decode prints (hex, exact, shortest, hex float, next up/down) parses back."""
    from fpinspector.model import parse

    args = ["decode", "--json", "--format", "f16", "0x0001", "0x7BFF", "0x8400", "0x3555"]
    rc, out, _ = run_cli(capsys, *args)
    assert rc == 0
    for v in json.loads(out)["values"]:
        for key in ("hex", "exact", "shortest", "hex_float"):
            assert parse(v[key], v["format"])[0].bits == v["bits"], (key, v[key])
        assert parse(v["next_up_hex"], v["format"])[0].bits == v["next_up"]
        for dst, r in v["as"].items():
            assert parse(r["hex"], dst)[0].bits == r["bits"]
