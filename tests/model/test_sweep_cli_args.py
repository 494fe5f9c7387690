"""Every `fpinspector sweep` argument is checked before any work: a bad one is a usage error
(exit 2) naming it; nothing runs for days, and nothing is computed only to fail at saving."""

from __future__ import annotations

import time

import pytest

from fpinspector.cli import main
from fpinspector.commands._args import MAX_WORKERS, count, seconds, workers


@pytest.mark.parametrize("argv, msg", [
    (["--top", "-1"], "argument --top"),
    (["--first", "-1"], "argument --first"),
    (["--top", "10000001"], "argument --top"),
    (["--workers", "0"], "argument --workers"),
    (["--workers", str(MAX_WORKERS + 1)], "argument --workers"),
    (["--workers", "two"], "argument --workers"),
    (["--chunk", "0"], "argument --chunk"),
    (["--chunk", str(1 << 40)], "argument --chunk"),
    (["--checkpoint", "0"], "argument --checkpoint"),
    (["--checkpoint", "nan"], "argument --checkpoint"),
])
def test_bad_numbers_are_usage_errors(argv, msg, capsys):
    with pytest.raises(SystemExit) as info:
        main(["sweep", "sqrt", *argv])
    assert info.value.code == 2 and msg in capsys.readouterr().err


@pytest.mark.parametrize("argv, msg", [
    (["-d", "lin:0:1:99999999999999"], "at most 2^36"),
    (["-d", "lin:0:1:0"], "at least 1"),
    (["-d", "bits:0:3", "--domain-b", "all"], "--domain-b is for two-operand"),
    (["-d", "bits:0:3", "--resume"], "give --out"),
    (["-d", "bits:0:3", "--summary-only", "--elements-csv", "e.csv"], "drop --summary-only"),
    (["-d", "all", "--elements-csv", "e.csv"], "too many to keep"),
])
def test_bad_combinations_are_refused_before_the_work(argv, msg, capsys):
    t = time.perf_counter()
    assert main(["sweep", "sqrt", *argv]) == 2
    assert msg in capsys.readouterr().err and time.perf_counter() - t < 2


def test_an_unwritable_output_fails_before_the_sweep(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    t = time.perf_counter()
    assert main(["sweep", "sqrt", "-d", "all", "--out", str(blocker / "s.npz")]) == 2
    assert "cannot write --out" in capsys.readouterr().err and time.perf_counter() - t < 2
    assert main(["sweep", "sqrt", "-d", "all", "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_the_argument_types():
    import argparse

    assert count(0, 5)("0x5") == 5 and workers("3") == 3 and seconds(0, 10)("0.25") == 0.25
    for bad in ("-1", "6", "1.5", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            count(0, 5)(bad)
    for bad in ("0", "inf", "11", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            seconds(0, 10)(bad)


def test_the_default_chunk_is_smaller_where_the_gpu_takes_spans(tmp_path, capsys):
    """2^16 where the workers hand the GPU spans of 2^19 elements (--gpu, --summary-only,
    worker processes from 2^24 elements: the workers stay under the README's memory
    figure), 2^17 elsewhere; --chunk always wins. Read back from the saved sweep."""
    from fpinspector.model.sweep import load_npz

    small, big = "bits:0x3F800000:0x3F80000F", "bits:0x3F000000:0x3FFFFFFF"  # 16, 2^24
    cases = ((small, [], 1 << 17), (big, ["--summary-only"], 1 << 17),
             (small, ["--gpu"], 1 << 17), (big, ["--gpu", "--summary-only"], 1 << 16),
             (big, ["--gpu", "--summary-only", "--workers", "1"], 1 << 17),
             (small, ["--gpu", "--chunk", "512"], 512))
    for i, (dom, argv, want) in enumerate(cases):
        out = tmp_path / f"s{i}.npz"
        rc = main(["sweep", "sqrt", "-d", dom, "--quiet", "--out", str(out), *argv])
        if rc != 0 and "--gpu" in argv and "GPU" in capsys.readouterr().err:
            pytest.skip("no GPU here")
        assert rc == 0 and load_npz(out).meta["chunk_size"] == want, (dom, argv)
