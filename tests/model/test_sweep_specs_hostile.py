"""Domain specs: every bad count or range is a ValueError naming it, never a silent default
or a sweep that runs for days."""

from __future__ import annotations

import pytest

from fpinspector.model.sweep import Axis, GridDomain, parse_axis, parse_domain
from fpinspector.model.sweep.domain import MAX_ELEMENTS


@pytest.mark.parametrize("spec, msg", [
    ("lin:0:1:99999999999999", "at most 2\\^36"),
    ("lin:0:1:0", "at least 1"),
    ("log:1:2:-5", "at least 1"),
    ("lin:0:1:1.5", "whole number"),
    ("lin:0:1:1e3", "whole number"),
    ("bits:0:0xFFFF:0", "at least 1"),
    ("bits:0:0x10:18", "holds only 17"),
    ("bits:0:1.5", "not a whole number"),
    ("lin:0:1e999", "finite"),
    ("lin:0x1p99999:1", "not a number"),
    ("lin:nan:1", "finite"),
    ("log:0:1", "nonzero"),
    ("all:5", "no arguments"),
    ("sometimes", "kind must be"),
    ("lin:0", "KIND:START:STOP"),
])
def test_bad_axis_specs_are_refused(spec, msg):
    with pytest.raises(ValueError, match=msg):
        parse_axis(spec, "f32")


def test_counts_are_taken_as_given():
    """An explicit N is kept (``lin:0:1:0`` is not the default 1024 samples in disguise)."""
    assert parse_axis("lin:0:1:1", "f32").n == 1
    assert parse_axis("lin:0:1", "f32").n == 1024
    assert parse_axis("bits:0:0xFF:0x10", "f16").n == 16


def test_huge_domains_are_refused_up_front():
    with pytest.raises(ValueError, match="at most 2\\^36"):
        parse_axis("bits:0:0xFFFFFFFFFFFFFFFF", "f64")
    assert parse_axis("bits:0:0xFFFFFFFFFFFFFFFF:1000", "f64").n == 1000
    big = Axis.bit_range("f32", 0, (1 << 20) - 1)
    with pytest.raises(ValueError, match="grid is"):
        GridDomain(big, big)
    with pytest.raises(ValueError, match="whole number of samples"):
        Axis(big.fmt, "linear", 0.0, 1.0, 2.5)
    assert MAX_ELEMENTS == 1 << 36
    assert parse_domain("all", "f32", 1).size == 1 << 32  # the exhaustive f32 sweep stays
