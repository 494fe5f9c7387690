"""Saved GPU reports: `gpu-report --json --out`, reading them back, and one clear line for a
file that is not a current fpinspector GPU report (another tool's, an older schema, damage)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from fpinspector.cli import main
from fpinspector.gpu.report import build_report
from fpinspector.gpu.report_data import SCHEMA, VERSION
from fpinspector.gpu.report_io import (
    ReportFileError,
    example_reports,
    load_report,
    report_from_dict,
    save_report,
)


def _example() -> dict:
    return json.loads(example_reports()["softpipe"].read_text(encoding="utf-8"))


@pytest.mark.parametrize("mutate, message", [
    (lambda d: [1, 2], "a JSON list, not an object"),
    (lambda d: {"hello": "world"}, "no 'schema' key"),
    (lambda d: {k: v for k, v in d.items() if k not in ("schema", "version")},
     "from an older fpinspector"),
    (lambda d: {**d, "schema": "someone.else"}, "schema 'someone.else'"),
    (lambda d: {**d, "version": 1}, "version 1 is older"),
    (lambda d: {**d, "version": VERSION + 1}, f"version {VERSION + 1} is newer"),
    (lambda d: {**d, "version": "2"}, "without a valid version"),
    (lambda d: {k: v for k, v in d.items() if k != "probes"}, "missing its 'probes'"),
    (lambda d: {**d, "probes": [{"id": "x"}]}, "damaged GPU report"),
])
def test_foreign_old_or_damaged_reports_are_named(tmp_path, mutate, message):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(mutate(_example())), encoding="utf-8")
    with pytest.raises(ReportFileError, match=message) as info:
        load_report(path)
    assert str(info.value).startswith(str(path)) and "\n" not in str(info.value)


def test_unreadable_files(tmp_path):
    with pytest.raises(ReportFileError, match="cannot read it"):
        load_report(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(ReportFileError, match="not a JSON file"):
        load_report(tmp_path / "bin.json")


def test_round_trip_keeps_everything(tmp_path):
    data = _example()
    rep = report_from_dict(data)
    again = json.loads(save_report(tmp_path / "x.json", rep).read_text(encoding="utf-8"))
    assert again == data and again["schema"] == SCHEMA


@pytest.mark.gpu
def test_gpu_report_out_saves_a_loadable_report(gpu, tmp_path, capsys):
    out = tmp_path / "mine.json"
    assert main(["gpu-report", "--json", "--out", str(out), "--samples", "256"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"wrote {out}") and "\n" not in line
    rep = load_report(out)
    assert rep.info["renderer"] == gpu.info["renderer"]
    assert rep.header["settings"] == {"samples": 256, "seed": 2024, "paths": gpu.info["paths"]}
    assert rep.header["created"].endswith("+00:00") and rep.header["rules"]["digest"]
    assert set(rep.fidelity) == set(gpu.info["paths"]) | {"render"}


@pytest.mark.gpu
def test_build_report_matches_what_was_saved(gpu, tmp_path):
    rep = build_report(gpu, samples=128)
    again = load_report(save_report(tmp_path / "r.json", rep))
    assert [p.observed for p in again.probes] == [p.observed for p in rep.probes]
    assert [u.counts for u in again.ulp] == [u.counts for u in rep.ulp]


def test_cli_bad_report_file_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "other.json"
    bad.write_text('{"tool": "renderdoc"}', encoding="utf-8")
    good = str(example_reports()["llvmpipe"])
    assert main(["gpu-compare", good, str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"fpinspector gpu-compare: error: {bad}: not an fpinspector GPU report " \
                  "(no 'schema' key)"
    assert main(["gpu-compare", good]) == 2
    assert "at least two reports" in capsys.readouterr().err
    assert main(["gpu-compare", good, "example:nvidia"]) == 2
    assert "no such example report" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_file_ends_at_once_with_a_clear_message(capsys):
    """Bounded read: /dev/zero has st_size 0; read by its size it would run until the OOM killer."""
    t0 = time.perf_counter()
    assert main(["gpu-compare", "/dev/zero", "example:llvmpipe"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("fpinspector gpu-compare: error: /dev/zero: more than ") and \
        "\n" not in err
    assert time.perf_counter() - t0 < 10


def _nested(d: dict, path: tuple) -> tuple[dict, str]:
    for k in path[:-1]:
        d = d[k]
    return d, path[-1]


@pytest.mark.parametrize("path, value, message", [
    (("probes", 0, "verdict", "d3d11"), "yes", r"probes\[0\].verdict.d3d11: expected true"),
    (("probes", 0, "observed"), "0xZZ", r"probes\[0\].observed: expected a 0x hex pattern"),
    (("probes", 3, "inputs"), "0x1", r"probes\[3\].inputs: expected a list"),
    (("ulp", 0, "counts"), [1, 2], r"ulp\[0\]: 9 bin edges for 2 counts"),
    (("ulp", 0, "counts", 0), 10**9, r"ulp\[0\].counts\[0\]: expected an integer"),
    (("ulp", 0, "bins", 3), 0.1, r"ulp\[0\].bins: edges must increase"),
    (("ulp", 1, "allowed_fraction", "d3d11"), 1.5, "a fraction 0..1"),
    (("ulp", 1, "verdict"), {"d3d11": True}, "verdicts for .'d3d11'. but allowed fractions"),
    (("ulp", 1, "max_ulp"), "big", r"ulp\[1\].max_ulp: expected a number"),
    (("info", "paths"), "fragment", "info.paths: expected a list"),
    (("info", "fp64"), None, "info.fp64: expected true or false"),
    (("fidelity", "render", "raw_bits"), 1, "fidelity.render.raw_bits: expected true or false"),
    (("fidelity", "render", "path"), "compute", "fidelity.render.path"),
    (("deviations", 0, "id"), 7, r"deviations\[0\].id: expected text"),
    (("unsupported", 0), {"op": "add"}, r"unsupported\[0\]: missing 'format'"),
    (("settings", "seed"), -1, "settings.seed: expected an integer"),
    (("half_float",), "x" * 10_000_000, "half_float: 10,000,000 characters"),
    (("probes", 0, "question"), ["x" * 10_000_000], "probes.0..question: expected text"),
])
def test_every_field_is_checked_before_use(tmp_path, path, value, message):
    """Whole-schema validation: one ReportFileError naming the field, bounded, one line."""
    data = _example()
    d, k = _nested(data, path)
    d[k] = value
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReportFileError, match=message) as info:
        load_report(bad)
    text = str(info.value)
    assert text.startswith(f"{bad}: damaged GPU report: ") and "\n" not in text
    assert len(text) < 300 + len(str(bad))


def test_a_huge_integer_names_the_file(tmp_path):
    bad = tmp_path / "big.json"
    bad.write_text(json.dumps(_example())[:-1] + ', "x": ' + "9" * 5000 + "}", encoding="utf-8")
    with pytest.raises(ReportFileError, match=f"^{bad}: not a readable JSON file"):
        load_report(bad)


OLD_V2 = Path(__file__).resolve().parents[1] / "data" / "gpu_reports" / "lavapipe-schema-v2.json"


def test_a_schema_version_2_report_still_loads_with_f16_not_measured():
    """A report saved before f16 fidelity (schema version 2, the lavapipe example as shipped
    at 89c063f) loads; its f16 raw move reads as not measured, in the CLI text, in
    gpu-compare and after a save (version 3 with the key still absent)."""
    from fpinspector.commands.gpu_report import _text
    from fpinspector.gpu.compare import compare_reports

    assert json.loads(OLD_V2.read_text(encoding="utf-8"))["version"] == 2 < VERSION
    old = load_report(OLD_V2)
    assert old.info["driver"] == "lavapipe" and "f16_classes" not in old.fidelity["compute"]
    text = _text(old)
    assert "compute  raw bits" in text and "f16 not measured" in text
    new = load_report(example_reports()["lavapipe"])
    assert new.fidelity["compute"]["f16_classes"]  # measured since version 3
    rows = {(r.path, r.key): r for r in compare_reports([new, old]).rows}
    f16 = rows[("compute", "raw-move-f16")]
    assert f16.rule == "F16-DENORM" and f16.cells[1] is None
    assert f16.status == "not measured by all" and f16.cells[0].observed == "raw bits"
    assert ("render", "raw-move-f16") not in rows  # no f16 route on the render target
    saved = json.loads(json.dumps(old.to_dict()))
    assert saved["version"] == VERSION
    assert "f16_classes" not in report_from_dict(saved).fidelity["compute"]


@pytest.mark.parametrize("version", [2, VERSION])
def test_f16_classes_are_checked_like_the_others(tmp_path, version):
    data = json.loads(example_reports()["lavapipe"].read_text(encoding="utf-8"))
    data["version"] = version
    data["fidelity"]["compute"]["f16_classes"]["denormal"] = "yes"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReportFileError, match=r"fidelity.compute.f16_classes.denormal: expected"):
        load_report(bad)
