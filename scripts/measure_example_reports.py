"""Measure the example GPU reports shipped in fpinspector/resources/ (llvmpipe, softpipe; lavapipe
through WebGPU's Vulkan).

Each Mesa software driver is opened in its own GPU process (Mesa picks a driver once per
process), measured with the fixed settings below, and saved as
fpinspector/resources/gpu-report-<driver>.json. tests/gpu/test_example_reports.py measures
them again and checks that probes, verdicts, deviations, fidelity and ULP figures match.

    .venv/bin/python scripts/measure_example_reports.py [--check]

``--check`` measures and compares without writing (exit 1 on a difference).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fpinspector.gpu.example_reports import (
    EXAMPLE_DRIVERS,
    EXAMPLE_SAMPLES,
    EXAMPLE_SEED,
    WEBGPU_EXAMPLES,
    differences,
    measure_example,
)
from fpinspector.gpu.report_io import EXAMPLE_PREFIX, load_report, save_report

OUT = Path(__file__).resolve().parents[1] / "fpinspector" / "resources"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = ap.parse_args()
    status = 0
    for driver in EXAMPLE_DRIVERS + tuple(WEBGPU_EXAMPLES):
        rep = measure_example(driver)
        path = OUT / f"{EXAMPLE_PREFIX}{driver}.json"
        if args.check:
            diff = differences(load_report(path), rep)
            print(f"{path.name}: {'matches' if not diff else 'DIFFERS: ' + '; '.join(diff[:5])}")
            status |= bool(diff)
        else:
            save_report(path, rep)
            print(f"wrote {path} ({rep.label}; samples {EXAMPLE_SAMPLES}, seed {EXAMPLE_SEED})")
    return status


if __name__ == "__main__":
    sys.exit(main())
