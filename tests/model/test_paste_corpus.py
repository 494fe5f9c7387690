"""Real debugger output, pasted: 0 silent misreads (issue 33).

The corpus (``tests/data/paste_corpus/<tool>/<case>.json``) holds the exact text gdb,
lldb and RenderDoc print for values whose bits are known: the gdb/lldb cases are captured
by ``scripts/capture_debuggers/capture.py`` from a C program (probe.c) that sets every
value from its bit pattern, so the expected bits are the program's, not this parser's.

Each text goes through the paste's own entry point (:func:`paste.readings`, as Ctrl+V in
the app) with the inspector at its default f32, or at the case's ``format_arg`` (RenderDoc's
half/double buffer columns: the text does not say the width). A case passes when

- the first reading is the expected bits (format and count included), or
- the text cannot decide (``other_readings``: e.g. ``1.5`` is an f32 and an f64) and the
  first reading is one of those, with the expected one on offer, or
- the text holds no float (``refused``) and the paste is refused with a message;
- a NaN whose payload the text does not hold (``nan_payload_lost``: Visual Studio's
  ``1.#QNAN``) is read as a NaN of its sign and the label says the payload is lost;
- the text cannot tell and no other reading can be written down (``offered_only``: a
  RenderDoc row of uint cells is typed numbers too): the expected one is offered and the
  first reading's label names RenderDoc's;
- RenderDoc's int/uint cells (``integer_codes``) are offered as a reading of integer codes
  (and where they are all the text holds, ``codes``, they are the first reading).

Anything else that produces values is a silent misread; a refusal of text that holds
floats is counted and printed (not silent: the user is told); the misreads must be 0.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from fpinspector.model.formats import FORMATS
from fpinspector.model.state.paste import Reading, readings

CORPUS = Path(__file__).resolve().parent.parent / "data" / "paste_corpus"
CASES = sorted(CORPUS.glob("*/*.json"))


def _items(exp: dict) -> tuple[tuple[str, int], ...]:
    fmts = exp.get("formats") or [exp["format"]] * len(exp["bits"])
    return tuple((f, int(b, 16) if isinstance(b, str) else int(b))
                 for f, b in zip(fmts, exp["bits"]))


def judge(case: dict) -> tuple[str, str]:
    """('read' | 'ambiguous' | 'refused' | 'refused-floats' | 'misread', detail)."""
    exp = case["expect"]
    try:
        found: list[Reading] = readings(case["text"], case.get("format_arg") or "f32")
    except ValueError as exc:
        return ("refused" if exp.get("refused") else "refused-floats"), str(exc)
    first = found[0].items
    if exp.get("refused"):
        return "misread", f"holds no float ({exp['why']}) but read as {found[0].label}"
    want = _items(exp)
    codes = tuple((k, b) for k, b in exp.get("integer_codes", []))
    if codes and codes not in [r.items for r in found]:  # (RenderDoc's int/uint cells)
        return "misread", f"its integer cells are not offered as codes: {codes}"
    if first == want:
        return "read", found[0].label
    if exp.get("nan_payload_lost") and _same_but_payload(first, want) and (
            "payload" in found[0].label):
        return "read", found[0].label  # (Visual Studio's 1.#QNAN: the label says so)
    others = [_items(o) for o in exp.get("other_readings", [])]
    offered = [r.items for r in found]
    if first in others and want in offered:
        return "ambiguous", found[0].label
    if exp.get("offered_only") and want in offered and "RenderDoc" in found[0].label:
        return "ambiguous", found[0].label  # (the text cannot tell; the label says so)
    shown = ", ".join(f"{f}:{b:#x}" for f, b in first[:8])
    return "misread", f"read as {found[0].label}: {shown}"


def _same_but_payload(got: tuple, want: tuple) -> bool:
    """Equal but for NaN payloads: each NaN of ``want`` is a NaN of the same sign."""
    if len(got) != len(want):
        return False
    for (gf, gb), (wf, wb) in zip(got, want):
        f = FORMATS[wf]
        if gf != wf or (gb != wb and not (bool(f.is_nan(gb)) and bool(f.is_nan(wb))
                                          and gb & f.sign_mask == wb & f.sign_mask)):
            return False
    return True


def _load(path: Path) -> dict:
    case = json.loads(path.read_text())
    assert set(case) >= {"tool", "tool_version", "command", "text", "expect"}, path
    return case


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_real_output_is_never_silently_misread(path: Path) -> None:
    """Issue 33 (classes 1-5): the paste reads the bits the program held, offers them
    where the text cannot decide, or refuses with a message."""
    case = _load(path)
    verdict, detail = judge(case)
    assert verdict != "misread", f"{case['command']!r}:\n{case['text']}\n{detail}"
    if verdict.startswith("refused"):  # it names the place, or that nothing was found
        assert "(line " in detail or "no value found" in detail, detail


def test_corpus_summary() -> None:
    """The per-tool tally (printed with -s): at least 150 real outputs, 0 misreads."""
    tally: dict[str, Counter[str]] = {}
    for path in CASES:
        case = _load(path)
        tally.setdefault(case["tool"], Counter())[judge(case)[0]] += 1
    for tool, c in sorted(tally.items()):
        print(f"\npaste corpus {tool}: {sum(c.values())} outputs: "
              + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    assert sum(sum(c.values()) for c in tally.values()) >= 150
    assert all(c["misread"] == 0 for c in tally.values())
