"""Numeric options are bounded and a bad value is a usage error naming the option (exit 2,
one line, the value quoted at most ~40 characters), before any work or GPU starts; options
of expression sweeps given without --expr are refused, not ignored."""

from __future__ import annotations

import pytest

from fpinspector.cli import main


@pytest.mark.parametrize("argv, message", [
    (["gpu-report", "--samples", "1e12"], "argument --samples: expected a number of samples"),
    (["gpu-report", "--samples", "1000000000000"],
     "argument --samples: a number of samples must be 1..16777216"),
    (["gpu-report", "--samples", "0"], "argument --samples: a number of samples must be 1.."),
    (["gpu-report", "--seed", "-1"], "argument --seed: a seed must be 0..18446744073709551615"),
    (["gpu-compare", "--samples", "-5", "example:llvmpipe"], "argument --samples"),
    (["gpu-devices", "--timeout", "nan"], "argument --timeout: seconds must be more than 0"),
    (["gpu-devices", "--timeout", "inf"], "argument --timeout: seconds must be more than 0"),
    (["gpu-devices", "--timeout", "1e9"], "argument --timeout: seconds must be more than 0"),
    (["gpu-devices", "--timeout", "9" * 100_000], "argument --timeout: expected seconds"),
    (["sweep", "sqrt", "--chunk", "1" * 100_000], "argument --chunk: expected a chunk size"),
])
def test_bad_numbers_name_the_option(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in err and len(err) < 200


@pytest.mark.parametrize("extra, named", [(["--set", "b=2"], "--set"), (["--axes", "a"], "--axes"),
                                          (["--component", "x"], "--component")])
def test_expression_options_without_expr_are_refused(extra, named, capsys):
    assert main(["sweep", "mul", "-d", "bits:0:9", "-q", *extra]) == 2
    err = capsys.readouterr().err
    assert f"{named} only go with --expr" in err


@pytest.mark.parametrize("extra, named", [(["--gpu-path", "compute"], "--gpu-path"),
                                          (["--gpu-process"], "--gpu-process"),
                                          (["--device", "1"], "--device"),
                                          (["--driver", "softpipe"], "--driver")])
def test_gpu_options_without_gpu_are_refused(extra, named, capsys):
    assert main(["sweep", "sqrt", "-d", "bits:0:9", "-q", *extra]) == 2
    assert f"{named} only go with --gpu" in capsys.readouterr().err
