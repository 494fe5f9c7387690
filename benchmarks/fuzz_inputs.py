"""Fuzz the readers of outside input: only their documented error type may escape.

Readers and the one error each may raise: ``parse`` (ParseError), the state string
(``InspectorState.snapshot_from_string``: ValueError), workspace files (``load_workspace``:
ValueError), sweep files (``load_npz``: ValueError), saved GPU reports (``load_report``:
ReportFileError, and what loads must work in the comparison, the text report and the app's
expected results), expressions (ExprError/BindingError), ``eval --batch`` rows (error rows,
nothing raised), ``decode -`` standard input (capped read + parse), JSON nesting (the
reader policy's ``load_json``), and devices, pipes and folders given to every path reader.
Inputs are seeded random: grammar pieces of real pastes glued and mutated, valid state
strings / workspace JSON / .npz bytes with bytes flipped, cut, inserted and fields replaced
by random JSON values; saved reports mutated by schema (a field retyped, replaced, removed
or nested deeply: ``mutate_json``). Every message must stay bounded.

Run: ``.venv/bin/python benchmarks/fuzz_inputs.py [--n 1000000] [--seed 1]`` prints inputs/s
and the crash count per reader and exits 1 on any crash (the input is shown). The test suite
runs the same generators on a few thousand inputs (tests/test_fuzz_inputs.py).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import sys
import tempfile
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from fpinspector.model.parse import ParseError, parse  # noqa: E402
from fpinspector.model.state import InspectorState  # noqa: E402
from fpinspector.model.sweep import Axis, GridDomain, UnaryDomain, load_npz, run_sweep, save_npz  # noqa: E402,E501

PIECES = [
    "0x3f800000", "0x3c00", "0x", "0b", "0b1010", "0b_", "0x_", "_", "u", "UL", "1.5", "-2.5e-3",
    "1e999", ".5", "1.", "1.0f", "2h", "1.#INF", "-1.#IND", "1.#QNAN", "nan", "inf", "-inf",
    "nan(0x400000)", "nan(0xzz)", "nan(ind)", "0x1.8p+1", "0x.p1", "-0x1p-149", "float4(",
    "half2(", "asfloat(", "asdouble(", "asdouble(0x0, 0x3ff00000)", ")", "(", "{", "}", "[", "]",
    "<repeats 5 times>", "<repeats 999999999 times>", "<repeats 2000 times>", "$1 = ",
    "x/4xw 0x7ffe:", "(gdb) ", "(lldb) p f", "0x7ffe <sym+8>:", ",", ";", ":", "=", " ", "  ",
    "\t", "\n", "\r\n", "00 00 80 3f", "3f 80", "3f800000h", "3F800000", "00000000", "int",
    "uint", "dword", "short", "array(", "dtype=float16", "float", "half", "double", "f11",
    "ı", "İ", "ſ", "１", "٣", "\u00a0", "\u2009", "\x00", "é", "😀", "'", "#", "??", "\\",
    "0x00000001  3f800000  ", "0x000000d2f1cff6e0  1.5  2.5", "Name\tValue\tfloat\n",
    "+\tf\t1.5\tfloat\n", "Row,Col\n0,1.5\n", "x,y\n1,2\n3", "-", "+", "e", "p", "9" * 30,
    "0x" + "f" * 20, "1" * 5000, "(" * 70, "0.1e-400", "4.9e-324", "65504", "65520h",
    # debuggers' register displays (parse/registers.py)
    "v4_float = ", "v4_int32 = ", "v2_int64 = ", "v8_int16 = ", "v8_bfloat16 = ", "uint128 = ",
    "v2_int128 = ", "xmm0  ", "\nv0  ", "rax            0x3eaaaaab          1051372203\n",
    "s0             0.333333343         (raw 0x3eaaaaab)\n", "h1  1  (raw 0x3c00)",
    "XMM0 = " + "3EAAAAAB" * 4, "YMM1 = " + "0" * 64, "d = ", "s = ", "h = ", "b = ", "q = ",
    "u = ", "f = ", "bf = ", "[0] = ",
    # RenderDoc's tables (parse/renderdoc_text.py)
    "Element, pos.x, pos.y\n", "VTX, IDX, POSITION.x\n", "Name,Value,Byte Offset,Type\n",
    "12 7  1.00 -2.50", " 1.00000E-06", " NaN", "-INF", " Restart", "--", "...", "3F800000 ",
    '"1.00, 0.50"', "0x00000010", "world.row0 ", " float4x4 (row_major)", ",,", "\n 3.00",
]
CHARS = "0123456789abcdefxXpP_.+-eE(){}[]<>,;:=#$/ \t\n'\"ıİſ１\u00a0\x00é"


def _mutate(rng: random.Random, s: str, alphabet: str = CHARS) -> str:
    for _ in range(rng.randint(1, 4)):
        if not s or rng.random() < 0.3:
            i = rng.randint(0, len(s))
            s = s[:i] + rng.choice(alphabet) + s[i:]
        elif rng.random() < 0.5:
            i = rng.randrange(len(s))
            s = s[:i] + s[i + 1:]
        else:
            i = rng.randrange(len(s))
            s = s[:i] + rng.choice(alphabet) + s[i + 1:]
    return s


def paste_case(rng: random.Random) -> tuple:
    text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 10)))
    if rng.random() < 0.5:
        text = _mutate(rng, text)
    fmt = rng.choice([None, None, "f32", "f16", "f64", "f11", "f10"])
    return text, fmt, rng.choice(["little", "big", "both"])


def check_paste(case: tuple) -> None:
    text, fmt, order = case
    try:
        vals = parse(text, fmt, byte_order=order)
    except ParseError as exc:
        assert 0 <= exc.index <= len(text), "ParseError index outside the text"
        return
    assert all(v.end <= len(text) for v in vals)


_OPS = ["mul", "add", "sqrt", "mad", "dp4", "itof", "from_unorm8", "min", "eq", "to_f16"]


def state_case(rng: random.Random) -> str:
    s = InspectorState()
    try:
        s.update(op=rng.choice(_OPS), bits=rng.getrandbits(32), word=rng.getrandbits(32))
    except ValueError:
        pass
    text = s.to_string()
    return _mutate(rng, text, CHARS + ";=:,vwoaFpi1") if rng.random() < 0.9 else text + text


def check_state(text: str) -> None:
    try:
        InspectorState.snapshot_from_string(text)
    except ValueError:
        pass


def _json_value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth > 3 or r < 0.5:
        return rng.choice([None, True, False, 0, 1, -1, 1.5, 2**70, float("inf"), float("nan"),
                           "", "0x3F800000", "f32", "mul", "0x", "0x1_0", "ı", "d3d11", [],
                           {}, 10**400 if rng.random() < 0.01 else 7])
    if r < 0.75:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["fmt", "bits", "op", "x", "history", "state", "options"]):
            _json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def workspace_case(rng: random.Random) -> bytes:
    state = InspectorState().to_dict()
    doc: dict[str, Any] = {"fpinspector_workspace": 1, "state": state,
                           "history": [["f32", "0x3F800000"], ["f16", "0x3C00"]]}
    r = rng.random()
    if r < 0.15:  # schema-aware: any field of the document retyped, replaced, removed, nested
        return _dumps(mutate_json(rng, doc))
    if r < 0.4:
        target = rng.choice([doc, state, doc])
        key = rng.choice(list(target) + ["extra"])
        target[key] = _json_value(rng)
    elif r < 0.5:
        doc["history"] = [[rng.choice(["f32", "f16", 5]), _json_value(rng)]]
    elif r < 0.55:
        depth = rng.choice([10, 1000, 100_000])
        return ('{"fpinspector_workspace": 1, "state": ' + "[" * depth + "]" * depth
                + "}").encode()
    text = json.dumps(doc)
    if r >= 0.55:
        b = bytearray(text.encode())
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(b))
            b[i] = rng.randrange(256)
        return bytes(b)
    return text.encode()


class WorkspaceChecker:
    """Writes each case to a file (tmpfs where there is one) and loads it."""

    def __init__(self) -> None:
        base = "/dev/shm" if os.path.isdir("/dev/shm") else None
        self.dir = tempfile.mkdtemp(prefix="fpi-fuzz-", dir=base)
        self.path = os.path.join(self.dir, "ws.json")
        # (removed with the checker: every test run used to leave one in /dev/shm)
        weakref.finalize(self, shutil.rmtree, self.dir, True)
        from fpinspector.model.state.workspace import load_workspace  # noqa: PLC0415

        self.load = load_workspace

    def __call__(self, data: bytes) -> None:
        with open(self.path, "wb") as fh:
            fh.write(data)
        try:
            self.load(self.path)
        except ValueError:
            pass


def _stage(ops):
    a = ops[0] if len(ops) == 1 else ops[0] ^ ops[1]
    return {"model": a, "err_model": (a & 7).astype(np.float64),
            "ok_model": (a & 3) != 0, "fired": {"X": (a & 1) == 1}}


def npz_bases() -> list[bytes]:
    """Valid sweep files: kept unary, grid, summary-only, incomplete."""
    out = []
    runs = [(UnaryDomain(Axis.bit_range("f16", 0, 99)), {}),
            (GridDomain(Axis.log("f32", 1e-3, 1e3, 8), Axis.bit_range("f32", 0, 7)), {}),
            (UnaryDomain(Axis.every("f16")), {"keep_elements": False, "chunk_size": 4096}),
            (UnaryDomain(Axis.bit_range("f16", 0, 999)), {"chunk_size": 100,
                                                           "cancel": lambda: True})]
    for dom, kw in runs:
        res = run_sweep(dom, _stage, result_format="f16", meta={"op": "mov"}, **kw)
        with tempfile.TemporaryDirectory() as d:
            out.append(save_npz(Path(d) / "s.npz", res).read_bytes())
    return out


def npz_case(rng: random.Random, bases: list[bytes]) -> bytes:
    data = bytearray(rng.choice(bases))
    r = rng.random()
    if r < 0.3:  # rewrite metadata / summary / arrays with random values
        with np.load(io.BytesIO(bytes(data))) as z:
            members = {k: z[k] for k in z.files}
        name = rng.choice(list(members))
        if name in ("meta", "summary"):
            d = json.loads(str(members[name]))
            if rng.random() < 0.5:  # schema-aware: any nested field (histogram bins, axes...)
                mutate_json(rng, d)
            else:
                d[rng.choice(list(d) + ["axes", "complete", "n_done"])] = _json_value(rng)
            members[name] = np.array(_dumps(d).decode())
        else:
            members[name] = np.zeros(rng.choice([0, 1, 99, 100, 10_000]),
                                     rng.choice([np.uint8, np.float64, bool, "U3"]))
        buf = io.BytesIO()
        np.savez(buf, **members)
        return buf.getvalue()
    if r < 0.5:
        return bytes(data[: rng.randrange(len(data))])
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(data))
        data[i] = rng.randrange(256)
    return bytes(data)


def check_npz(data: bytes) -> None:
    try:
        load_npz(io.BytesIO(data), require_complete=False)
    except ValueError:
        pass


def _json_nodes(doc: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every value inside ``doc`` (iteratively: no recursion limit)."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in items:
            out.append((node, k))
            if isinstance(v, (dict, list)):
                stack.append(v)
    return out


def _retype(rng: random.Random, v: Any) -> Any:
    """A value of another JSON type that a careless reader would take for ``v``."""
    if isinstance(v, bool):
        return rng.choice([0, 1, "true", None])
    if isinstance(v, int):
        return rng.choice([str(v), float(v), -v - 1, 10**400 if rng.random() < 0.05 else 2**64,
                           True, [v]])
    if isinstance(v, float):
        return rng.choice([float("nan"), float("inf"), -v, str(v), int(v) if abs(v) < 1e300 else 0])
    if isinstance(v, str):
        return rng.choice(["", v * 2, "0x" + v, "x" * 100_000, 7, None, [v], v[:-1],
                           "0xZZZZ", "0x" + "f" * 40])
    if isinstance(v, list):
        return rng.choice([{}, v[:1], v * 2 if len(v) < 1000 else v, [None] * len(v), "list"])
    if isinstance(v, dict):
        return rng.choice([[], {k: None for k in v}, "obj", {}])
    return _json_value(rng)


def mutate_json(rng: random.Random, doc: Any, k: int | None = None) -> Any:
    """Schema-aware mutation: ``k`` (1..3) random fields of ``doc`` (a decoded JSON document,
    changed in place) replaced by another type, another value, removed or nested deeply."""
    for _ in range(k or rng.randint(1, 3)):
        nodes = _json_nodes(doc)
        if not nodes:
            break
        parent, key = rng.choice(nodes)
        r = rng.random()
        if r < 0.45:
            parent[key] = _retype(rng, parent[key])
        elif r < 0.7:
            parent[key] = _json_value(rng)
        elif r < 0.9:
            del parent[key]
        else:
            depth = rng.choice([5, 70, 3000])
            v: Any = 0
            for _ in range(depth):
                v = [v]
            parent[key] = v
    return doc


def _dumps(doc: Any) -> bytes:
    try:
        return json.dumps(doc).encode()
    except RecursionError:  # (a 3000-deep list: write it as text)
        return b"[" * 3000 + b"]" * 3000


def report_bases() -> list[bytes]:
    from fpinspector.gpu.report_io import example_reports  # noqa: PLC0415

    return [p.read_bytes() for p in example_reports().values()]


def report_case(rng: random.Random, bases: list[bytes]) -> bytes:
    """A saved GPU report with fields mutated by schema (70%), bytes changed or cut, or
    deep nesting."""
    data = rng.choice(bases)
    r = rng.random()
    if r < 0.7:
        return _dumps(mutate_json(rng, json.loads(data)))
    if r < 0.8:
        return data[: rng.randrange(len(data))]
    if r < 0.85:
        depth = rng.choice([100, 100_000])
        return b'{"schema": "fpinspector.gpu-report", "version": 2, "info": ' + b"[" * depth \
            + b"]" * depth + b"}"
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


class ReportChecker:
    """Loads each case as a report file; what loads must then be usable by everything that
    reads a report (the text report, the comparison, the app's expected results)."""

    def __init__(self) -> None:
        base = "/dev/shm" if os.path.isdir("/dev/shm") else None
        self.dir = tempfile.mkdtemp(prefix="fpi-fuzz-", dir=base)
        self.path = os.path.join(self.dir, "report.json")
        weakref.finalize(self, shutil.rmtree, self.dir, True)
        from fpinspector.commands.gpu_report import _text  # noqa: PLC0415
        from fpinspector.gpu.compare import compare_reports  # noqa: PLC0415
        from fpinspector.gpu.expected import expected_result  # noqa: PLC0415
        from fpinspector.gpu.report_io import ReportFileError, example_reports, load_report  # noqa: PLC0415,E501

        self.error, self.load, self.text = ReportFileError, load_report, _text
        self.compare, self.expected = compare_reports, expected_result
        self.example = load_report(example_reports()["llvmpipe"])

    def __call__(self, data: bytes) -> None:
        with open(self.path, "wb") as fh:
            fh.write(data)
        try:
            rep = self.load(self.path)
        except self.error:
            return
        self.text(rep)
        self.compare([rep, self.example]).to_dict()
        for op, ops in (("add", [0x00000001, 0]), ("mul", [0x3F800000, 0x40000000])):
            self.expected(rep, op, "f32", ops, 0)


EXPR_TOKENS = ["a", "b", "n", "u", "x", "1", "0.5", "1e", "1e-40", "1e99999999999999999999",
               "1e-99999999999999999999", "1.5e+", ".5f", "2h", "3u", "0x7f800001", "0x",
               "9" * 60, "0x" + "f" * 40, "+", "-", "*", "/", "<", "==", "?", ":", ",", "(",
               ")", ".", "xyz", "dot", "mad", "saturate", "rsqrt", "lerp", "asfloat",
               "asuint", "f16tof32", "min", "float3", "uint2", "[", "'", "__x", "=", ";", " ",
               "(" * 80, "1.#INF", "nan", "inf"]
_EXPR_BINDS = {"a": 1.5, "b": "-0", "n": "float3(1e-20, 0, 0)", "u": "uint(0x3c00)", "x": "nan"}


def expr_case(rng: random.Random) -> str:
    text = " ".join(rng.choice(EXPR_TOKENS) for _ in range(rng.randint(1, 10)))
    return _mutate(rng, text) if rng.random() < 0.3 else text


class ExprChecker:
    """Evaluates each expression with bindings: ExprError/BindingError (ValueErrors) only."""

    def __init__(self) -> None:
        from fpinspector.model.expr import evaluate_expr  # noqa: PLC0415

        self.evaluate = evaluate_expr

    def __call__(self, text: str) -> None:
        try:
            r = self.evaluate(text, _EXPR_BINDS)
        except ValueError as exc:  # ExprError and BindingError are ValueErrors
            assert len(str(exc)) < 400, "unbounded message"
            return
        r.steps and r.steps[-1].allowed_set(0)


_INT_TOKENS = ["0", "010", "-010", "0x10", "-0x10", "+5", "1_0", "1.5", "0x", "--1", "9" * 30,
               "0x" + "f" * 20, "true", "false", "inf", "nan", "#", ",", "1e3", "0b1", "-",
               "\x00", "é", "0x3f800000", "3F800000", "-1", "4294967296", "2147483648"]


def batch_case(rng: random.Random) -> tuple:
    """A batch file for ``eval --batch``: rows of integer/pattern tokens, some mutated."""
    rows = []
    for _ in range(rng.randint(1, 8)):
        row = " ".join(rng.choice(_INT_TOKENS) for _ in range(rng.randint(0, 4)))
        rows.append(_mutate(rng, row) if rng.random() < 0.3 else row)
    kinds = rng.choice([["i32", "f32"], ["f32", "f32", "f32"], ["u32", "i32", "bool"],
                        ["unorm8", "f16"], ["f16", "f16", "f16"]])
    return "\n".join(rows), kinds


def check_batch(case: tuple) -> None:
    """Rows that cannot be read become error rows: nothing escapes read_rows."""
    from fpinspector.commands._eval.batch_read import read_rows  # noqa: PLC0415
    from fpinspector.commands._eval.operand import read_operand  # noqa: PLC0415

    text, kinds = case
    rows = read_rows(text, len(kinds) - 1, kinds, read_operand)
    assert all(len(m) < 400 for m in rows.error.values()), "unbounded message"


def stdin_case(rng: random.Random) -> bytes:
    """Standard input of ``decode -``: paste text, random bytes, or an over-long stream."""
    r = rng.random()
    if r < 0.6:
        return paste_case(rng)[0].encode("utf-8", "surrogatepass")
    if r < 0.95:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    return b"y\n" * rng.choice([10, 1 << 21, 1 << 22])


def check_stdin(data: bytes) -> None:
    """What ``decode -`` does with standard input: a capped read, then the parser."""
    from fpinspector.commands._readout import STDIN_BYTES  # noqa: PLC0415
    from fpinspector.model.reading import read_bytes  # noqa: PLC0415

    try:
        text = read_bytes(io.BytesIO(data), STDIN_BYTES, "standard input").decode(
            "utf-8", "replace")
        parse(text)
    except ValueError as exc:  # ParseError is a ValueError
        assert len(str(exc)) < 2000, "unbounded message"


def json_nesting_case(rng: random.Random) -> str:
    """Deep nesting of every JSON container shape, closed or not, with text between."""
    depth = rng.choice([1, 63, 64, 65, 1000, 100_000])
    opener = rng.choice(["[", '{"a":', "[1,", '{"x": [', " [ "])
    closer = {"[": "]", '{"a":': "}", "[1,": "]", '{"x": [': "]}", " [ ": " ] "}[opener]
    close = rng.random() < 0.8
    return opener * depth + rng.choice(["0", "null", '"s"', "", "NaN"]) + \
        (closer * depth if close else "")


def check_json_nesting(text: str) -> None:
    """The reader policy's JSON (workspaces, GPU reports): ValueError only, and nothing
    deeper than the limit comes back."""
    from fpinspector.model.reading import JSON_MAX_DEPTH, json_depth, load_json  # noqa: PLC0415

    try:
        v = load_json(text, "f.json", constants=True)
    except ValueError:
        return
    assert json_depth(v) <= JSON_MAX_DEPTH


class SpecialFileChecker:
    """Devices, pipes and folders given to every path reader: each ends at once with its
    documented error (a pipe gets a writer of random bytes, or none that ever writes)."""

    def __init__(self, rng: random.Random) -> None:
        base = "/dev/shm" if os.path.isdir("/dev/shm") else None
        self.dir = tempfile.mkdtemp(prefix="fpi-fuzz-", dir=base)
        weakref.finalize(self, shutil.rmtree, self.dir, True)
        from fpinspector.gpu.report_io import ReportFileError, load_report  # noqa: PLC0415
        from fpinspector.model.reading import read_bytes  # noqa: PLC0415
        from fpinspector.model.state.workspace import load_workspace  # noqa: PLC0415

        self.rng = rng
        self.readers = [("report", load_report, ReportFileError),
                        ("workspace", load_workspace, ValueError),
                        ("sweep", lambda p: load_npz(p, require_complete=False), ValueError),
                        ("bytes", lambda p: read_bytes(p, 1 << 20), ValueError)]
        self.n = 0

    def make(self) -> tuple[str, int]:
        kinds = ["dir", "empty"] + [d for d in ("/dev/zero", "/dev/urandom", "/dev/null")
                                    if os.path.exists(d)]
        if hasattr(os, "mkfifo"):
            kinds.append("fifo")
        return self.rng.choice(kinds), self.rng.randrange(len(self.readers))

    def __call__(self, case: tuple[str, int]) -> None:
        import threading  # noqa: PLC0415

        kind, k = case
        name, read, error = self.readers[k]
        self.n += 1
        writer = None
        if kind == "dir":
            path = self.dir
        elif kind == "empty":
            path = os.path.join(self.dir, "empty")
            open(path, "wb").close()
        elif kind == "fifo":
            path = os.path.join(self.dir, f"fifo{self.n}")
            os.mkfifo(path)
            size = self.rng.choice([0, 100, 1 << 16, 3 << 20])

            def feed() -> None:
                try:
                    with open(path, "wb") as fh:  # (blocks until a reader opens it)
                        fh.write(os.urandom(size))
                except OSError:
                    pass

            writer = threading.Thread(target=feed, daemon=True)
            writer.start()
        else:
            path = kind
        try:
            read(path)
        except error:
            pass
        finally:
            if writer is not None:
                for _ in range(200):  # a reader that refused without opening it: open the
                    if not writer.is_alive():  # pipe so the writer's open() returns
                        break
                    try:
                        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
                    except OSError:
                        pass
                    writer.join(0.02)
                os.unlink(path)


def targets(rng: random.Random) -> dict[str, tuple[Callable[[], Any], Callable[[Any], None]]]:
    """name -> (make one input, check it): the check raises only on a crash."""
    bases = npz_bases()
    reports = report_bases()
    special = SpecialFileChecker(rng)
    return {"parse": (lambda: paste_case(rng), check_paste),
            "state string": (lambda: state_case(rng), check_state),
            "workspace file": (lambda: workspace_case(rng), WorkspaceChecker()),
            "sweep .npz": (lambda: npz_case(rng, bases), check_npz),
            "gpu report": (lambda: report_case(rng, reports), ReportChecker()),
            "expression": (lambda: expr_case(rng), ExprChecker()),
            "batch file": (lambda: batch_case(rng), check_batch),
            "decode stdin": (lambda: stdin_case(rng), check_stdin),
            "deep JSON": (lambda: json_nesting_case(rng), check_json_nesting),
            "device/pipe": (special.make, special)}


#: Share of the inputs each reader gets in a long run (files cost more per input).
SHARES = {"parse": 0.45, "state string": 0.25, "workspace file": 0.05, "sweep .npz": 0.02,
          "gpu report": 0.02, "expression": 0.06, "batch file": 0.08, "decode stdin": 0.05,
          "deep JSON": 0.02, "device/pipe": 0.0003}


def fuzz(make: Callable[[], Any], check: Callable[[Any], None], k: int
         ) -> tuple[list[str], float]:
    """Check ``k`` inputs; (a line per crash, seconds)."""
    crashes: list[str] = []
    t0 = time.perf_counter()
    for _ in range(k):
        case = make()
        try:
            check(case)
        except Exception as exc:  # noqa: BLE001 - a crash: the reader let it escape
            crashes.append(f"{type(exc).__name__}: {exc!s:.200} on {case!r:.300}")
    return crashes, time.perf_counter() - t0


def run(n: int, seed: int, out: Callable[[str], None] = print,
        only: list[str] | None = None) -> int:
    """Fuzz ``n`` inputs in all (split by :data:`SHARES`, or evenly among ``only``); returns
    the number of crashes."""
    total = 0
    for name, (make, check) in targets(random.Random(seed)).items():
        if only and name not in only:
            continue
        k = max(1, int(n * SHARES[name])) if not only else max(1, n // len(only))
        crashes, dt = fuzz(make, check, k)
        for line in crashes[:5]:
            out(f"CRASH {name}: {line}")
        out(f"{name:15} {k:9d} inputs  {k / dt:10.0f} inputs/s  crashes = {len(crashes)}")
        total += len(crashes)
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="inputs in all (default 1M)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", action="append", default=None, choices=list(SHARES),
                    help="fuzz only this reader (repeatable); --n is then split evenly")
    args = ap.parse_args()
    t = time.perf_counter()
    crashes = run(args.n, args.seed, only=args.only)
    dt = time.perf_counter() - t
    print(f"total           {args.n:9d} inputs  {args.n / dt:10.0f} inputs/s  crashes = {crashes}"
          f"  ({dt:.0f} s, seed {args.seed})")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
