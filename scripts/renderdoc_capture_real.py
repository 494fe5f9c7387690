"""Capture RenderDoc's real clipboard and CSV text for known bit patterns and write one JSON
case per text to ``tests/data/paste_corpus/renderdoc/real_*.json``.

How: a small OpenGL draw (moderngl, llvmpipe under Xvfb) reads a vertex buffer of known
float32 patterns and is captured by RenderDoc's in-app API under ``renderdoccmd capture``;
Debian's qrenderdoc 1.24 replays it with a ``--ui-py`` script that opens the mesh viewer or
a buffer viewer with a buffer format (``xint bits; float f; half2 h;``...); xdotool clicks
the first row, presses Ctrl+C and Down row by row (xclip reads the clipboard) and clicks the
Export button, typing the CSV file name into its dialog. Expected patterns come from the
buffer's bytes and the format (nearest pattern to the printed decimal, by
``renderdoc_paste_corpus.nearest_bits``), never from fpinspector.

Linux only, by hand (not in CI: a GUI under Xvfb, clicks at fixed places of a 1600x1000
screen). Needs: Xvfb, xdotool, xclip, qrenderdoc and renderdoccmd 1.24 (Debian), the
project's .venv (moderngl). Vulkan captures are not used: qrenderdoc 1.24 crashes replaying
them on lavapipe (Mesa 22.3).

Usage: .venv/bin/python scripts/renderdoc_capture_real.py [--only VIEW ...]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from renderdoc_paste_corpus import OUT, nearest_bits  # noqa: E402

TOOL_VERSION = "qrenderdoc 1.24 (Debian 1.24+dfsg-1+deb12u1), OpenGL capture replayed on llvmpipe"
DISPLAY = ":93"
#: The vertex buffer: 12 vertices of (pos float4, uv float2), every class of f32 pattern.
PATTERNS = [
    0x3F800000, 0xC0200000, 0x3DCCCCCD, 0x40490FDB, 0x358637BD, 0x7F7FFFFF,
    0x000116C2, 0x00000001, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
    0x7F800001, 0x4B3C614E, 0x3727C5AC, 0x477FE000, 0x3EAAAAAB, 0xBF000000,
    0x42F6E979, 0x00800000, 0x007FFFFF, 0xFFC00000, 0x3F7FFFFF, 0x4F000000,
    0x33D6BF95, 0xC479C000, 0x3A83126F, 0x40000000, 0x41200000, 0xC2C80000,
    0x3C23D70A, 0x461C4000, 0x49742400, 0xCB189680, 0x2EDBE6FF, 0x3F000001,
    0x40400000, 0x40800000, 0x3E800000, 0x3F400000, 0xBDCCCCCD, 0x447A0000,
    0x00000000, 0x34000000, 0x38D1B717, 0x4CBEBC20, 0xB8D1B717, 0x3F8CCCCD,
    0x3FC00000, 0x40A00000, 0x40C00000, 0x40E00000, 0x41000000, 0x41100000,
    0x3F99999A, 0x3FB33333, 0x3FCCCCCD, 0x3FE66666, 0x40066666, 0x400CCCCD,
    0x7F000000, 0x01000000, 0x3DFCD6E9, 0x3E4CCCCD, 0xBE99999A, 0x3ECCCCCD,
    0x3F19999A, 0x3F333333, 0x3F4CCCCD, 0x3F666666, 0xC1A00000, 0x42280000,
]
SCREEN = (1600, 1000)
FIRST_ROW = {"mesh": (409, 291), "buffer": (415, 274)}  # Element / VTX cell of row 0
EXPORT_BUTTON = {"mesh": (480, 222), "buffer": (480, 222)}

#: A buffer format whose fixed part (all but the unbounded ``tail[]``) shows as
#: BufferViewer's fixed-variable tree, the constant-buffer view: name -> (kind, byte offset
#: as RenderDoc packs it and shows in its Byte Offset column, component count).
CB_FORMAT = ("float4 tint; float exposure; float3 c0; float weights[4]; xint2 mask; "
             "half4 hv; double dv; uint2 counts; float4 tail[];")
CB_LAYOUT = {"tint": ("f32", 0, 4), "exposure": ("f32", 16, 1), "c0": ("f32", 32, 3),
             "weights[0]": ("f32", 44, 1), "weights[1]": ("f32", 48, 1),
             "weights[2]": ("f32", 52, 1), "weights[3]": ("f32", 56, 1),
             "mask": ("xint", 64, 2), "hv": ("f16", 72, 4), "dv": ("f64", 80, 1)}
#: integer entries: offered as integer codes (uint -> u32), never read as floats
CB_INT_LAYOUT = {"counts": ("u32", 88, 2)}
CB_TREE_ROW = (438, 298)  # the first entry (tint) of the fixed-variable tree

UI_SCRIPT = r'''
import os
import renderdoc as rd
import qrenderdoc as qrd

def find_draw(actions):
    for a in actions:
        if a.flags & rd.ActionFlags.Drawcall:
            return a
        r = find_draw(a.children)
        if r is not None:
            return r
    return None

class Viewer(qrd.CaptureViewer):
    def __init__(self, ctx):
        qrd.CaptureViewer.__init__(self)
        self.ctx, self.done = ctx, False
    def OnCaptureLoaded(self):
        draws = []
        def walk(actions):
            for a in actions:
                if a.flags & rd.ActionFlags.Drawcall:
                    draws.append(a)
                walk(a.children)
        walk(self.ctx.CurRootActions())
        d = draws[int(os.environ.get("RDDRAW", "0"))]
        self.ctx.SetEventID([], d.eventId, d.eventId)
    def OnCaptureClosed(self):
        pass
    def OnSelectedEventChanged(self, eid):
        pass
    def OnEventChanged(self, eid):
        if self.done:
            return
        self.done = True
        if os.environ["RDMODE"] == "mesh":
            self.ctx.ShowMeshPreview()
            self.ctx.GetMeshPreview().ShowMeshData(rd.MeshDataStage.VSIn)
        else:
            bufs = [b for b in self.ctx.GetBuffers() if b.length == int(os.environ["RDLEN"])]
            bv = self.ctx.ViewBuffer(0, 0, bufs[0].resourceId, os.environ["RDFMT"])
            self.ctx.AddDockWindow(bv.Widget(), qrd.DockReference.MainToolArea, None)
            if os.environ.get("RDPAGE"):
                bv.ScrollToRow(int(os.environ["RDPAGE"]), rd.MeshDataStage.VSIn)
        open(os.environ["RDREADY"], "w").write("1")

pyrenderdoc.AddCaptureViewer(Viewer(pyrenderdoc))
'''

INDICES = [0, 1, 2, 0xFFFF, 3, 4, 5, 11, 10, 9]
BIG_ROWS = 10240
DRAW_SCRIPT = f"INDICES = {INDICES}\nBIG_ROWS = {BIG_ROWS}\n" + r'''
import ctypes, os, sys
import numpy as np
import moderngl
lib = ctypes.CDLL("librenderdoc.so", mode=os.RTLD_NOLOAD | os.RTLD_GLOBAL)
api = ctypes.c_void_p()
lib.RENDERDOC_GetAPI.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
assert lib.RENDERDOC_GetAPI(10401, ctypes.byref(api)) == 1
table = ctypes.cast(api, ctypes.POINTER(ctypes.c_void_p * 30)).contents
# RENDERDOC_API_1_4_1: StartFrameCapture is entry 19, EndFrameCapture entry 21
start = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)(table[19])
end = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p)(table[21])
ctx = moderngl.create_standalone_context(require=330)
data = np.array([int(x, 16) for x in sys.argv[1].split(",")], dtype=np.uint32)
vbo = ctx.buffer(data.tobytes())
prog = ctx.program(vertex_shader="""#version 330
in vec4 pos; in vec2 uv; out vec2 t;
void main() { t = uv; gl_Position = vec4(pos.xy * 0.001, 0.0, 1.0); }""",
    fragment_shader="""#version 330
in vec2 t; out vec4 c; void main() { c = vec4(t, 0.0, 1.0); }""")
vao = ctx.vertex_array(prog, [(vbo, "4f 2f", "pos", "uv")])
fbo = ctx.simple_framebuffer((64, 64))
fbo.use()
start(None, None)
fbo.clear(0, 0, 0, 1)
vao.render(moderngl.TRIANGLES, vertices=len(data) // 6)
# an indexed draw with primitive restart (16-bit indices, fixed restart index 0xFFFF)
ctx.enable_direct(0x8D69)  # GL_PRIMITIVE_RESTART_FIXED_INDEX
ibo = ctx.buffer(np.array(INDICES, dtype=np.uint16).tobytes())
vao2 = ctx.vertex_array(prog, [(vbo, "4f 2f", "pos", "uv")], index_buffer=ibo,
                        index_element_size=2)
vao2.render(moderngl.TRIANGLE_STRIP, vertices=len(INDICES))
# a buffer of more rows than the buffer viewer shows on one page (10000)
big = ctx.buffer(np.resize(data, BIG_ROWS * 4).astype(np.uint32).tobytes())
prog3 = ctx.program(vertex_shader="""#version 330
in vec4 p; void main() { gl_Position = vec4(p.xy * 0.001, 0.0, 1.0); }""",
    fragment_shader="""#version 330
out vec4 c; void main() { c = vec4(1.0); }""")
ctx.vertex_array(prog3, [(big, "4f", "p")]).render(moderngl.POINTS, vertices=BIG_ROWS)
ctx.finish()
assert end(None, None) == 1
'''


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120, **kw)


def xdo(*args: str) -> None:
    run(["xdotool", *args], env={**os.environ, "DISPLAY": DISPLAY})


def clipboard() -> str:
    return run(["xclip", "-o", "-selection", "clipboard"],
               env={**os.environ, "DISPLAY": DISPLAY}).stdout


# --- expected patterns from the buffer's bytes ----------------------------------------

def raw_bytes() -> bytes:
    return b"".join(struct.pack("<I", p) for p in PATTERNS)


def element_values(fields: list[tuple[str, int]], data: bytes, row: int) -> list[tuple[str, int]]:
    """(kind, raw pattern) in column order for one row of a tightly packed struct of
    ``fields`` (kind f32/f16/f64/xint, count)."""
    size = {"f32": 4, "xint": 4, "f16": 2, "f64": 8, "i32": 4, "u32": 4}
    stride = sum(size[k] * n for k, n in fields)
    off = row * stride
    out = []
    for kind, n in fields:
        for _ in range(n):
            w = size[kind]
            out.append((kind, int.from_bytes(data[off:off + w], "little")))
            off += w
    return out


def expect_of(cells: list[str], vals: list[tuple[str, int]], fmt_arg: str | None) -> dict:
    if vals and all(kind in ("i32", "u32") for kind, _ in vals):  # int/uint columns only:
        return {"format": vals[0][0], "formats": [k for k, _ in vals],  # integer codes
                "bits": [raw for _, raw in vals], "codes": True}
    fmts, bits, exact = [], [], True
    for text, (kind, raw) in zip(cells, vals):
        if kind == "xint":
            f, b = "f32", raw
        else:
            f = fmt_arg or "f32"
            b = nearest_bits(text, f)
            exact = exact and (f == kind and b == raw)
        fmts.append(f)
        bits.append(b)
    return {"format": sorted(set(fmts))[0] if len(set(fmts)) == 1 else sorted(set(fmts)),
            "formats": fmts, "bits": bits, "exact": exact}


def cb_values(names: list[str], data: bytes) -> list[tuple[str, int]]:
    """(kind, raw) of the named fixed variables' components, in order."""
    size = {"f32": 4, "xint": 4, "f16": 2, "f64": 8}
    out = []
    for name in names:
        kind, off, n = CB_LAYOUT[name]
        w = size[kind]
        out += [(kind, int.from_bytes(data[off + i * w:off + (i + 1) * w], "little"))
                for i in range(n)]
    return out


def cb_case(command: str, text: str, data: bytes) -> dict:
    """A constant-buffer text's case: the entries it names (CB_LAYOUT gives their bytes);
    the Type column names half and double, so those values are expected in f16 / f64
    without a format from the user."""
    names = [re.split(r"[,\s]", line.strip(), maxsplit=1)[0] for line in text.splitlines()]
    vals = cb_values([n for n in names if n in CB_LAYOUT], data)
    codes = [(kind, int.from_bytes(data[off + 4 * i:off + 4 * i + 4], "little"))
             for n in names if n in CB_INT_LAYOUT
             for kind, off, count in [CB_INT_LAYOUT[n]] for i in range(count)]
    if not vals and codes:
        return {"tool": "renderdoc", "tool_version": TOOL_VERSION, "command": command,
                "text": text, "expect": {"format": codes[0][0], "formats": [k for k, _ in codes],
                                         "bits": [b for _, b in codes], "codes": True}}
    if not vals:
        return {"tool": "renderdoc", "tool_version": TOOL_VERSION, "command": command,
                "text": text, "expect": {"refused": True, "why": "no float value: an array "
                                         "parent or an integer (uint) entry"}}
    fmts, bits, exact = [], [], True
    values = []
    for line in text.splitlines():
        if line.startswith("Name,"):
            continue
        m = re.search(r'"([^"]*)"', line)
        if m:
            values.append(m.group(1))
        else:
            parts = line.split()
            if len(parts) > 2 and parts[0] in CB_LAYOUT:
                values.append(" ".join(parts[1:-2]))
    cells = [c.strip() for v in values for c in v.split(",") if c.strip()]
    cells = [c for c in cells if not c.isdigit() or len(c) == 8]
    for text_cell, (kind, raw) in zip(cells, vals):
        if kind == "xint":
            f, b = "f32", raw
        else:
            f = "f16" if kind == "f16" else "f64" if kind == "f64" else "f32"
            b = nearest_bits(text_cell, f)
            exact = exact and b == raw
        fmts.append(f)
        bits.append(b)
    expect = {"format": sorted(set(fmts))[0] if len(set(fmts)) == 1 else sorted(set(fmts)),
              "formats": fmts, "bits": bits, "exact": exact}
    if codes:
        expect["integer_codes"] = [[k, b] for k, b in codes]
    return {"tool": "renderdoc", "tool_version": TOOL_VERSION, "command": command, "text": text,
            "expect": expect}


def copy_cells(text: str, nlabels: int) -> list[str]:
    """Value cells of a copied row or CSV body, in text order (for the expectation only): a
    line that opens with a digit opens a row, its first ``nlabels`` cells are Element (or
    VTX and IDX); a line that opens with a blank or '-' continues a matrix cell."""
    cells: list[str] = []
    for line in text.splitlines():
        toks = re.findall(r"[^\s,]+", line)
        cells += toks[nlabels:] if line[:1].isdigit() else toks
    return [c for c in cells if c not in ("Restart", "...", "--", "---")]


def wait_for_file(path: Path) -> str:
    """The exported file once its writer thread is done: ends in a newline and stays the
    same size for two seconds."""
    last = -1
    for _ in range(120):
        size = path.stat().st_size if path.exists() else -1
        if size > 0 and size == last and path.read_text().endswith("\n"):
            return path.read_text()
        last = size
        time.sleep(2)
    raise RuntimeError(f"{path} was not written")


# --- the views ------------------------------------------------------------------------

VIEWS = [
    # name, mode, buffer format, fields, rows to copy, nlabels, inspector format
    ("mesh_vsin", "mesh", "", [("f32", 4), ("f32", 2)], 12, 2, None),
    ("buffer_xint_float_half2", "buffer", "xint bits; float f; half2 h;",
     [("xint", 1), ("f32", 1), ("f16", 2)], 24, 1, None),
    ("buffer_float4", "buffer", "float4 v;", [("f32", 4)], 18, 1, None),
    ("buffer_xint4", "buffer", "xint4 v;", [("xint", 4)], 4, 1, None),
    ("buffer_half4", "buffer", "half4 h;", [("f16", 4)], 6, 1, "f16"),
    ("buffer_double2", "buffer", "double2 d;", [("f64", 2)], 6, 1, "f64"),
    ("buffer_float2x2", "buffer", "float2x2 m;", [("f32", 4)], 4, 1, None),
    # integer columns only: a Ctrl+C row holds no float, its cells are integer codes
    ("buffer_int2_uint", "buffer", "int2 i; uint u;", [("i32", 2), ("u32", 1)], 6, 1, None),
    # uint columns only: nothing in a row marks it as RenderDoc's (no sign gap, no float)
    ("buffer_uint2", "buffer", "uint2 u;", [("u32", 2)], 4, 1, None),
]
#: views also copied after Shift+Down from the first row: the buffer and mesh tables select
#: one row (BufferViewer.ui: SingleSelection, SelectRows), so the copy holds the current
#: row only, as one row's copy does (no padded several-row copy exists)
MULTI_ROWS = {"buffer_int2_uint": (2, 4), "buffer_uint2": (2, 4)}
#: why a row of uint cells only is offered, not read: nothing in it is RenderDoc's mark
UINT_ONLY = ("a row of uint cells has no RenderDoc mark (no sign gap, no float, no header): "
             "it may be typed numbers")


def _only(fields: list[tuple[str, int]], case: dict) -> dict:
    """A Ctrl+C row of uint cells only: its codes are expected on offer (``offered_only``)."""
    if {k for k, _ in fields} == {"u32"}:
        case["expect"]["offered_only"] = UINT_ONLY
    return case


def _save(name: str, case: dict) -> None:
    (OUT / f"real_{name}.json").write_text(json.dumps(case, indent=1, ensure_ascii=True) + "\n")


def capture_cbuffer(work: Path, env: dict, cap: Path, data: bytes) -> int:
    """The fixed-variable tree (RDTreeView): Ctrl+C of each entry, of an array's elements,
    of four entries at once, and its Export to CSV."""
    n = 0
    with _viewer(work, env, cap, "cbuffer", RDMODE="buffer", RDFMT=CB_FORMAT,
                 RDLEN=str(len(data))):
        _click(CB_TREE_ROW)
        top = ["tint", "exposure", "c0", "weights", "mask", "hv", "dv", "counts"]
        for name in top:
            _save(f"cbuffer_tree_{name}_ctrl_c",
                  cb_case("constant buffer (fixed variables) Ctrl+C (one entry)", _copy(), data))
            n += 1
            xdo("key", "Down")
            time.sleep(0.3)
        for _ in range(4):  # from counts (the last entry) back up to weights
            xdo("key", "Up")
        xdo("key", "Right")  # expand the array
        time.sleep(0.5)
        for i in range(4):
            xdo("key", "Down")
            time.sleep(0.3)
            _save(f"cbuffer_tree_weights{i}_ctrl_c",
                  cb_case("constant buffer (fixed variables) Ctrl+C (an array element)", _copy(),
                          data))
            n += 1
        xdo("key", "Home")
        xdo("key", "shift+Down", "shift+Down", "shift+Down")
        time.sleep(0.3)
        _save("cbuffer_tree_four_entries_ctrl_c",
              cb_case("constant buffer (fixed variables) Ctrl+C (four entries)", _copy(), data))
        n += 1
        _save("cbuffer_csv", cb_case("constant buffer (fixed variables) Export to CSV",
                                     _export_csv(EXPORT_BUTTON["buffer"], work / "cbuffer.csv"),
                                     data))
        n += 1
    return n


@contextlib.contextmanager
def _viewer(work: Path, env: dict, cap: Path, name: str, **extra: str) -> Iterator[None]:
    """qrenderdoc on the capture, its ui.py opening the view ``extra`` names (RDMODE,
    RDFMT, RDLEN, ...), until the block ends."""
    ready = work / f"ready-{name}"
    qrd = subprocess.Popen(["qrenderdoc", "--ui-py", str(work / "ui.py"), str(cap)],
                           env={**env, **extra, "RDREADY": str(ready)},
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(120):
            if ready.exists():
                break
            time.sleep(0.5)
        else:
            raise RuntimeError(f"qrenderdoc did not open the {name} view")
        time.sleep(3)
        yield
    finally:
        qrd.terminate()
        qrd.wait(timeout=30)


def _click(at: tuple[int, int]) -> None:
    """Click a row (or a button) of the window and let the view settle."""
    xdo("mousemove", str(at[0]), str(at[1]), "click", "1")
    time.sleep(0.7)


def _copy() -> str:
    """Ctrl+C of the selection, as the clipboard then holds it."""
    xdo("key", "ctrl+c")
    time.sleep(0.5)
    return clipboard()


def _export_csv(button: tuple[int, int], csv: Path) -> str:
    """The view's Export to CSV into ``csv`` (its file dialog answered by typing the path),
    and the file's text once written."""
    xdo("mousemove", str(button[0]), str(button[1]), "click", "1")
    time.sleep(1.5)
    xdo("type", "--delay", "20", str(csv))
    xdo("key", "Return")
    return wait_for_file(csv)


def _rows_case(command: str, text: str, nlabels: int, vals: list[tuple[str, int]]) -> dict:
    """A Ctrl+C row or a CSV export (its header line is skipped for the cells)."""
    cells = copy_cells(text.split("\n", 1)[1] if command.endswith("CSV") else text, nlabels)
    if not cells:
        return {"tool": "renderdoc", "tool_version": TOOL_VERSION, "command": command,
                "text": text, "expect": {"refused": True,
                                         "why": "a restart or paged '...' row: no value"}}
    return {"tool": "renderdoc", "tool_version": TOOL_VERSION, "command": command, "text": text,
            "expect": expect_of(cells, vals, None)}


def capture_restart_and_paging(work: Path, env: dict, cap: Path, data: bytes) -> int:
    """The mesh viewer of an indexed draw with primitive restart (rows and CSV), and a
    buffer of more rows than one page (10000) viewed on its second page."""
    n = 0
    fields = [("f32", 4), ("f32", 2)]
    with _viewer(work, env, cap, "restart", RDMODE="mesh", RDDRAW="1"):
        _click(FIRST_ROW["mesh"])
        for r, idx in enumerate(INDICES):
            vals = [] if idx == 0xFFFF else element_values(fields, data, idx)
            _save(f"mesh_indexed_restart_row{r}_ctrl_c",
                  _rows_case("mesh viewer (VS In, indexed draw, primitive restart) Ctrl+C "
                             "(one row)", _copy(), 2, vals))
            n += 1
            xdo("key", "Down")
            time.sleep(0.3)
        text = _export_csv(EXPORT_BUTTON["mesh"], work / "restart.csv")
        vals = [v for idx in INDICES if idx != 0xFFFF for v in element_values(fields, data, idx)]
        _save("mesh_indexed_restart_csv",
              _rows_case("mesh viewer (VS In, indexed draw, primitive restart) Export to CSV",
                         text, 2, vals))
        n += 1
    big = b"".join(struct.pack("<I", PATTERNS[i % len(PATTERNS)]) for i in range(BIG_ROWS * 4))
    with _viewer(work, env, cap, "paged", RDMODE="buffer", RDFMT="float4 v;",
                 RDLEN=str(len(big)), RDPAGE="10000"):
        _click(FIRST_ROW["buffer"])
        for key in ("", "Up", "Down", "Down", "Down", "ctrl+End", "Up"):
            if key:
                xdo("key", key)
                time.sleep(0.4)
            text = _copy()
            first = text.split()[0] if text.split() else ""
            vals = (element_values([("f32", 4)], big, int(first)) if first.isdigit() else [])
            label = first if first.isdigit() else "paged"
            _save(f"buffer_page2_{label}_ctrl_c",
                  _rows_case("buffer viewer, second page of 10240 rows, Ctrl+C (one row)",
                             text, 1, vals))
            n += 1
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", default=[],
                    help="capture only these views (mesh_vsin, buffer_float4, ..., cbuffer)")
    only = set(ap.parse_args().only)
    for tool in ("Xvfb", "xdotool", "xclip", "qrenderdoc", "renderdoccmd"):
        if shutil.which(tool) is None:
            print(f"needs {tool} (Debian package)")
            return 2
    work = Path(tempfile.mkdtemp(prefix="rdreal-"))
    home = work / "home" / ".local" / "share" / "qrenderdoc"
    home.mkdir(parents=True)
    (home / "UI.config").write_text(json.dumps(
        {"Analytics_TotalOptOut": True, "CheckUpdate_AllowChecks": False,
         "Tips_HasSeenFirst": True, "rdocConfigData": 1}))
    xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    written = 0
    try:
        time.sleep(1.5)
        env = {**os.environ, "DISPLAY": DISPLAY, "HOME": str(work / "home")}
        (work / "draw.py").write_text(DRAW_SCRIPT)
        (work / "ui.py").write_text(UI_SCRIPT)
        pats = ",".join(f"{p:08x}" for p in PATTERNS)
        run(["renderdoccmd", "capture", "-w", "-c", str(work / "cap"), sys.executable,
             str(work / "draw.py"), pats], env=env, cwd=work)
        cap = next(work.glob("cap*.rdc"))
        data = raw_bytes()
        for name, mode, fmt, fields, nrows, nlabels, fmt_arg in VIEWS:
            if only and name not in only:
                continue
            view = f"{'mesh viewer (VS In)' if mode == 'mesh' else 'buffer viewer'}"
            shown = f"{' format: ' + fmt if fmt else ''}"
            with _viewer(work, env, cap, name, RDMODE=mode, RDFMT=fmt, RDLEN=str(len(data))):
                _click(FIRST_ROW[mode])
                for row in range(nrows):
                    text = _copy()
                    vals = element_values(fields, data, row)
                    case = {"tool": "renderdoc", "tool_version": TOOL_VERSION,
                            "command": f"{view} Ctrl+C (one row){shown}", "text": text,
                            "expect": expect_of(copy_cells(text, nlabels), vals, fmt_arg)}
                    if fmt_arg:
                        case["format_arg"] = fmt_arg
                    _save(f"{name}_row{row}_ctrl_c", _only(fields, case))
                    written += 1
                    xdo("key", "Down")
                    time.sleep(0.3)
                for count in MULTI_ROWS.get(name, ()):
                    _click(FIRST_ROW[mode])
                    for _ in range(count - 1):
                        xdo("key", "shift+Down")
                        time.sleep(0.3)
                    text = _copy()
                    if "\n" in text.strip():
                        raise RuntimeError(f"several rows copied: {text!r}")
                    vals = element_values(fields, data, count - 1)
                    _save(f"{name}_shift_down{count - 1}_ctrl_c",
                          _only(fields, {"tool": "renderdoc", "tool_version": TOOL_VERSION,
                                         "command": f"{view} Shift+Down x{count - 1} from row 0, "
                                         f"then Ctrl+C (one row selected){shown}", "text": text,
                                         "expect": expect_of(copy_cells(text, nlabels), vals,
                                                             fmt_arg)}))
                    written += 1
                text = _export_csv(EXPORT_BUTTON[mode], work / f"{name}.csv")
                body = text.split("\n", 1)[1]
                rows = sum(1 for line in body.splitlines() if line[:1].isdigit())
                allvals = [v for row in range(rows) for v in element_values(fields, data, row)]
                cells = copy_cells(body, nlabels)
                case = {"tool": "renderdoc", "tool_version": TOOL_VERSION,
                        "command": f"{view} Export to CSV{shown}",
                        "text": text, "expect": expect_of(cells, allvals, fmt_arg)}
                if fmt_arg:
                    case["format_arg"] = fmt_arg
                _save(f"{name}_csv", case)
                written += 1
        if not only or "cbuffer" in only:
            written += capture_cbuffer(work, env, cap, data)
        if not only or "restart" in only:
            written += capture_restart_and_paging(work, env, cap, data)
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    print(f"{written} real RenderDoc texts written in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
