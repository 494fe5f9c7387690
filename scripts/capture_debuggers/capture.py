#!/usr/bin/env python3
"""Capture real gdb and lldb output of known float bit patterns as the paste corpus.

Builds probe.c (gcc -g -O0), probe_ext.c (clang: ext_vector_type) and probe_arm.c
(aarch64-linux-gnu-gcc, run by qemu-aarch64 under gdb-multiarch), runs them under gdb (batch mode, ``-x gdb_side.py``) and lldb
(its Python API, ``lldb_side.py``), each command of :mod:`cases` on its own, so a failing
command cannot stop the others, and writes one JSON file per output to ``tests/data/paste_corpus/<tool>/<name>.json``:
``tool``, ``tool_version``, ``command``, ``text`` (the exact output) and ``expect`` (the bits
it holds, from probe's own ``--manifest``, or a refusal where it holds no float). The
``*_echo`` cases hold the same output after its prompt and command line (``note`` says so).

Run with the system python3 (no project imports): ``python3 scripts/capture_debuggers/capture.py
[--out DIR] [--tool gdb|lldb]``. Linux/x86-64 only (gdb, lldb, gcc, clang,
gdb-multiarch, qemu-user, gcc-aarch64-linux-gnu from Debian).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import cases  # noqa: E402

ROOT = HERE.parent.parent
DEFAULT_OUT = ROOT / "tests" / "data" / "paste_corpus"
WIDTH = {"f16": 2, "f32": 4, "f64": 8, "bf16": 2}
#: commands whose output is also kept with the command line before it (``*_echo`` cases)
ECHOED = ("x/", "memory read", "register read", "print", "p/", "p ")
PACK = {"f16": "<e", "f32": "<f", "f64": "<d"}
UINT = {"f16": "<H", "f32": "<I", "f64": "<Q", "bf16": "<H"}


def build(tmp: Path, source: str = "probe.c", compiler: str = "gcc") -> Path:
    exe = tmp / Path(source).stem
    subprocess.run([compiler, "-g", "-O0", "-o", str(exe), str(HERE / source)], check=True)
    return exe


def _read_manifest(exe: Path) -> dict[str, dict]:
    m = json.loads(subprocess.run([str(exe), "--manifest"], check=True, capture_output=True,
                                  text=True).stdout)
    for k in m:
        m[k]["bits"] = [int(b, 16) for b in m[k]["bits"]]
        m[k]["formats"] = [m[k]["format"]] * len(m[k]["bits"])
    return m


def _arm_manifest(raw: dict) -> dict[str, dict]:
    """probe_arm's patterns, and v0 = farr, v1 = darr, v2 = harr."""
    m = {}
    for k, v in raw.items():
        bits = [int(b, 16) for b in v["bits"]]
        m[k] = {"format": v["format"], "bits": bits, "formats": [v["format"]] * len(bits)}
    m["v0"], m["v1"], m["v2"], m["v3"] = m["farr"], m["darr"], m["harr"], m["bfarr"]
    f = m["farr"]  # v4: farr[0..1], its top 64 bits zero
    m["v4"] = {"format": "f32", "bits": f["bits"][:2] + [0, 0], "formats": ["f32"] * 4}
    return m


def manifest(exe: Path) -> dict[str, dict]:
    m = _read_manifest(exe)

    def part(src, idx, fmt_of=None):
        return {"format": m[src]["format"], "bits": [m[src]["bits"][i] for i in idx],
                "formats": [m[src]["format"]] * len(idx)}

    m["lf"] = part("farr", [0, 3, 4, 5])
    m["ld"], m["lh"] = m["dthird"], m["hthird"]
    m["xmm0"] = part("farr", range(4))
    m["xmm1"] = part("darr", range(2))
    m["xmm2"] = part("harr", range(8))
    m["ymm3"] = part("farr", range(8))
    m["xmm4"] = part("bfarr", range(8))
    m["ymm5"] = part("bfarr", range(16))
    m["xmm4 as f16"] = dict(m["xmm4"], format="f16", formats=["f16"] * 8)  # (its v8_half)
    m["xmm6"] = {"format": "f32", "bits": m["farr"]["bits"][:2] + [0, 0], "formats": ["f32"] * 4}
    m["farr[3]"] = part("farr", [3])
    m["darr[2]"] = part("darr", [2])
    m["harr[1]"] = part("harr", [1])
    m["color.x"] = part("color", [0])
    m["xmm0+ymm3"] = part("farr", [0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7])
    acc = ["acc.acc0", "acc.c0", "acc.a1", "acc.f4", "acc.fade"]
    m["acc"] = {"format": "mixed", "bits": sum((m[k]["bits"] for k in acc), []),
                "formats": sum((m[k]["formats"] for k in acc), [])}
    return m


#: the AArch64 capture's tools (Debian: gcc-aarch64-linux-gnu, qemu-user, gdb-multiarch)
ARM_TOOLS = ("aarch64-linux-gnu-gcc", "qemu-aarch64", "gdb-multiarch")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_tool(tool: str, exe: Path, plan: list[dict], tmp: Path) -> tuple[str, list[str]]:
    pf, of = tmp / f"{tool}_plan.json", tmp / f"{tool}_out.json"
    pf.write_text(json.dumps(plan))
    env = dict(os.environ, CAPTURE_PLAN=str(pf), CAPTURE_OUT=str(of), LC_ALL="C.UTF-8")
    if tool == "gdb-aarch64":  # the program under qemu-user's gdb stub
        port = _free_port()
        qemu = subprocess.Popen(["qemu-aarch64", "-g", str(port), str(exe)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            env["CAPTURE_REMOTE"] = f"localhost:{port}"
            proc = subprocess.run(["gdb-multiarch", "-batch", "-nx", "-x",
                                   str(HERE / "gdb_side.py"), str(exe)],
                                  env=env, capture_output=True, text=True, timeout=120)
        finally:
            qemu.kill()
            qemu.wait(timeout=30)
        if not of.exists():
            raise SystemExit(f"gdb-multiarch wrote no output:\n{proc.stdout[-2000:]}\n"
                             f"{proc.stderr[-2000:]}")
        res = json.loads(of.read_text())
        return res["version"], res["outputs"]
    if tool == "gdb":
        cmd = ["gdb", "-batch", "-nx", "-x", str(HERE / "gdb_side.py"), str(exe)]
    else:
        env["PYTHONPATH"] = str(_lldb_package(tmp))
        servers = sorted(Path("/usr/lib").glob("llvm-*/bin/lldb-server"))
        if servers:  # (found relative to liblldb, which the package link moved)
            env["LLDB_DEBUGSERVER_PATH"] = str(servers[-1])
        cmd = ["/usr/bin/python3", str(HERE / "lldb_side.py"), str(exe)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    if not of.exists():
        raise SystemExit(f"{tool} wrote no output:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    res = json.loads(of.read_text())
    return res["version"], res["outputs"]


def _lldb_package(tmp: Path) -> Path:
    """A directory holding lldb's Python package. Debian's python3-lldb-14 installs the
    package (python3.11/dist-packages/lldb) with its ``_lldb`` link pointing nowhere, and
    the library under another directory (python3/dist-packages/lldb/_lldb.so): join them."""
    pkgs = sorted(Path("/usr/lib").glob("llvm-*/lib/python3*/dist-packages/lldb/__init__.py"))
    libs = [p for p in sorted(Path("/usr/lib").glob("llvm-*/lib/python3*/dist-packages/lldb/_lldb*.so"))
            if p.exists()]
    if not pkgs or not libs:
        raise SystemExit("lldb's Python package not found (apt install python3-lldb-14)")
    shim = tmp / "lldbpy" / "lldb"
    if shim.exists():  # (made for an earlier run of lldb)
        return shim.parent
    shim.mkdir(parents=True)
    for f in pkgs[-1].parent.iterdir():
        if not f.name.startswith("_lldb"):
            (shim / f.name).symlink_to(f)
    (shim / f"_lldb{sysconfig.get_config_var('EXT_SUFFIX')}").symlink_to(libs[-1].resolve())
    return shim.parent


def _as_float(fmt: str, bits: int) -> float:
    if fmt == "bf16":  # the top half of an f32 (struct has no bfloat16)
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return struct.unpack(PACK[fmt], struct.pack(UINT[fmt], bits))[0]


def _exact_in(fmt: str, value: float) -> int | None:
    """The pattern of ``value`` in ``fmt`` when it is exact there, else None."""
    if value != value:
        return None
    if fmt == "bf16":  # an f32 whose low 16 bits are zero
        b32 = _exact_in("f32", value)
        return b32 >> 16 if b32 is not None and b32 & 0xFFFF == 0 else None
    try:
        b = struct.unpack(UINT[fmt], struct.pack(PACK[fmt], value))[0]
    except (OverflowError, struct.error):
        return None
    return b if _as_float(fmt, b) == value else None


QNAN = {"f16": 0x7E00, "f32": 0x7FC00000, "f64": 0x7FF8000000000000, "bf16": 0x7FC0}


def _is_nan(fmt: str, bits: int) -> bool:
    v = _as_float(fmt, bits)
    return v != v


def _nearest(fmt: str, word: str) -> int:
    """The pattern nearest to a printed decimal (``nan``/``inf`` included) in ``fmt``."""
    w = word.lower()
    if "nan" in w:
        return QNAN[fmt]
    return struct.unpack(UINT[fmt], struct.pack(PACK[fmt], float(w)))[0]


def _lanes(fmts: list[str], bits: list[int], fmt: str) -> list[int]:
    raw = b"".join(struct.pack(UINT[f], b) for f, b in zip(fmts, bits))
    w = WIDTH[fmt]
    return [struct.unpack(UINT[fmt], raw[k:k + w])[0] for k in range(0, len(raw), w)]


def _reading(fmt: str, bits: list[int]) -> dict:
    return {"format": fmt, "bits": [f"0x{b:0{WIDTH.get(fmt, 4) * 2}x}" for b in bits]}


def expect_of(spec, m: dict, text: str) -> dict:
    if isinstance(spec, cases.R):
        return {"refused": True, "why": spec.why}
    src = m[spec.var]
    bits = src["bits"][spec.start:spec.stop]
    fmts = src["formats"][spec.start:spec.stop]
    if len(set(fmts)) == 1:
        exp = _reading(fmts[0], bits)
    else:
        exp = {"format": "mixed", "formats": fmts,
               "bits": [f"0x{b:0{WIDTH[f] * 2}x}" for f, b in zip(fmts, bits)]}
    others = []
    if spec.how == "dec6":  # the printed decimals, not the variable: nearest patterns
        words = re.findall(r"\{([^}]*)\}", text)
        printed = " ".join(words).split()
        fmt = fmts[0]
        bits = [_nearest(fmt, w) for w in printed]
        exp = _reading(fmt, bits)
        exp["lossy"] = "lldb's vector formats print 6 significant digits"
        for w in ("f16", "f32", "f64"):
            try:
                if w != fmt:
                    others.append(_reading(w, [_nearest(w, x) for x in printed]))
            except OverflowError:  # (a value beyond that width: no such reading)
                pass
        exp["other_readings"] = others
        return exp
    if any(_is_nan(f, b) for f, b in zip(fmts, bits)) and text.count("NaN"):
        bits = [QNAN[f] if _is_nan(f, b) else b for f, b in zip(fmts, bits)]
        exp = _reading(fmts[0], bits)
        exp["lossy"] = "lldb prints NaN without its payload or sign"
    if spec.how == "dec" and len(set(fmts)) == 1:
        values = [_as_float(fmts[0], b) for b in bits]
        for w in ("f16", "f32", "f64"):
            if w != fmts[0]:
                alt = [_exact_in(w, v) for v in values]
                if all(a is not None for a in alt):
                    others.append(_reading(w, alt))  # type: ignore[arg-type]
    elif spec.how == "low64" and ".uint128" not in text:  # (echoed: the command says 128
        # bits) the number holds the low 64 bits, leading zeros dropped
        low = sum(b << (WIDTH[f] * 8 * k) for k, (f, b) in enumerate(zip(fmts, bits)))
        low &= (1 << 64) - 1
        exp = _reading("f64", [low])
        for w in ("f16", "f32"):
            others.append(_reading(w, _lanes(["f64"], [low], w)))
        for w in ("f16", "f32", "f64"):
            others.append(_reading(w, _lanes(fmts, bits, w)))
    elif spec.how in ("reg", "low64"):
        for w in ("f16", "f32", "f64"):
            if {w} != set(fmts):
                others.append(_reading(w, _lanes(fmts, bits, w)))
    elif spec.how == "hex" and len(set(fmts)) == 1:
        # gdb's p/x drops leading zeros: where every printed pattern is shorter than the
        # width, the digits name none and the same numbers in another width are readings
        if fmts[0] == "bf16":  # 16-bit patterns: f16 or bf16, the digits cannot say
            others.append(_reading("f16", bits))
        digits = [len(h) for h in re.findall(r"0x([0-9a-f]+)", text, re.IGNORECASE)]
        if digits and max(digits) < WIDTH[fmts[0]] * 2:
            for w in ("f16", "f32", "f64"):
                if w != fmts[0] and all(b < 1 << (8 * WIDTH[w]) for b in bits):
                    others.append(_reading(w, bits))
    if spec.how == "bits":  # 16-bit lanes as integers: f16 or bf16, the text cannot say
        others.append(_reading("f16" if fmts[0] == "bf16" else "bf16", bits))
    if spec.how in ("int16", "bits"):
        for signed in (True, False):
            ints = [b - 0x10000 if signed and b & 0x8000 else b for b in bits]
            if all(re.search(rf"(?<![\w.-]){i}(?![\w.])", text) for i in ints):
                alt = [_exact_in("f32", float(i)) for i in ints]
                others.append(_reading("f32", alt))  # type: ignore[arg-type]
                break
    if others:
        exp["other_readings"] = others
    return exp


_ADDR = re.compile(r"0x0000(?:5555|7fff)[0-9a-f]{8}|0x(?:5555|7fff)[0-9a-f]{8}")


def normalized(text: str) -> str:
    """``text`` with process addresses (pids, ASLR-free but build-dependent) made neutral,
    for comparing two captures."""
    text = _ADDR.sub("0xADDR", text)
    return re.sub(r"(?i)(Process )\d+", r"\g<1>PID", text)


def capture(out_dir: Path, tools: list[str]) -> int:
    n = 0
    with tempfile.TemporaryDirectory() as td:  # (the .json of these tools are rewritten)
        tmp = Path(td)
        exe = build(tmp)
        m = manifest(exe)
        runs = [(tool, exe, m, cases.gdb_cases() if tool == "gdb" else cases.lldb_cases())
                for tool in tools]
        if "lldb" in tools:  # clang's ext_vector_type (float4, half4): clang's build
            ext = build(tmp, "probe_ext.c", "clang")
            runs.append(("lldb", ext, _read_manifest(ext), cases.lldb_ext_cases()))
        if "gdb" in tools:  # AArch64's registers: a static build run by qemu-user
            missing = [t for t in ARM_TOOLS if shutil.which(t) is None]
            if missing:
                raise SystemExit(f"the AArch64 capture needs {', '.join(missing)} (Debian: "
                                 "gcc-aarch64-linux-gnu, qemu-user, gdb-multiarch)")
            arm = tmp / "probe_arm"
            subprocess.run(["aarch64-linux-gnu-gcc", "-g", "-O0", "-static", "-o", str(arm),
                            str(HERE / "probe_arm.c")], check=True)
            ma = json.loads(subprocess.run(["qemu-aarch64", str(arm), "--manifest"], check=True,
                                           capture_output=True, text=True).stdout)
            runs.append(("gdb-aarch64", arm, _arm_manifest(ma), cases.gdb_arm_cases()))
        for tool in tools:
            d = out_dir / tool
            d.mkdir(parents=True, exist_ok=True)
            for old in d.glob("*.json"):  # a case taken out of cases.py leaves no file
                old.unlink()
        for tool, exe, m, table in runs:
            plan = [{"stop": stop, "command": cmd} for stop, _, cmd, _ in table]
            version, outputs = run_tool(tool, exe, plan, tmp)
            tool = tool.split("-")[0]  # (gdb-aarch64: gdb-multiarch, in gdb's corpus)
            d = out_dir / tool
            for (stop, name, cmd, spec), text in zip(table, outputs):
                doc = {"tool": tool, "tool_version": version, "command": cmd, "text": text,
                       "expect": expect_of(spec, m, text)}
                (d / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n")
                n += 1
                if cmd.startswith(ECHOED) and not text.startswith("error"):
                    # as an interactive session shows it: the prompt and command line, then
                    # the output (a paste often takes both; the command's letters are cues)
                    echoed = f"({tool}) {cmd}\n{text}"
                    echo = dict(doc, text=echoed, expect=expect_of(spec, m, echoed),
                                note="the prompt and command line prepended, as a terminal "
                                     "shows them")
                    (d / f"{name}_echo.json").write_text(json.dumps(echo, indent=1) + "\n")
                    n += 1
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--tool", choices=["gdb", "lldb"], action="append")
    a = ap.parse_args()
    n = capture(a.out, a.tool or ["gdb", "lldb"])
    print(f"captured {n} outputs into {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
