"""The GPU rules report: probe the local GPU against docs/rules.md and measure ULP errors.

``build_report(session)`` returns plain data (dataclasses with ``to_dict``); the
``gpu-report`` command and the UI format it. Every verdict comes from the rule engine
(``evaluate(...).allowed``) or, for render-target conversions, the conversion model.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.engine.optable import OPS
from ..model.formats import get_format
from .capture_formats import SHADER_FLOAT, SHADER_HALF
from .deviations import DEVIATIONS
from .fidelity import check_fidelity, fidelity_note
from .judge import _conv_model, classify_conversion, classify_with_engine
from .report_data import GpuReport, Probe, UlpStats, report_header

__all__ = ["Probe", "UlpStats", "GpuReport", "build_report", "PROBES", "RGB9E5_PROBES",
           "ULP_OPS", "ULP_BINS"]

RULE_SETS = ("d3d10", "d3d11")
NAN, INF, NINF = 0x7FC00000, 0x7F800000, 0xFF800000
ONE, HALF, DEN, MINN = 0x3F800000, 0x3F000000, 0x00000001, 0x00800000

#: (id, question, rule, op, operands): arithmetic probes judged by evaluate(...).allowed
PROBES: tuple[tuple[str, str, str, str, tuple[int, ...]], ...] = (
    ("ftz-input", "flushes an f32 denormal input (denormal + 0)?", "F32-FTZ", "add", (DEN, 0)),
    ("ftz-output", "flushes an f32 denormal result (2^-126 * 0.5)?", "F32-FTZ", "mul",
     (MINN, HALF)),
    ("ftz-mov", "keeps a denormal through a raw move?", "F32-FTZ", "mov", (DEN,)),
    ("min-nan", "min(NaN, 1) returns 1?", "F32-MINMAX-NAN", "min", (NAN, ONE)),
    ("max-nan", "max(1, NaN) returns 1?", "F32-MINMAX-NAN", "max", (ONE, NAN)),
    ("min-zero", "min(-0, +0) is -0?", "F32-MINMAX-ZERO", "min", (0x80000000, 0)),
    ("min-zero-rev", "min(+0, -0) is -0?", "F32-MINMAX-ZERO", "min", (0, 0x80000000)),
    ("max-zero", "max(-0, +0) is +0?", "F32-MINMAX-ZERO", "max", (0x80000000, 0)),
    ("neg0-plus-0", "-0 + 0 is +0?", "F32-IDENT", "add", (0x80000000, 0)),
    ("sqrt-neg0", "sqrt(-0) is -0?", "F32-SQRTNEG", "sqrt", (0x80000000,)),
    ("rsq-neg0", "rsq(-0) is -INF?", "F32-SQRTNEG", "rsq", (0x80000000,)),
    ("sqrt-neg", "sqrt(-1) is NaN?", "F32-SQRTNEG", "sqrt", (0xBF800000,)),
    ("log-0", "log(+0) is -INF?", "F32-LOG0", "log", (0,)),
    ("log-neg0", "log(-0) is -INF?", "F32-LOG0", "log", (0x80000000,)),
    ("div-0", "1 / 0 is +INF?", "F32-DIV0", "div", (ONE, 0)),
    ("inf-inf", "INF - INF is NaN?", "F32-INFINF", "sub", (INF, INF)),
    ("cmp-nan", "NaN == NaN is false?", "F32-CMPNAN", "eq", (NAN, NAN)),
    ("cmp-zero", "-0 == +0 is true?", "F32-CMPZERO", "eq", (0x80000000, 0)),
    ("frc-tiny-neg", "frc(-2^-30) stays below 1?", "F32-INSTR", "frc", (0xB0800000,)),
    ("ftoi-nan", "ftoi(NaN) is 0?", "CONV-FTOI", "ftoi", (NAN,)),
    ("ftoi-big", "ftoi(3e9) clamps to 2147483647?", "CONV-FTOI", "ftoi", (0x4F32D05E,)),
    ("ftou-neg", "ftou(-1) clamps to 0?", "CONV-FTOI", "ftou", (0xBF800000,)),
)


def f32_word(v: float) -> int:
    """The float32 bit pattern of ``v`` (a probe's input)."""
    return int(np.array([v], np.float32).view(np.uint32)[0])


#: (id, question, rule, src, dst, hardware path, f32 value): conversion probes
CONV_PROBES: tuple[tuple[str, str, str, str, str, str, float], ...] = tuple(
    (f"{dst}-{name}-{path}", f"f32 -> {dst} ({path}) {q}", rule, "f32", dst, path, v)
    for dst, path in (("f16", "render"), ("f16", "pack"), ("f11", "render"), ("f10", "render"))
    for name, q, rule, v in (
        ("halfway", "rounds 1 + 1.5 ULP toward zero (not to even)?", "CONV-F2F-RTZ",
         1 + 3 * 2.0 ** -(get_format(dst).frac_bits + 1)),  # 1.5 ULP
        ("overflow", "saturates 1e6 to the largest finite?", "CONV-F2F-SAT", 1e6),
        ("nan", "keeps NaN a NaN?", "CONV-NAN", float("nan")),
        ("negative", "maps -1.5 to 0?", "CONV-UNSIGNED", -1.5),
        ("neg-inf", "gives 0 (f11/f10) or -INF (f16) for -INF?", "CONV-UNSIGNED",
         float("-inf")),
    )
    if not (get_format(dst).signed and name == "negative")  # CONV-UNSIGNED only
) + (
    ("unorm8-nan", "f32 -> UNORM8 (render) gives 0 for NaN?", "CONV-UNORM", "f32", "unorm8",
     "render", float("nan")),
    ("unorm8-half", "f32 -> UNORM8 (render) rounds 0.5 to 128?", "CONV-UNORM", "f32", "unorm8",
     "render", 0.5),
    ("snorm8-nan", "f32 -> SNORM8 (render) gives 0 for NaN?", "CONV-SNORM", "f32", "snorm8",
     "render", float("nan")),
    ("snorm8-below", "f32 -> SNORM8 (render) clamps -2 to -127?", "CONV-SNORM", "f32", "snorm8",
     "render", -2.0),
    ("srgb8-half", "f32 -> sRGB8 (render) encodes 0.5 as 188?", "CONV-SRGB", "f32", "srgb8",
     "render", 0.5),
    ("unorm16-half", "f32 -> UNORM16 (render) rounds 0.5 to 32768?", "CONV-UNORM", "f32",
     "unorm16", "render", 0.5),
    ("snorm16-nan", "f32 -> SNORM16 (render) gives 0 for NaN?", "CONV-SNORM", "f32", "snorm16",
     "render", float("nan")),
    ("snorm16-below", "f32 -> SNORM16 (render) clamps -2 to -32767?", "CONV-SNORM", "f32",
     "snorm16", "render", -2.0),
    ("f32-identity", "f32 -> f32 (R32F render target) keeps a denormal?", "F32-FTZ", "f32",
     "f32", "render", 1e-45),
)
#: (id, question, R9G9B9E5 word, channel): CONV-RGB9E5 decode by sampling the format
RGB9E5_PROBES: tuple[tuple[str, str, int, int], ...] = (
    ("rgb9e5-example", "RGB9E5 -> f32 (sample): B of D3D's example 0x999320C8 is 3.125?",
     0x999320C8, 2),
    ("rgb9e5-e31", "RGB9E5 -> f32 (sample): R of 0xFFFFFFFF (E = 31) is 65408, not INF/NaN?",
     0xFFFFFFFF, 0),
    ("rgb9e5-small", "RGB9E5 -> f32 (sample): G of 0x00000200 (E = 0) is 2^-24?",
     0x00000200, 1),
)
#: the ops whose ULP error the report measures (the op rows' ``ulp_report``), each with the
#: rule of its f32 d3d11 tolerance row
ULP_OPS = tuple(name for name, spec in OPS.items() if spec.ulp_inputs)
ULP_RULE = {name: next(r.tolerance.rule for r in OPS[name].tolerances
                       if SHADER_FLOAT in r.formats and "d3d11" in r.rule_sets) for name in ULP_OPS}
ULP_BINS = (0.0, 0.5, 1.0, 1.5, 2.0, 4.0, 16.0, 256.0, 1e300)


def _hex(v: Any) -> str:
    a = np.asarray(v)
    if a.dtype == np.bool_:
        return str(bool(a))
    if a.dtype.kind == "i":
        return str(int(a))
    return f"0x{int(a):0{a.dtype.itemsize * 2}X}"


def deviation_at(masks: dict[str, np.ndarray], i: int = 0) -> str | None:
    """The deviation id that explains element ``i``, if any."""
    skip = ("conformant", "serial_order", "unexplained")
    return next((k for k, m in masks.items() if k not in skip and bool(m[i])), None)


def conv_probe_masks(renderer: str, shader_path: str, src: str, dst: str, path: str,
                     x: np.ndarray, got: np.ndarray) -> dict[str, np.ndarray]:
    """A conversion probe judged: ``classify_conversion``'s masks, or for the ``pack``
    path (packHalf2x16, a shader op) the engine's to_f16 on ``shader_path``."""
    if path == "pack":
        return classify_with_engine(renderer, shader_path, f"to_{dst}", src, [x], got)
    return classify_conversion(renderer, path, src, dst, x, got)


def applicable_rows(renderer: str) -> list[dict[str, Any]]:
    """The deviation rows a report on ``renderer`` lists (its ``deviations`` key)."""
    return [{"id": d.id, "paths": list(d.paths), "format": d.format, "ops": list(d.ops),
             "rules": list(d.rules), "summary": d.summary}
            for d in DEVIATIONS if d.applies_to(renderer)]


def _arith_probes(session: Any, path: str, fidelity: dict[str, Any]) -> list[Probe]:
    from fpinspector.model import evaluate

    out = []
    renderer = session.info["renderer"]
    for pid, question, rule, op, operands in PROBES:
        ops = [np.array([v], np.uint32) for v in operands]
        got = session.capture(op, *ops, path=path)
        verdict = {rs: bool(evaluate(op, *ops, rules=rs).allowed(got)[0]) for rs in RULE_SETS}
        model = evaluate(op, *ops, rules="d3d11")
        dev = deviation_at(classify_with_engine(renderer, path, op, SHADER_FLOAT, ops, got))
        note = (fidelity_note(fidelity, path, SHADER_FLOAT, got[0])
                if got.dtype == np.uint32 else None)
        out.append(Probe(pid, question, rule, path, [_hex(o[0]) for o in ops], _hex(got[0]),
                         _hex(np.asarray(model.bits)[0]), verdict, dev, note))
    return out


def _conv_probes(session: Any, fidelity: dict[str, Any]) -> list[Probe]:
    out = []
    renderer = session.info["renderer"]
    for pid, question, rule, src, dst, path, value in CONV_PROBES:
        x = np.array([f32_word(value)], np.uint32)
        got = session.convert(x, src, dst, path=path)
        masks = conv_probe_masks(renderer, session.path, src, dst, path, x, got)
        ok = bool(masks["conformant"][0])
        model = np.asarray(_conv_model(src, dst, x).bits)
        dev = deviation_at(masks)
        note = fidelity_note(fidelity, path, dst, got[0]) if dst == SHADER_FLOAT else None
        out.append(Probe(pid, question, rule, path, [_hex(x[0])], _hex(got[0]),
                         _hex(model[0]), {rs: ok for rs in RULE_SETS}, dev, note))
    return out


def _rgb9e5_probes(session: Any) -> list[Probe]:
    """CONV-RGB9E5: one channel of a sampled R9G9B9E5 word per probe (D3D11.3 §19.3.2.1)."""
    out = []
    renderer = session.info["renderer"]
    for pid, question, word, ch in RGB9E5_PROBES:
        x = np.array([word], np.uint32)
        got = session.convert(x, "rgb9e5", SHADER_FLOAT, path="sample")
        masks = classify_conversion(renderer, "sample", "rgb9e5", SHADER_FLOAT, x, got)
        channel = {k: np.asarray(m)[:, ch] for k, m in masks.items()}
        model = np.asarray(_conv_model("rgb9e5", SHADER_FLOAT, x).bits)[0, ch]
        ok = bool(channel["conformant"][0])
        out.append(Probe(pid, question, "CONV-RGB9E5", "sample", [_hex(x[0])],
                         _hex(got[0, ch]), _hex(model), {rs: ok for rs in RULE_SETS},
                         deviation_at(channel)))
    return out


def _ulp_inputs(op: str, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Random normal f32 inputs over the op's useful domain (bit-uniform = log-uniform)."""
    def normals(lo_exp: int, hi_exp: int, signed: bool) -> np.ndarray:
        e = rng.integers(lo_exp + 127, hi_exp + 127, n, dtype=np.uint32)
        b = (e << np.uint32(23)) | rng.integers(0, 1 << 23, n, dtype=np.uint32)
        if signed:
            b |= rng.integers(0, 2, n, dtype=np.uint32) << np.uint32(31)
        return b

    out = []
    for kind, lo, hi, signed in OPS[op].ulp_inputs:  # the op row says how to draw each
        if kind == "uniform":
            out.append(rng.uniform(float(lo), float(hi), n).astype(np.float32).view(np.uint32))
        else:
            out.append(normals(lo, hi, signed))
    return out


def _ulp_stats(session: Any, op: str, path: str, n: int, seed: int) -> UlpStats:
    from fpinspector.model import evaluate

    rng = np.random.default_rng(seed)
    ops = _ulp_inputs(op, n, rng)
    got = session.capture(op, *ops, path=path)
    ev = {rs: evaluate(op, *ops, rules=rs) for rs in RULE_SETS}
    err = np.abs(np.asarray(ev["d3d11"].ulp_error(got), np.float64))  # signed -> |.|
    finite = np.isfinite(err)
    counts, _ = np.histogram(err[finite], bins=np.array(ULP_BINS))
    allowed = {rs: float(np.mean(e.allowed(got))) for rs, e in ev.items()}
    return UlpStats(op, ULP_RULE[op], path, n, float(np.max(err[finite], initial=0.0)),
                    float(np.mean(err[finite])) if finite.any() else 0.0,
                    [float(b) for b in ULP_BINS], [int(c) for c in counts], allowed,
                    {rs: allowed[rs] == 1.0 for rs in RULE_SETS})


def _unsupported(session: Any) -> list[dict[str, str]]:
    """Every (op, format) of the rule engine this GPU cannot capture, with the reason."""
    return [{"op": op, "format": fmt, "reason": why}
            for op, spec in sorted(OPS.items()) for fmt in spec.formats
            if (why := session.unsupported_reason(op, fmt))]


def build_report(session: Any, samples: int = 1 << 18, seed: int = 2024,
                 paths: tuple[str, ...] | None = None) -> GpuReport:
    """Probe ``session``'s GPU on each capture path and measure ULP errors.

    Parameters
    ----------
    session : GpuSession or ChildSession
    samples : int
        Random inputs per op for the ULP distributions.
    paths : tuple of str, optional
        Capture paths to probe (default: every path the session has).
    """
    if samples < 1:
        raise ValueError(f"samples must be positive, got {samples}")
    info = session.info
    paths = tuple(paths or info["paths"])
    report = GpuReport(info=info, header=report_header(samples, seed, list(paths)))
    report.fidelity = {p: f.to_dict() for p, f in check_fidelity(session, paths).items()}
    ext = info["half_float_arithmetic"]
    why = session.unsupported_reason("add", SHADER_HALF)
    kernels = "vec2<f16> WGSL" if info.get("api", "gl") != "gl" else "float16_t"
    report.half_float = why or (f"f16 arithmetic captured with {', '.join(ext)} "
                                f"({kernels} kernels, two operands per 32-bit word)")
    report.unsupported = _unsupported(session)
    for path in paths:
        report.probes += _arith_probes(session, path, report.fidelity)
        report.ulp += [_ulp_stats(session, op, path, samples, seed) for op in ULP_OPS]
    report.probes += _conv_probes(session, report.fidelity)
    report.probes += _rgb9e5_probes(session)
    report.deviations = applicable_rows(info["renderer"])
    return report
