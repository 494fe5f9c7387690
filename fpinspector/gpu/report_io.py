"""Saved GPU reports: write one, read one back with a clear message for anything that is not
a current fpinspector GPU report, and find the example reports shipped with the package."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..model.reading import excerpt, load_json, read_bytes
from ..model.state.atomic import atomic_write
from .report_data import OLDEST_VERSION, SCHEMA, VERSION, GpuReport
from .report_schema import check_report_dict

__all__ = ["ReportFileError", "save_report", "load_report", "report_from_dict",
           "example_reports", "EXAMPLE_PREFIX", "MAX_REPORT_BYTES"]

#: Example reports ship as package data: fpinspector/resources/gpu-report-NAME.json.
EXAMPLES_PACKAGE = "fpinspector"
EXAMPLE_PREFIX = "gpu-report-"
_REQUIRED = {"info": dict, "probes": list, "ulp": list, "fidelity": dict}
#: Largest report file read (a real one is about 100 KB).
MAX_REPORT_BYTES = 16 << 20


class ReportFileError(ValueError):
    """A file that cannot be read as a GPU report; the message names the file and why."""


def save_report(path: str | Path, report: GpuReport) -> Path:
    """Write ``report`` as JSON (UTF-8, sorted for stable diffs of re-measured reports),
    atomically: a full disk or a kill leaves the previous file whole."""
    text = json.dumps(report.to_dict(), indent=1, sort_keys=True) + "\n"
    return Path(atomic_write(path, lambda fh: fh.write(text)))


def report_from_dict(data: Any, source: str = "report") -> GpuReport:
    """Validate a decoded JSON object and rebuild the report (ReportFileError if not one)."""
    if not isinstance(data, dict):
        raise ReportFileError(f"{source}: not an fpinspector GPU report (a JSON "
                              f"{type(data).__name__}, not an object)")
    schema = data.get("schema")
    if schema is None:
        if "info" in data and "probes" in data:
            raise ReportFileError(
                f"{source}: a GPU report from an older fpinspector (no schema/version): "
                "measure it again with `fpinspector gpu-report --json --out FILE`")
        raise ReportFileError(f"{source}: not an fpinspector GPU report (no 'schema' key)")
    if schema != SCHEMA:
        raise ReportFileError(f"{source}: not an fpinspector GPU report (schema "
                              f"{excerpt(schema)}; expected {SCHEMA!r})")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ReportFileError(f"{source}: GPU report without a valid version "
                              f"({excerpt(version)})")
    if version < OLDEST_VERSION:
        raise ReportFileError(
            f"{source}: GPU report version {version} is older than this fpinspector reads "
            f"({OLDEST_VERSION}..{VERSION}): measure it again with `fpinspector gpu-report --json --out FILE`")
    if version > VERSION:
        raise ReportFileError(f"{source}: GPU report version {version} is newer than this "
                              f"fpinspector reads ({VERSION}); update fpinspector")
    for key, kind in _REQUIRED.items():
        if not isinstance(data.get(key), kind):
            raise ReportFileError(f"{source}: GPU report is missing its {key!r} "
                                  f"({kind.__name__}); the file is damaged")
    if "renderer" not in data["info"]:
        raise ReportFileError(f"{source}: GPU report without a renderer; the file is damaged")
    try:
        check_report_dict(data)
    except ValueError as exc:
        raise ReportFileError(f"{source}: damaged GPU report: {exc}") from None
    return GpuReport.from_dict(data)


def load_report(path: str | Path) -> GpuReport:
    """Read a report saved by ``gpu-report --json --out``, its probes' deviations judged
    by this program's rows (:func:`.rejudge.rejudge`).

    Raises
    ------
    ReportFileError
        Not found, unreadable, not JSON, another tool's file, an older or newer schema,
        or damaged: one line naming the file and the problem.
    """
    p = Path(path)
    try:
        data = load_json(read_bytes(p, MAX_REPORT_BYTES, str(p)), str(p), constants=True)
    except ValueError as exc:
        raise ReportFileError(str(exc)) from None
    from .rejudge import rejudge  # (the engine: only once a report is read)

    return rejudge(report_from_dict(data, str(p)))


def example_reports() -> dict[str, Path]:
    """The example reports shipped in the package: {name: path}, e.g. "llvmpipe"."""
    root = resources.files(EXAMPLES_PACKAGE) / "resources"
    if not root.is_dir():
        return {}
    out = {}
    for item in sorted(root.iterdir(), key=lambda t: t.name):
        name = item.name
        if name.startswith(EXAMPLE_PREFIX) and name.endswith(".json"):
            out[name[len(EXAMPLE_PREFIX):-5]] = Path(str(item))
    return out
