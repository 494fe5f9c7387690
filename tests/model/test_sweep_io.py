"""Sweep files: .npz round trips, atomic writes, incomplete sweeps flagged; CSV."""

import csv
import json
import os
import threading

import numpy as np
import pytest

from fpinspector.model.sweep import (
    Axis,
    GridDomain,
    UnaryDomain,
    load_npz,
    run_sweep,
    save_npz,
    write_csv_elements,
    write_csv_summary,
)


def stage(ops):
    """model = numpy float16 sqrt of |a|; exact = float64 sqrt (F16-PREC reference)."""
    a = ops[0].view(np.float16)
    with np.errstate(all="ignore"):
        m = np.sqrt(a).view(np.uint16)
        e = np.sqrt(a.astype(np.float64))
    return {"model": m, "exact": e, "err_model": np.zeros(len(m)), "ok_model": m != 0x3C00,
            "fired": {"F32-SQRTNEG": np.signbit(a) & (a != 0)}}


def test_npz_round_trip_keeps_everything(tmp_path):
    dom = UnaryDomain(Axis.every("f16"))
    res = run_sweep(dom, stage, result_format="f16", chunk_size=5000,
                    meta={"op": "sqrt", "format": "f16", "rules": "d3d11"})
    path = save_npz(tmp_path / "s.npz", res)
    back = load_npz(path)
    assert back.complete and back.n_done == 65536 and back.meta["op"] == "sqrt"
    for k, v in res.columns.items():
        assert np.array_equal(back.columns[k], v, equal_nan=True), k
    assert np.array_equal(back.fired["F32-SQRTNEG"], res.fired["F32-SQRTNEG"])
    assert back.summary.to_dict() == json.loads(json.dumps(res.summary.to_dict()))
    assert back.domain.axis == dom.axis
    assert [p.name for p in tmp_path.iterdir()] == ["s.npz"]  # no temp file left


def test_grid_round_trip_rebuilds_the_grid(tmp_path):
    g = GridDomain(Axis.log("f32", 1e-3, 1e3, 16), Axis.bit_range("f32", 0, 0x00FFFFFF, 8))
    res = run_sweep(g, lambda ops: {"model": ops[0] ^ ops[1]}, result_format="f32")
    back = load_npz(save_npz(tmp_path / "g.npz", res))
    assert back.domain.shape == (16, 8)
    assert np.array_equal(back.grid("model"), res.grid("model"))
    for x, y in zip(back.domain.operands(0, 128), g.operands(0, 128)):
        assert np.array_equal(x, y)


def test_cancelled_sweep_never_claims_to_be_complete(tmp_path):
    dom = UnaryDomain(Axis.every("f16"))
    ev = threading.Event()
    res = run_sweep(dom, stage, result_format="f16", chunk_size=4096,
                    progress=lambda d, t: ev.set(), cancel=ev)
    path = save_npz(tmp_path / "c.npz", res)
    with pytest.raises(ValueError, match="incomplete"):
        load_npz(path)
    back = load_npz(path, require_complete=False)
    assert not back.complete and back.n_done == res.n_done < 65536


def test_overwrite_is_atomic_old_file_survives_a_failed_write(tmp_path):
    dom = UnaryDomain(Axis.bit_range("f16", 0, 99))
    res = run_sweep(dom, stage, result_format="f16")
    path = save_npz(tmp_path / "a.npz", res)
    before = path.read_bytes()
    res.meta["op"] = {1, 2}  # not JSON: the write fails before touching the target
    with pytest.raises(TypeError):
        save_npz(path, res)
    assert path.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["a.npz"]


def test_load_rejects_non_sweep_files(tmp_path):
    p = tmp_path / "x.npz"
    np.savez(p, a=np.arange(3))
    with pytest.raises(ValueError, match="not an fpinspector sweep"):
        load_npz(p)
    (tmp_path / "junk.npz").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="cannot read"):
        load_npz(tmp_path / "junk.npz")


def test_csv_summary_and_elements_are_readable(tmp_path):
    dom = UnaryDomain(Axis.bit_range("f16", 0x3C00, 0x3C00 + 49))
    res = run_sweep(dom, stage, result_format="f16", meta={"op": "sqrt"})
    rows = list(csv.reader(open(write_csv_summary(tmp_path / "s.csv", res))))
    assert rows[0] == ["section", "key", "value"]
    hist = [int(r[2]) for r in rows if r[0] == "histogram:err_model"]
    assert sum(hist) == 50
    bad = int(np.sum(res.columns["model"] == 0x3C00))  # the stage marks results of 1.0 bad
    assert bad >= 1 and ["nonconformant", "count", str(bad)] in rows
    el = list(csv.DictReader(open(write_csv_elements(tmp_path / "e.csv", res))))
    assert len(el) == 50 and el[0]["op0"] == "0x3C00" and el[0]["model"] == "0x3C00"


def test_saved_files_get_ordinary_permissions(tmp_path):
    """Atomic writes must not leave mkstemp's private 0600 mode on a user's file."""
    import os
    import stat

    from fpinspector.model.state import atomic_write

    mask = os.umask(0o022)
    try:
        p = atomic_write(tmp_path / "x.csv", lambda fh: fh.write("a,b\n"))
    finally:
        os.umask(mask)
    assert stat.S_IMODE(p.stat().st_mode) == 0o644
    assert p.read_text() == "a,b\n" and not list(tmp_path.glob(".x.csv.*"))
