"""Sweep files against damage and hostility: only ValueError escapes load_npz, nothing huge is
allocated, and saving never materialises a domain (a 2^32-pattern axis is saved as its spec)."""

from __future__ import annotations

import json
import threading
import tracemalloc
import zipfile

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, UnaryDomain, load_npz, run_sweep, save_npz


def stage(ops):
    """model = the operand itself; err = 0 (F16-PREC reference: identity is exact)."""
    a = ops[0]
    return {"model": a, "err_model": np.zeros(len(a)), "ok_model": np.ones(len(a), bool)}


def _good(tmp_path, n=64, name="g.npz"):
    res = run_sweep(UnaryDomain(Axis.bit_range("f16", 0, n - 1)), stage, result_format="f16",
                    meta={"op": "mov", "format": "f16", "rules": "d3d11"})
    return save_npz(tmp_path / name, res), res


def _rewrite(src, dst, meta=None, summary=None, arrays=None, drop=()):
    """Copy a sweep file with some members replaced (metadata edited as JSON)."""
    with np.load(src) as z:
        members = {k: z[k] for k in z.files if k not in drop}
    m = json.loads(str(members["meta"]))
    if meta is not None:
        m.update(meta) if isinstance(meta, dict) else None
        members["meta"] = np.array(json.dumps(m if isinstance(meta, dict) else meta))
    if summary is not None:
        members["summary"] = np.array(json.dumps(summary))
    members.update(arrays or {})
    np.savez(dst, **members)
    return dst


def test_saving_an_all_f32_sweep_never_builds_its_axis(tmp_path, monkeypatch):
    """The README's exhaustive example died in save_npz allocating 2^32 patterns: the axis
    is saved as its definition, and saving costs what the sweep kept."""
    ev = threading.Event()
    dom = UnaryDomain(Axis.every("f32"))
    res = run_sweep(dom, stage, result_format="f32", chunk_size=1 << 12, keep_elements=False,
                    progress=lambda d, t: ev.set(), cancel=ev)
    real = Axis.patterns

    def guarded(self, i0=0, i1=None):
        n = (self.n if i1 is None else i1) - i0
        assert n <= 1 << 20, f"materialised {n} patterns"
        return real(self, i0, i1)

    monkeypatch.setattr(Axis, "patterns", guarded)
    tracemalloc.start()
    try:
        path = save_npz(tmp_path / "s.npz", res)
        back = load_npz(path, require_complete=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak
    assert back.domain.axis == dom.axis and back.n_done == res.n_done and not back.complete
    assert back.summary.to_dict() == json.loads(json.dumps(res.summary.to_dict()))


def test_a_cancelled_kept_sweep_saves_what_was_done_and_reloads_full_size(tmp_path):
    ev = threading.Event()
    dom = UnaryDomain(Axis.every("f16"))
    res = run_sweep(dom, stage, result_format="f16", chunk_size=1024,
                    progress=lambda d, t: ev.set(), cancel=ev)
    path = save_npz(tmp_path / "c.npz", res)
    with zipfile.ZipFile(path) as zf:
        assert zf.getinfo("col__model.npy").file_size < 4 * 1024 + 200  # n_done, not 65536
    back = load_npz(path, require_complete=False)
    assert back.columns["model"].shape == (65536,)
    assert np.array_equal(back.columns["model"], res.columns["model"])


@pytest.mark.parametrize("edit, msg", [
    ({"complete": "false"}, "'complete' must be true or false"),
    ({"complete": 1}, "'complete' must be true or false"),
    ({"version": True}, "unsupported file version"),
    ({"n_done": 65}, "n_done"),
    ({"n_done": 63}, "marked complete after 63"),
    ({"n_done": -1}, "n_done"),
    ({"axes": "x"}, "no axes"),
    ({"axes": [{"format": "f16", "kind": "bits", "start": 0, "stop": 63, "n": 64}] * 3},
     "3 axes"),
    ({"axes": [{"format": "f16", "kind": "bits", "start": 0, "stop": 63}]}, "needs format"),
    ({"axes": [{"format": "f99", "kind": "bits", "start": 0, "stop": 63, "n": 64}]},
     "unknown operand format"),
    ({"axes": [{"format": "f16", "kind": "bits", "start": 0.5, "stop": 63, "n": 64}]},
     "whole-number ends"),
    ({"axes": [{"format": "f16", "kind": "bits", "start": 0, "stop": 63, "n": "64"}]},
     "whole number of samples"),
    ({"shape": [65]}, "does not match the axes"),
    ({"op": ["mul"]}, "'op' must be text"),
    ({"fixed": {"c": 1}}, "'fixed' must map"),
    ({"timings": {"total": "fast"}}, "'timings'"),
    ({"top_k": -1}, "top_k"),
    ([1, 2], "metadata is not an object"),
])
def test_malformed_metadata_is_refused_with_a_reason(tmp_path, edit, msg):
    src, _ = _good(tmp_path)
    bad = _rewrite(src, tmp_path / "bad.npz", meta=edit)
    with pytest.raises(ValueError, match=msg):
        load_npz(bad, require_complete=False)


def test_malformed_summaries_are_refused(tmp_path):
    src, res = _good(tmp_path)
    good = res.summary.to_dict()
    cases = [
        ({**good, "total": "64"}, "summary.total"),
        ({**good, "total": 63}, "63"),
        ({**good, "histograms": {"err_model": [1, 2]}}, "bins"),
        ({**good, "worst": {"err_model": [{"index": 0}]}}, "field"),
        ({**good, "worst": {"err_model": [{"index": 1.5, "key": 0}]}}, "integer"),
        ({**good, "operand_classes": [{"zero": 1}]}, "classes"),
        ({**good, "fired": {"X": 10**6}}, "exceeds"),
        ({**good, "first_nonconformant": "all"}, "expected a list"),
        ([], "expected an object"),
    ]
    for summary, msg in cases:
        bad = _rewrite(src, tmp_path / "bad.npz", summary=summary)
        with pytest.raises(ValueError, match=msg):
            load_npz(bad)


def test_arrays_must_match_the_declared_shape(tmp_path):
    src, _ = _good(tmp_path)
    for arrays, msg in [({"col__model": np.zeros(65, np.uint16)}, "shape"),
                        ({"col__model": np.zeros((8, 8), np.uint16)}, "shape"),
                        ({"fired__X": np.zeros(64, np.uint8)}, "dtype"),
                        ({"col__model": np.array(["a"] * 64)}, "dtype"),
                        ({"col__": np.zeros(64)}, "no name")]:
        bad = _rewrite(src, tmp_path / "bad.npz", arrays=arrays)
        with pytest.raises(ValueError, match=msg):
            load_npz(bad)


def test_a_small_file_cannot_expand_past_the_cap(tmp_path):
    """A zip bomb: columns declared for a 2^28-element domain (2 GiB once loaded, over the
    1 GiB cap) in a file of a few hundred KB: refused from the headers, nothing allocated."""
    src, _ = _good(tmp_path)
    n = 1 << 28
    meta = {"axes": [{"format": "f32", "kind": "bits", "start": 0, "stop": n - 1, "n": n}],
            "shape": [n], "n_done": n}
    summary = {"format": "f32", "result_format": "f32", "total": n, "histograms": {},
               "worst": {}, "operand_classes": [], "result_classes": {}, "fired": {},
               "conformant": {}, "first_nonconformant": []}
    with np.load(src) as z:
        m = {**json.loads(str(z["meta"])), **meta}
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, arr in (("meta", np.array(json.dumps(m))),
                          ("summary", np.array(json.dumps(summary)))):
            with zf.open(name + ".npy", "w") as fh:
                np.lib.format.write_array(fh, arr)
        for col in ("model", "err_model"):
            with zf.open(f"col__{col}.npy", "w", force_zip64=True) as fh:
                np.lib.format.write_array_header_1_0(
                    fh, {"descr": "<f8", "fortran_order": False, "shape": (n,)})
                fh.write(bytes(64 << 20))  # (the rest never gets read)
    assert bomb.stat().st_size < 1 << 20
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="limit"):
            load_npz(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20


def test_damaged_files_give_value_errors(tmp_path):
    src, _ = _good(tmp_path)
    data = src.read_bytes()
    cases = {
        "truncated": data[: len(data) // 2],
        "empty": b"",
        "text": b"hello",
    }
    # flip one byte inside the stored column data: the zip CRC check fails on reading
    i = data.index(b"col__model.npy") + 200
    cases["crc"] = data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1:]
    for name, blob in cases.items():
        p = tmp_path / f"{name}.npz"
        p.write_bytes(blob)
        with pytest.raises(ValueError):
            load_npz(p)
    deep = _rewrite(src, tmp_path / "deep.npz", meta="[" * 100000 + "]" * 100000)
    with pytest.raises(ValueError, match="nested too deeply|not an object"):
        load_npz(deep)
    plain = tmp_path / "plain.npz"
    np.savez(plain, meta=np.arange(3), summary=np.arange(3))
    with pytest.raises(ValueError, match="not a text field"):
        load_npz(plain)


def test_old_files_with_whole_domain_columns_still_load(tmp_path):
    """Files written before columns were cut at n_done (and with axis arrays) still load."""
    src, res = _good(tmp_path)
    old = _rewrite(src, tmp_path / "old.npz", arrays={"axis0": res.domain.axis.patterns()})
    back = load_npz(old)
    assert np.array_equal(back.columns["model"], res.columns["model"])


def test_broken_npy_headers_and_encrypted_members_give_value_errors(tmp_path):
    """Found by the long fuzz run: numpy tokenizes .npy headers (TokenError on an unclosed
    bracket) and zipfile refuses encrypted members with RuntimeError."""
    src, _ = _good(tmp_path)
    data = src.read_bytes()
    i = data.index(b"'shape': ()")
    unclosed = data[:i] + b"'shape': ((" + data[i + len(b"'shape': ()"):]
    p = tmp_path / "unclosed.npz"
    p.write_bytes(unclosed)
    with pytest.raises(ValueError, match="cannot read sweep file"):
        load_npz(p)
    enc = bytearray(data)  # set the "encrypted" flag of every member
    for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        j = enc.find(sig)
        while j >= 0:
            enc[j + off] |= 1
            j = enc.find(sig, j + 4)
    p.write_bytes(bytes(enc))
    with pytest.raises(ValueError, match="encrypted"):
        load_npz(p)
