"""The RenderDoc extension "Send to fpinspector" (fpinspector/resources/renderdoc): what can
run without qrenderdoc's UI. RenderDoc's own Python module (python3-renderdoc 1.24) gives
the real ResourceFormat, VertexInputAttribute, BoundVBuffer and TextureDescription objects;
qrenderdoc (only inside RenderDoc's UI) is a stub with the enums the extension names and a
context that records what it registers. Expected lanes come from struct; the message must
pass the app's validator (model/send/message.py)."""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import json
import struct
import sys
import types
from pathlib import Path

import pytest

from fpinspector.commands.debugger_script import script_path
from fpinspector.model.send.message import Message, parse_request

EXT = script_path("renderdoc")


def _renderdoc():
    if "renderdoc" in sys.modules:
        return sys.modules["renderdoc"]
    for path in ("/usr/lib/python3/dist-packages/renderdoc.so",):
        if not Path(path).exists():
            continue
        loader = importlib.machinery.ExtensionFileLoader("renderdoc", path)
        spec = importlib.util.spec_from_file_location("renderdoc", path, loader=loader)
        mod = importlib.util.module_from_spec(spec)
        try:
            loader.exec_module(mod)
        except ImportError as exc:  # built for another Python
            pytest.skip(f"RenderDoc's Python module does not load in this Python: {exc}")
        sys.modules["renderdoc"] = mod
        return mod
    pytest.skip("RenderDoc's Python module is not installed (Debian: python3-renderdoc)")


class _Menus:
    def __init__(self):
        self.context, self.window, self.errors, self.messages = [], [], [], []

    def RegisterContextMenu(self, base, submenus, cb):  # noqa: N802 (RenderDoc's names)
        self.context.append((base, list(submenus), cb))

    def RegisterWindowMenu(self, base, submenus, cb):  # noqa: N802
        self.window.append((base, list(submenus), cb))

    def ErrorDialog(self, text, title=""):  # noqa: N802
        self.errors.append(text)

    def MessageDialog(self, text, title=""):  # noqa: N802
        self.messages.append(text)


@pytest.fixture(scope="module")
def ext():
    rd = _renderdoc()
    qrd = types.ModuleType("qrenderdoc")
    qrd.ContextMenu = types.SimpleNamespace(MeshPreview_VSInVertex="MeshPreview_VSInVertex")
    qrd.WindowMenu = types.SimpleNamespace(Tools="Tools")
    sys.modules["qrenderdoc"] = qrd
    spec = importlib.util.spec_from_file_location(
        "fpinspector_send", EXT / "__init__.py", submodule_search_locations=[str(EXT)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["fpinspector_send"] = mod
    spec.loader.exec_module(mod)
    yield mod, rd
    for name in ("qrenderdoc", "fpinspector_send", "fpinspector_send.rd_values"):
        sys.modules.pop(name, None)


def _fmt(rd, comp, width, count, kind=None):
    f = rd.ResourceFormat()
    f.type = kind if kind is not None else rd.ResourceFormatType.Regular
    f.compType, f.compByteWidth, f.compCount = comp, width, count
    return f


def test_extension_is_python_36_and_has_its_manifest() -> None:
    """RenderDoc on Windows embeds Python 3.6: the extension's syntax must be 3.6's."""
    for name in ("__init__.py", "rd_values.py"):
        ast.parse((EXT / name).read_text(encoding="utf-8"), feature_version=(3, 6))
    manifest = json.loads((EXT / "extension.json").read_text(encoding="utf-8"))
    assert manifest["extension_api"] == 1 and manifest["name"] == "Send to fpinspector"


def test_register_adds_the_vertex_context_menu_and_the_texel_tool(ext) -> None:
    mod, rd = ext
    menus = _Menus()
    ctx = types.SimpleNamespace(Extensions=lambda: menus)
    mod.register("1.24", ctx)
    assert [c[1] for c in menus.context] == [["Send to fpinspector", f"input {i}"]
                                             for i in range(8)]
    assert {c[0] for c in menus.context} == {"MeshPreview_VSInVertex"}
    assert menus.window[0][:2] == ("Tools", ["fpinspector", "Send picked texel"])


def _vertex_ctx(rd, buffer: bytes, indexed: bool, base: int):
    pos = rd.VertexInputAttribute()
    pos.name, pos.vertexBuffer, pos.byteOffset = "POSITION", 0, 0
    pos.format = _fmt(rd, rd.CompType.Float, 4, 3)
    col = rd.VertexInputAttribute()
    col.name, col.vertexBuffer, col.byteOffset = "COLOR", 0, 12
    col.format = _fmt(rd, rd.CompType.UNorm, 1, 4)
    nrm = rd.VertexInputAttribute()
    nrm.name, nrm.vertexBuffer, nrm.byteOffset = "NORMAL", 0, 16
    nrm.format = _fmt(rd, rd.CompType.Float, 2, 2)
    vb = rd.BoundVBuffer()
    vb.byteOffset, vb.byteStride = 8, 20
    state = types.SimpleNamespace(GetVertexInputs=lambda: [pos, col, nrm],
                                  GetVBuffers=lambda: [vb])
    action = rd.ActionDescription()
    action.flags = rd.ActionFlags.Indexed if indexed else rd.ActionFlags.Drawcall
    action.baseVertex = base
    controller = types.SimpleNamespace(
        GetBufferData=lambda buf, off, n: buffer[off:off + n])
    return types.SimpleNamespace(
        CurPipelineState=lambda: state, CurAction=lambda: action,
        Replay=lambda: types.SimpleNamespace(BlockInvoke=lambda fn: fn(controller)))


def _vertices() -> bytes:
    """8 bytes before the first vertex, then 3 vertices of 20 bytes: float3, unorm8x4, half2."""
    out = b"\xee" * 8
    for i in range(3):
        out += struct.pack("<3f4B2e", 0.1 * i, -1.5, 3.0e38, 10 * i, 20, 30, 255, 1.0, -0.0)
    return out


@pytest.mark.parametrize("input_no,fmt,code,fields", [
    (0, "f32", "<3I", slice(0, 12)),
    (1, "unorm8", "<4B", slice(12, 16)),
    (2, "f16", "<2H", slice(16, 20)),
])
def test_vertex_input_message_is_the_buffers_bytes(ext, input_no, fmt, code, fields) -> None:
    """Vertex 1 of an indexed draw with base vertex 1 is the buffer's third vertex."""
    mod, rd = ext
    buf = _vertices()
    line = mod.vertex_line(_vertex_ctx(rd, buf, True, 1), {"index": 1, "vertex": 0},
                           input_no)
    m = parse_request(line)
    assert isinstance(m, Message) and m.source == "renderdoc"
    third = buf[8 + 2 * 20:8 + 3 * 20]
    assert (m.format, m.lanes) == (fmt, struct.unpack(code, third[fields]))
    assert m.label.startswith("VTX ") and "of vertex 1" in m.label


def test_vertex_errors_are_reasons(ext) -> None:
    mod, rd = ext
    ctx = _vertex_ctx(rd, _vertices(), False, 0)
    with pytest.raises(mod.rd_values.SendError, match="3 vertex inputs"):
        mod.vertex_line(ctx, {"index": 0}, 5)
    with pytest.raises(mod.rd_values.SendError, match="holds 0 of the 12 bytes"):
        mod.vertex_line(ctx, {"index": 50}, 0)
    with pytest.raises(mod.rd_values.SendError, match="right-click a vertex"):
        mod.vertex_line(ctx, {"stage": 0}, 0)


def test_picked_r11g11b10_texel(ext) -> None:
    mod, rd = ext
    tex = rd.TextureDescription()
    tex.width, tex.height = 2, 2
    tex.format = _fmt(rd, rd.CompType.Float, 1, 3, rd.ResourceFormatType.R11G11B10)
    words = [0x7F7FDFBF, 0x00000000, 0x3C0F03C0, 0x12345678]
    data = struct.pack("<4I", *words)
    viewer = types.SimpleNamespace(GetCurrentResource=lambda: "tex1",
                                   GetSelectedSubresource=lambda: rd.Subresource(),
                                   GetPickedLocation=lambda: (0, 1))
    ctx = types.SimpleNamespace(
        GetTextureViewer=lambda: viewer, GetTexture=lambda i: tex,
        GetResourceName=lambda i: "Albedo",
        Replay=lambda: types.SimpleNamespace(BlockInvoke=lambda fn: fn(
            types.SimpleNamespace(GetTextureData=lambda i, s: data))))
    m = parse_request(mod.texel_line(ctx))
    assert (m.format, m.lanes) == ("r11g11b10", (0x3C0F03C0,))
    assert m.label.startswith("Albedo texel (0, 1)")


def test_formats_without_a_reading_are_refused(ext) -> None:
    mod, rd = ext
    with pytest.raises(mod.rd_values.SendError, match="no fpinspector format"):
        mod.rd_values.lane_format(rd, _fmt(rd, rd.CompType.SInt, 2, 1))
    bc = _fmt(rd, rd.CompType.UNorm, 1, 4, rd.ResourceFormatType.BC1)
    with pytest.raises(mod.rd_values.SendError, match="block format"):
        mod.rd_values.lane_format(rd, bc)
