"""Driver deviation IDs are documented: docs/rules.md lists every row of
``gpu.deviations.DEVIATIONS`` with the rules it breaks, and docs/gpu.md describes it.

No GL context is needed (the table is data); it lives in the GPU tier because it imports
``fpinspector.gpu``.
"""

from __future__ import annotations

import re
from pathlib import Path

from fpinspector.gpu.deviations import DEVIATIONS
from fpinspector.gpu.report import CONV_PROBES, PROBES, ULP_RULE

DOCS = Path(__file__).resolve().parents[2] / "docs"
RULES_MD = (DOCS / "rules.md").read_text(encoding="utf-8")
GPU_MD = (DOCS / "gpu.md").read_text(encoding="utf-8")
DEFINED = set(re.findall(r"^### ([A-Z0-9-]+)$", RULES_MD, re.M))


def _deviation_rows() -> dict[str, set[str]]:
    part = RULES_MD.split("## Driver deviation IDs", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| ([^|]+) \|$", part, re.M)
    return {name: {r.strip() for r in rules.split(",")} for name, rules in rows}


def test_rule_book_lists_every_deviation_with_the_rules_it_breaks():
    rows = _deviation_rows()
    assert set(rows) == {d.id for d in DEVIATIONS}
    for d in DEVIATIONS:
        assert rows[d.id] == set(d.rules), d.id


def test_gpu_doc_describes_every_deviation():
    missing = [d.id for d in DEVIATIONS if d.id not in GPU_MD]
    assert not missing, missing


def test_rules_named_by_the_gpu_layer_are_defined():
    """Deviation rows, report probes and ULP histograms name only rules of the book."""
    named = {r for d in DEVIATIONS for r in d.rules}
    named |= {p[2] for p in PROBES} | {p[2] for p in CONV_PROBES} | set(ULP_RULE.values())
    assert not sorted(named - DEFINED), sorted(named - DEFINED)
