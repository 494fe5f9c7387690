"""A grid chunk's layout (engine/operand_rows.py, sweep/domain.py's GridOperands) gives the
same results as the flat operands: every step that reads it (the f16 mul kernel's per-row
product and left elements, the summary's operand classes, a whole sweep's summary) is
checked against the flat computation on grids of odd shapes: partial first and last rows,
chunks across several rows, B axes that are sampled or partial, and A rows of zeros,
denormals, INF and NaN (of both signs and several payloads: F16-NANPROP, F16-DENORM).

The flat operands of element k are the domain's definition, ``(A[k // nb], B[k % nb])``,
computed here with divmod; class counts are also checked against numpy's float16
classification (DEC-CLASS)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from fpinspector.model import evaluate
from fpinspector.model.engine.operand_rows import OperandAxis, OperandRows
from fpinspector.model.formats import FORMATS
from fpinspector.model.sweep import Axis, GridDomain, ModelStage, run_sweep
from fpinspector.model.sweep.domain import GridOperands
from fpinspector.model.sweep.hist import class_counts, row_class_counts
from fpinspector.model.sweep.summary import Summary

F16 = FORMATS["f16"]

#: A rows: zeros, denormals, normals, the largest finite, INF, NaNs (quiet and
#: signalling payloads), both signs
A_ROWS = [0x0000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0x7BFF, 0x7C00, 0x7C01, 0x7E00, 0x7FFF,
          0x8000, 0x8001, 0xBC00, 0xFC00, 0xFE01]


def _a_axis() -> Axis:
    """An A axis over a pattern range, every 2048th pattern (zeros to NaNs)."""
    return Axis.bit_range("f16", 0x0000, 0xFFFF, 33)


def _grids() -> list[GridDomain]:
    return [
        GridDomain(_a_axis(), Axis.every("f16")),
        # a sampled B axis of an odd size, and a partial one (a bit range)
        GridDomain(_a_axis(), Axis.bit_range("f16", 0x0000, 0xFFFF, 1237)),
        GridDomain(Axis.bit_range("f16", 0x7BFE, 0x7C03), Axis.bit_range("f16", 0x7BF0, 0x8410)),
        GridDomain(Axis.linear("f16", -70000.0, 70000.0, 29), Axis.log("f16", 1e-7, 6e4, 517)),
    ]


def _flat(dom: GridDomain, k0: int, k1: int) -> tuple[np.ndarray, np.ndarray]:
    """The domain's definition of elements k0..k1-1, by divmod."""
    r, c = np.divmod(np.arange(k0, k1, dtype=np.int64), dom.b.n)
    return dom.a.patterns()[r], dom.b.patterns()[c]


def _chunks(dom: GridDomain) -> list[tuple[int, int]]:
    nb, size = dom.b.n, dom.size
    edges = [(0, nb), (0, 1), (nb - 1, nb + 1), (3, 3 * nb - 2), (nb + 7, 4 * nb + 1),
             (size - nb - 5, size), (size - 1, size), (0, size)]
    return [(max(0, a), min(size, b)) for a, b in edges if 0 <= a < b <= size]


def _equal(x, y) -> bool:
    """Bitwise equality of stage outputs (arrays by their bytes, NaNs included)."""
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(_equal(x[k], y[k]) for k in x)
    if isinstance(x, (list, tuple)):
        return len(x) == len(y) and all(_equal(a, b) for a, b in zip(x, y))
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        a, b = np.asarray(x), np.asarray(y)
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    return x == y


def _numpy_counts(bits: np.ndarray) -> list[int]:
    v = bits.view(np.float16)
    zero, nan, inf = v == 0, np.isnan(v), np.isinf(v)
    den = ~zero & ~nan & ~inf & (np.abs(v) < np.finfo(np.float16).smallest_normal)
    return [int(m.sum()) for m in (zero, den, ~zero & ~nan & ~inf & ~den, inf, nan)]


@pytest.fixture
def every_chunk_has_rows(monkeypatch):
    """Layouts for chunks of any row length (the default gives them to long rows only)."""
    monkeypatch.setattr(GridDomain, "LAYOUT_MIN_ROW", 1)


@pytest.mark.parametrize("g", range(4))
def test_layout_operands_are_the_grid_elements(every_chunk_has_rows, g):
    dom = _grids()[g]
    for k0, k1 in _chunks(dom):
        ops = dom.operands(k0, k1)
        assert isinstance(ops, GridOperands)
        want = _flat(dom, k0, k1)
        for got in (tuple(ops), ops.layout.operands()):
            assert all(np.array_equal(x, w) and x.dtype == w.dtype for x, w in zip(got, want))
        assert ops.layout.n == k1 - k0 and ops.layout.describes(*want)


@pytest.mark.parametrize("g", range(4))
def test_stage_columns_equal_the_flat_ones_F16_NANPROP(every_chunk_has_rows, g):
    """Model bits, exact value, ULP errors, verdicts and fired rules of a chunk with its
    layout are those of the same operands without it (F16-NANPROP: NaN rows, NaN B)."""
    dom = _grids()[g]
    stage = ModelStage("mul", "f16")
    for k0, k1 in _chunks(dom):
        ops = dom.operands(k0, k1)
        flat = _flat(dom, k0, k1)
        assert _equal(dict(stage(ops)), dict(stage(flat))), (g, k0, k1)


def test_kernel_on_every_kind_of_row_F16_DENORM():
    """Rows of zeros, denormals, INF and NaNs (payloads, both signs) times every B, in
    runs that start mid-axis: bits, exact value and fired rules equal the flat ones,
    and finite products equal numpy's float16 product (IEEE, to nearest even)."""
    b = OperandAxis(np.arange(1 << 16, dtype=np.uint16))
    a = np.array(A_ROWS, dtype=np.uint16)
    n_b = 40000
    starts = tuple(range(0, n_b * len(A_ROWS) + 1, n_b))
    cols = tuple((7919 * i) % (65536 - n_b) for i in range(len(A_ROWS)))
    rows = OperandRows(a, starts, cols, b)
    ops = rows.operands()
    with_rows = evaluate("mul", *ops, format="f16", layout=rows)
    flat = evaluate("mul", *ops, format="f16")
    assert np.array_equal(with_rows.bits, flat.bits)
    # the elements the kernel leaves to the finisher (INF or NaN operand): the same ones
    assert np.array_equal(with_rows._rest, flat._rest) and with_rows._rest.size
    assert with_rows.exact.tobytes() == flat.exact.tobytes()
    assert _equal(with_rows.fired, flat.fired)
    assert _equal(with_rows.ulp_error(flat.bits), flat.ulp_error(flat.bits))
    x, y = ops[0].view(np.float16), ops[1].view(np.float16)
    with np.errstate(all="ignore"):
        ref = (x * y).view(np.uint16)
    fin = np.isfinite(x) & np.isfinite(y) & np.isfinite(ref.view(np.float16))
    assert np.array_equal(with_rows.bits[fin], ref[fin])


def test_layout_over_more_than_one_kernel_chunk():
    """An evaluation above the kernel's chunk (2^17) gives each chunk its part of the
    layout: the same results as the flat operands."""
    b = OperandAxis(np.arange(1 << 16, dtype=np.uint16))
    a = np.array([0x3C01, 0x7E00, 0x0203, 0xC000, 0x7C00], dtype=np.uint16)
    starts = (0, 60000, 125536, 191072, 256608, 300000)
    cols = (5536, 0, 0, 0, 0)
    rows = OperandRows(a, starts, cols, b)
    ops = rows.operands()
    got = evaluate("mul", *ops, format="f16", layout=rows)
    want = evaluate("mul", *ops, format="f16")
    assert np.array_equal(got.bits, want.bits)
    assert np.array_equal(got._rest, want._rest)
    assert got.exact.tobytes() == want.exact.tobytes()
    assert _equal(got.fired, want.fired)


@pytest.mark.parametrize("g", range(4))
def test_operand_classes_from_rows_DEC_CLASS(every_chunk_has_rows, g):
    dom = _grids()[g]
    for k0, k1 in _chunks(dom):
        ops = dom.operands(k0, k1)
        got = [c.tolist() for c in row_class_counts(F16, ops.layout)]
        flat = _flat(dom, k0, k1)
        assert got == [class_counts(F16, o).tolist() for o in flat]
        assert got == [_numpy_counts(o) for o in flat]


def test_summary_part_equals_the_flat_one(every_chunk_has_rows):
    dom = _grids()[1]
    stage, summary = ModelStage("mul", "f16"), Summary("f16", "f16", top_k=7, first_n=30)
    for k0, k1 in _chunks(dom):
        ops, flat = dom.operands(k0, k1), _flat(dom, k0, k1)
        assert _equal(summary.prepare(k0, ops, stage(ops)), summary.prepare(k0, flat, stage(flat)))


def _sweep(dom: GridDomain, chunk: int, processes: bool) -> str:
    res = run_sweep(dom, ModelStage("mul", "f16"), result_format="f16", chunk_size=chunk,
                    keep_elements=False, workers=2, processes=processes, top_k=9, first_n=25)
    assert res.complete
    return json.dumps(res.summary.to_dict(), sort_keys=True, default=repr)


@pytest.mark.parametrize("processes", [False, True])
def test_sweep_summary_with_rows_equals_the_flat_one(processes):
    """A whole sweep (stage threads, or worker processes that get the domain pickled)
    with every chunk's layout against the same sweep with none; chunks of 3000 over
    rows of 1237 (partial first and last rows, chunks across three rows)."""
    with_rows, flat = _grids()[1], _grids()[1]
    with_rows.LAYOUT_MIN_ROW = 1  # (an instance attribute: pickled with the domain)
    flat.LAYOUT_MIN_ROW = 1 << 40
    assert isinstance(with_rows.operands(0, 3000), GridOperands)
    assert not isinstance(flat.operands(0, 3000), GridOperands)
    assert _sweep(with_rows, 3000, processes) == _sweep(flat, 3000, processes)


def test_short_rows_get_no_layout():
    """Rows shorter than LAYOUT_MIN_ROW on average: the flat operands only (a per-row
    step would cost more than it saves)."""
    dom = GridDomain(_a_axis(), Axis.bit_range("f16", 0, 99))
    assert type(dom.operands(0, 3300)) is tuple
    long_rows = GridDomain(_a_axis(), Axis.every("f16"))
    assert isinstance(long_rows.operands(0, 1 << 17), GridOperands)


def test_a_layout_that_does_not_describe_the_operands_is_refused():
    dom = GridDomain(_a_axis(), Axis.every("f16"))
    ops = dom.operands(65536 + 3, 3 * 65536)
    a, b = ops
    with pytest.raises(ValueError, match="layout does not describe"):
        evaluate("mul", a, b[::-1].copy(), format="f16", layout=ops.layout)
    with pytest.raises(ValueError, match="layout does not describe"):
        evaluate("mul", a[1:], b[1:], format="f16", layout=ops.layout)
    with pytest.raises(ValueError, match="not inside"):
        OperandRows(a[:1], (0, 10), (65530,), ops.layout.b)


def test_part_renumbers_the_runs():
    dom = GridDomain(_a_axis(), Axis.bit_range("f16", 0, 999))
    dom.LAYOUT_MIN_ROW = 1
    ops = dom.operands(1500, 4700)
    for s, e in [(0, 3200), (0, 1), (499, 501), (10, 2600), (3199, 3200)]:
        part = ops.layout.part(s, e)
        assert all(np.array_equal(x, y[s:e]) for x, y in zip(part.operands(), ops))


def test_pickled_axis_and_operands_drop_what_was_derived():
    dom = GridDomain(_a_axis(), Axis.every("f16"))
    ops = dom.operands(0, 1 << 17)
    evaluate("mul", *ops, format="f16", layout=ops.layout).bits  # (derives B's values)
    assert ops.layout.b._memo
    back = pickle.loads(pickle.dumps(ops))
    assert isinstance(back, GridOperands) and not back.layout.b._memo
    assert all(np.array_equal(x, y) for x, y in zip(back, ops))
    assert not back.layout.b.patterns.flags.writeable
