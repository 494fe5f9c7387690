"""The window on real screens (Xvfb at 960x1050, 1280x720, 1366x768, 1920x1080 and
2560x1440): no two visible docks or widgets overlap, the bit editors, both results, the
allowed set and the verdict are fully inside the window and visible without scrolling, rule
IDs and bit numbers are never cut or run together, the minimum size is at most 1024x640,
and opening any tab (the Sweep panel included) never resizes the window.

Then through a sequence of resizes (960x1050, 960x600, 1280x720, the whole screen,
1366x768, back), maximise/restore and a save-restart-restore cycle: the central area stays
at least 420 px wide, no dock tab is elided or behind the tab bar's scroll arrows, nothing
overlaps, a raised map's legend is outside its data and at 1920x1080 its plot is at least
300x200 px; at 1280x720 and 1366x768 no column of Conversions, the Expression steps or the
GPUs report (two reports) is behind horizontal scrolling, and at every size none of All
formats (the 960x1050 dock too). The checks are in ``layout_probe.py``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("layout_probe.py")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (a real X "
                                 "screen of a given size)")]


@pytest.mark.parametrize("screen", ["960x1050", "1280x720", "1366x768", "1920x1080",
                                    "2560x1440"])
def test_nothing_overlaps_or_is_cut(screen: str) -> None:
    from fpinspector.ui.shell.screenshots import private_xvfb

    with private_xvfb(f"{screen}x24"):
        res = subprocess.run([sys.executable, str(PROBE)], cwd=ROOT, env=dict(os.environ),
                             capture_output=True, text=True, timeout=400)
    assert res.returncode == 0, res.stderr[-3000:]
    report = json.loads(res.stdout.strip().splitlines()[-1])
    assert report["screen"] == screen
    w, h = (int(x) for x in screen.split("x"))
    assert report["window"][0] <= w and report["window"][1] <= h
    assert report["problems"] == []
