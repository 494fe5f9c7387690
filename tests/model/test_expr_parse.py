"""The expression language refuses what it does not model, with a message and a position
(never eval: a whitelist parser), and lowers what it does to the D3D instructions."""

from __future__ import annotations

import pytest

from fpinspector.model.expr import ExprError, lower, parse_expr

F = {"a": "float", "b": "float", "c": "float", "x": "float", "y": "float", "t": "float",
     "n": "float3", "v": "float4", "p": "float2", "u": "uint"}


def refused(text: str, types=F) -> ExprError:
    with pytest.raises(ExprError) as info:
        lower(text, types)
    return info.value


@pytest.mark.parametrize("text, col, words", [
    ('__import__("os").system("rm -rf /")', 1, "'__'"),
    ("lambda x: x", 1, "'lambda'"),
    ("[x for x in a]", 1, "brackets"),
    ("(x for x in a)", 4, "'for'"),
    ("a.real", 2, "not a swizzle"),
    ("a.__class__", 2, "not a swizzle"),
    ("n.xyz.__globals__", 6, "not a swizzle"),
    ("open('f')", 1, "'open'"),
    ("a if b else c", 3, "'if'"),
    ("a = 1", 3, "assignment"),
    ("a; b", 2, "one expression"),
    ("a && b", 3, "logical"),
    ("a % b", 3, "%"),
    ("'abc'", 1, "string"),
    ("a(1)", 1, "unknown function 'a'"),
])
def test_foreign_constructs_are_refused_with_position(text, col, words):
    err = refused(text)
    assert err.column == col, (text, str(err))
    assert words in err.message
    assert f"(at column {col})" in str(err)
    assert "^" in err.caret(text).splitlines()[1]


@pytest.mark.parametrize("text, col, words", [
    ("a +", 4, "ends here"),
    ("(a + b", 7, "expected ')'"),
    ("a b", 3, "unexpected 'b'"),
    ("a + )", 5, "expected a number"),
    ("mad(a, b)", 1, "takes 3 arguments"),
    ("foo(a)", 1, "unknown function 'foo'"),
    ("Dot(p, p)", 1, "did you mean dot"),
    ("dot(p, n)", 1, "same size"),
    ("z + 1", 1, "unbound variable 'z'"),
    ("a + zz", 5, "unbound variable 'zz'"),
    ("u + 1.0", 1, "takes float operands, got uint"),
    ("asfloat(a < b)", 1, "bool"),
    ("p + n", 1, "sizes differ"),
    ("n.w", 3, "no component 'w'"),
    ("v.xyzwx", 2, "not a swizzle"),
    ("v.xg", 2, "not a swizzle"),
    ("1e39", 1, "overflows"),
    ("1.5h", 1, "half literals"),
    ("2f", 1, "suffix"),
    ("0x1FFFFFFFF", 1, "outside 32 bits"),
    ("dot", 1, "intrinsic"),
    ("a < b ? u : a", 1, "branches"),
    ("float3(a, b)", 1, "needs 3 components"),
    ("-(a < b)", 2, "bool"),
    ("saturate(u)", 10, "got uint"),
    ("", 1, "empty"),
])
def test_bad_input_messages_name_the_position(text, col, words):
    err = refused(text)
    assert err.column == col, (text, str(err))
    assert words in err.message, err.message


def test_deep_nesting_is_refused_not_a_recursion_error():
    text = "(" * 500 + "a" + ")" * 500
    assert "nested deeper" in refused(text).message
    assert "nested deeper" in refused("-" * 500 + "a").message


def test_long_text_and_tall_trees_are_refused():
    assert "longer than" in refused("a+" * 6000 + "a").message
    assert "nested deeper" in refused("a+" * 3000 + "a").message
    assert len(lower("a+" * 200 + "a", F).steps) == 200


def test_parse_never_evaluates_python():
    # a Python-valid payload is a syntax error here, whatever it would do in Python
    with pytest.raises(ExprError):
        parse_expr("__builtins__.__dict__['eval']('1')")
    with pytest.raises(ExprError):
        parse_expr("(lambda: 1)()")


@pytest.mark.parametrize("text, listing", [
    ("a - b", ["r0 = add a, -b"]),
    ("a > b", ["r0 = lt b, a"]),
    ("a <= b", ["r0 = ge b, a"]),
    ("a == b", ["r0 = eq a, b"]),
    ("a != b", ["r0 = ne a, b"]),
    ("-a * abs(b)", ["r0 = mul -a, |b|"]),
    ("-abs(a) + 1", ["r0 = add -|a|, l(1)"]),
    ("abs(-a) * b", ["r0 = mul |a|, b"]),
    ("saturate(a * b + c)", ["r0 = mul a, b", "r1 = add_sat r0, c"]),
    ("saturate(saturate(a * b))", ["r0 = mul_sat a, b"]),
    ("saturate(a)", ["r0 = mov_sat a"]),
    ("saturate(-(a * b))", ["r0 = mul a, b", "r1 = mov_sat -r0"]),
    ("-a", ["r0 = mov -a"]),
    ("a", ["r0 = mov a"]),
    ("mad(a, b, -c)", ["r0 = mad a, b, -c"]),
    ("lerp(a, b, t)", ["r0 = add b, -a", "r1 = mad t, r0, a"]),
    ("dot(p, p)", ["r0 = dp2 p.x, p.y, p.x, p.y"]),
    ("dot(a, b)", ["r0 = mul a, b"]),
    ("rsqrt(a) + sqrt(b) + rcp(c)", ["r0 = rsq a", "r1 = sqrt b", "r2 = add r0, r1",
                                     "r3 = rcp c", "r4 = add r2, r3"]),
    ("exp2(a) * log2(b)", ["r0 = exp a", "r1 = log b", "r2 = mul r0, r1"]),
    ("frac(a) + floor(b) + ceil(c) + round(x) + trunc(y)",
     ["r0 = frc a", "r1 = round_ni b", "r2 = add r0, r1", "r3 = round_pi c",
      "r4 = add r2, r3", "r5 = round_ne x", "r6 = add r4, r5", "r7 = round_z y",
      "r8 = add r6, r7"]),
    ("a < b ? x : y", ["r0 = lt a, b", "r1 = movc r0, x, y"]),
    ("a ? x : -y", ["r0 = ne a, l(0)", "r1 = movc r0, x, -y"]),
    ("u ? x : y", ["r0 = movc u, x, y"]),
    ("asfloat(0x3f800000) * a", ["r0 = mul l(1), a"]),
    ("asfloat(u) * a", ["r0 = mul asfloat(u), a"]),
    ("asuint(-a)", ["r0 = mov -a"]),
    ("f16tof32(f32tof16(a * 0.5))", ["r0 = mul a, l(0.5)", "r1 = f32tof16 r0",
                                     "r2 = f16tof32 r0" if False else "r2 = f16tof32 r1"]),
    ("a * 0.1f + 2", ["r0 = mul a, l(0.1)", "r1 = add r0, l(2)"]),
    ("a - 1.0", ["r0 = add a, l(-1)"]),
])
def test_lowering_is_what_a_d3d_compiler_emits(text, listing):
    assert lower(text, F).listing() == listing


def test_vectors_scalarise_with_swizzles_and_broadcast():
    p = lower("n * rsqrt(dot(n, n))", F)
    assert p.listing() == ["r0 = dp3 n.x, n.y, n.z, n.x, n.y, n.z", "r1 = rsq r0",
                           "r2 = mul n.x, r1", "r3 = mul n.y, r1", "r4 = mul n.z, r1"]
    assert str(p.type) == "float3" and [o for o, _ in p.outputs] == [2, 3, 4]
    q = lower("v.zyx.xx + 1", F)
    assert q.listing() == ["r0 = add v.z, l(1)", "r1 = add v.z, l(1)"]
    assert str(lower("float3(p, a).zy", F).type) == "float2"
    assert lower("v.rgba", F).listing()[3] == "r3 = mov v.w"


def test_variables_report_their_types():
    p = lower("dot(n, n) + a", F)
    assert {k: str(t) for k, t in p.variables.items()} == {"n": "float3", "a": "float"}
    assert [i.label for i in p.inputs] == ["n.x", "n.y", "n.z", "a"]
