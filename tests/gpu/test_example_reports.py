"""The example reports shipped in fpinspector/resources/ are real: measured again here (by
the same settings, each driver in its own GPU process), every probe result, verdict,
deviation, fidelity entry and ULP histogram matches (dates and version stamps aside)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from device_checks import strict_device

from fpinspector.gpu.example_reports import (
    EXAMPLE_DRIVERS,
    differences,
    measure_example,
    other_driver_reason,
)
from fpinspector.gpu.report_io import example_reports, load_report

pytestmark = [pytest.mark.gpu, pytest.mark.slow]


def test_examples_ship_as_package_data():
    shipped = example_reports()
    assert set(EXAMPLE_DRIVERS) <= set(shipped)
    for name, path in shipped.items():
        rep = load_report(path)
        assert rep.info["driver"] == name and rep.header["settings"]["samples"] > 0


@pytest.mark.skipif(bool(os.environ.get("FPINSPECTOR_TEST_DRIVER")),
                    reason="re-measured in the main tier (each driver in its own process)")
def test_examples_match_a_new_measurement(gpu):
    if not strict_device(gpu.info["renderer"]):  # the examples need Mesa's software device
        pytest.skip(f"Mesa's llvmpipe and softpipe are not drivers of {gpu.info['renderer']}")
    shipped = example_reports()
    with ThreadPoolExecutor(len(EXAMPLE_DRIVERS)) as pool:
        fresh = dict(zip(EXAMPLE_DRIVERS, pool.map(measure_example, EXAMPLE_DRIVERS)))
    for driver, rep in fresh.items():
        expected = load_report(shipped[driver])
        why = other_driver_reason(expected, rep)
        if why:
            pytest.skip(why)
        diff = differences(expected, rep)
        assert not diff, (f"{driver}: the shipped example no longer matches (re-run "
                          f"scripts/measure_example_reports.py if intended): {diff[:8]}")


def test_differences_sees_a_changed_verdict():
    """The comparison used above is not blind: a flipped verdict and a moved ULP count show."""
    a = load_report(example_reports()["softpipe"])
    b = load_report(example_reports()["softpipe"])
    b.probes[0].verdict = {k: not v for k, v in b.probes[0].verdict.items()}
    b.ulp[0].counts = [b.ulp[0].counts[0] - 1, b.ulp[0].counts[1] + 1] + b.ulp[0].counts[2:]
    diff = differences(a, b)
    assert any("verdict" in d for d in diff) and any("counts" in d for d in diff)
    b.header = {**b.header, "created": "1999-01-01T00:00:00+00:00"}
    assert len(differences(a, b)) == len(diff)  # dates are not compared
