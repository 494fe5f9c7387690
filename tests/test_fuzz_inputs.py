"""Fuzzing the readers of outside input (parse, state string, workspace file, sweep .npz):
only each one's documented error escapes. A few thousand seeded inputs here; the same
generators run a million in ``benchmarks/fuzz_inputs.py``."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz_inputs.py"
_spec = importlib.util.spec_from_file_location("fuzz_inputs", _PATH)
fuzz_inputs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_inputs)

COUNTS = {"parse": 3000, "state string": 2000, "workspace file": 600, "sweep .npz": 400,
          "gpu report": 300, "expression": 500, "batch file": 1000, "decode stdin": 500,
          "deep JSON": 200, "device/pipe": 40}


@pytest.fixture(scope="module")
def targets():
    return fuzz_inputs.targets(random.Random(20261124))


@pytest.mark.parametrize("name", list(COUNTS))
def test_only_the_documented_error_escapes(targets, name):
    make, check = targets[name]
    crashes, _ = fuzz_inputs.fuzz(make, check, COUNTS[name])
    assert not crashes, f"{len(crashes)} crashes, first: {crashes[0]}"


def test_the_fuzzer_finds_a_reader_that_lets_other_errors_out():
    """The harness itself can fail: a reader leaking KeyError is caught as a crash."""
    def leaky(text):
        if "0x_" in text[0]:
            raise KeyError(0)

    crashes, _ = fuzz_inputs.fuzz(lambda: ("0x_", None, "little"), leaky, 3)
    assert len(crashes) == 3 and crashes[0].startswith("KeyError")
