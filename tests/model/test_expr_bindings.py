"""Bindings: text (through the paste parser), numbers, arrays and typed tuples; errors say
which variable and what is wrong."""

from __future__ import annotations

import numpy as np
import pytest
from _engine_oracle import bits32

from fpinspector.model.expr import BindingError, bind, evaluate_expr


def test_forms_of_bindings():
    types, vals = bind({"n": "float3(1e-20, 0, 0)", "x": 1.5, "p": 0x00000001, "h": "uint(0x3c00)",
                        "v": [1.0, "0x3f800000"], "q": ("uint2", [3, 4]),
                        "arr": np.array([1.0, 2.0]), "pat": np.array([1, 2], np.uint32)})
    assert {k: str(t) for k, t in types.items()} == {
        "n": "float3", "x": "float", "p": "float", "h": "uint", "v": "float2", "q": "uint2",
        "arr": "float", "pat": "float"}
    assert [int(c) for c in vals["n"]] == [bits32(1e-20), 0, 0]
    assert int(vals["p"][0]) == 1 and int(vals["h"][0]) == 0x3C00
    assert vals["arr"][0].tolist() == [bits32(1.0), bits32(2.0)]
    assert vals["pat"][0].tolist() == [1, 2]


@pytest.mark.parametrize("b, words", [
    ({"n": "float3(1, 2)"}, "needs 3 components"),
    ({"u": "uint(x)"}, "not an integer"),
    ({"u": "uint(0x1FFFFFFFF)"}, "outside uint's 32 bits"),
    ({"x": "zz"}, "unknown word"),
    ({"x": -1}, "bit patterns"),
    ({"x": ""}, "no value"),
    ({"x": [1, 2, 3, 4, 5]}, "1 to 4"),
    ({"x": object()}, "cannot bind"),
    ({"1x": 1.0}, "variable name"),
    ({"x": ("float9", [1])}, "unknown type"),
])
def test_bad_bindings_name_the_variable(b, words):
    with pytest.raises(BindingError) as info:
        bind(b)
    assert words in info.value.message and str(info.value).startswith(next(iter(b)).__str__())


def test_arrays_broadcast_into_a_grid():
    a = np.array([bits32(1.0), bits32(2.0)], np.uint32)[:, None]
    b = np.array([bits32(3.0), bits32(4.0), bits32(5.0)], np.uint32)[None, :]
    r = evaluate_expr("a * b", {"a": a, "b": b})
    assert r.shape == (2, 3)
    assert r.bits.view(np.float32).tolist() == [[3, 4, 5], [6, 8, 10]]
