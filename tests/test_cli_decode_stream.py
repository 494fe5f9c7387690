"""`fpinspector decode` streams its output block by block; the JSON is byte for byte what
json.dumps(document, indent=2) gives (oracle: the whole document built at once)."""

from __future__ import annotations

import json

from fpinspector.cli import main
from fpinspector.commands import decode

VALUES = ["0x3c00", "0x7bff", "0x0001", "1.5", "-0.0", "nan", "inf", "0x3f800000", "2e-45"]


def test_json_streamed_in_blocks_equals_the_whole_document(capsys, monkeypatch):
    monkeypatch.setattr(decode, "BLOCK", 2)
    assert main(["decode", "--json", *VALUES]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert out == json.dumps(doc, indent=2) + "\n"
    assert [v["input"]["text"] for v in doc["values"]] == VALUES
    monkeypatch.setattr(decode, "BLOCK", 1024)
    assert main(["decode", "--json", *VALUES]) == 0
    assert capsys.readouterr().out == out


def test_text_streamed_in_blocks_equals_one_block(capsys, monkeypatch):
    assert main(["decode", *VALUES]) == 0
    whole = capsys.readouterr().out
    monkeypatch.setattr(decode, "BLOCK", 3)
    assert main(["decode", *VALUES]) == 0
    assert capsys.readouterr().out == whole and whole.count("\n\n") == len(VALUES) - 1


def test_the_first_block_is_out_before_the_next_is_described(monkeypatch, capsys):
    monkeypatch.setattr(decode, "BLOCK", 4)
    real = decode._records
    printed = []

    def records(values, variant):
        printed.append(len(capsys.readouterr().out))
        return real(values, variant)

    monkeypatch.setattr(decode, "_records", records)
    assert main(["decode", "$1 = {0x3f800000 <repeats 12 times>}"]) == 0
    assert printed[0] == 0 and all(n > 0 for n in printed[1:]) and len(printed) == 3
