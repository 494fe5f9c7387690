"""``gpu-report --json`` has exactly the keys docs/gpu.md documents (both directions)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fpinspector.cli import main

pytestmark = pytest.mark.gpu

DOC = Path(__file__).resolve().parents[2] / "docs" / "gpu.md"


def documented_keys() -> dict[str, set[str]]:
    """Section name -> the backticked keys in the first column of its table."""
    text = DOC.read_text(encoding="utf-8")
    schema = text.split("## `gpu-report --json` schema", 1)[1].split("\n## ", 1)[0]
    out: dict[str, set[str]] = {}
    for block in schema.split("\n### ")[1:]:
        name = block.splitlines()[0].strip()
        out[name] = set(re.findall(r"^\| `([a-z_0-9]+)` \|", block, flags=re.M))
    return out


@pytest.fixture(scope="module")
def report_json(gpu):  # noqa: ARG001 - needs a GL context; skips without one
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["gpu-report", "--json", "--samples", "64", "--path", "fragment"]) == 0
    return json.loads(buf.getvalue())


def test_docs_list_the_schema_sections():
    keys = documented_keys()
    assert set(keys) == {"top level", "info", "fidelity{}", "probes[]", "ulp[]",
                         "deviations[]", "unsupported[]"}
    assert all(keys.values())


def test_json_keys_are_the_documented_keys(report_json):
    """Every documented key is present and no key is undocumented, in every element."""
    doc = documented_keys()
    assert set(report_json) == doc["top level"]
    assert set(report_json["info"]) == doc["info"]
    assert report_json["fidelity"]
    for item in report_json["fidelity"].values():
        assert set(item) == doc["fidelity{}"], item
    for section in ("probes", "ulp", "deviations", "unsupported"):
        items = report_json[section]
        assert items, f"{section} is empty on this GPU"
        for item in items:
            assert set(item) == doc[f"{section}[]"], (section, item)


def test_json_verdicts_and_reasons_are_typed(report_json):
    """verdict objects name both rule sets; unsupported reasons are non-empty text."""
    for p in report_json["probes"]:
        assert set(p["verdict"]) == {"d3d10", "d3d11"}
        assert all(isinstance(v, bool) for v in p["verdict"].values())
    for u in report_json["unsupported"]:
        assert isinstance(u["reason"], str) and u["op"] in u["reason"]
    if not report_json["info"]["half_float_arithmetic"]:
        assert "GL_AMD_gpu_shader_half_float" in report_json["half_float"]
        assert {"op": "add", "format": "f16"}.items() <= next(
            u for u in report_json["unsupported"] if u["op"] == "add"
            and u["format"] == "f16").items()
