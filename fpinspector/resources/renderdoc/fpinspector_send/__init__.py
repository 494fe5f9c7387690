"""RenderDoc extension "Send to fpinspector": a vertex input's or the picked texel's exact
bytes, with their declared format, into the running fpinspector app.

Where RenderDoc's extension API (1.18+: actions) lets an extension in:
- the mesh viewer's vertex-input context menu (``ContextMenu.MeshPreview_VSInVertex``, which
  passes the clicked row's index): Send to fpinspector > input 0..7 reads that input of the
  vertex from its vertex buffer (``ReplayController.GetBufferData``);
- Tools > fpinspector > Send picked texel: the texture viewer's picked location in the
  shown texture and subresource (``GetTextureData``).
The bytes go to ``fpinspector send -`` (found on PATH, next to this package, or
``$FPINSPECTOR_COMMAND``) on a thread, so RenderDoc never waits for the app to start.

Install (a link keeps it current with the installed fpinspector)::

    ln -s "$(fpinspector debugger-script renderdoc)" ~/.local/share/qrenderdoc/extensions/
    (Windows: mklink /J %APPDATA%\\qrenderdoc\\extensions\\fpinspector_send <that path>)

then Tools > Manage Extensions > Send to fpinspector > Load (and Always Load).
Python 3.6 syntax: RenderDoc on Windows embeds Python 3.6.
"""

import os
import shlex
import shutil
import subprocess
import threading

import qrenderdoc as qrd  # noqa: F401 - RenderDoc's UI module, present when it loads us
import renderdoc as rd

from . import rd_values

INPUTS = 8
_ctx = None


def _command():
    env = os.environ.get("FPINSPECTOR_COMMAND")
    if env:
        return shlex.split(env, posix=os.name != "nt")
    d = os.path.dirname(os.path.realpath(__file__))
    for _ in range(8):
        for rel in (("bin", "fpinspector"), ("Scripts", "fpinspector.exe"),
                    (".venv", "bin", "fpinspector"), (".venv", "Scripts", "fpinspector.exe")):
            p = os.path.join(d, *rel)
            if os.path.isfile(p) and os.access(p, os.X_OK):
                return [p]
        d = os.path.dirname(d)
    found = shutil.which("fpinspector")
    return [found] if found else None


def deliver(line):
    """Send one message line through ``fpinspector send -``; (ok, what it said)."""
    cmd = _command()
    if cmd is None:
        return False, ("the fpinspector command was not found: put it on PATH or set "
                       "FPINSPECTOR_COMMAND")
    try:
        # (no capture_output= or text=: Python 3.6)
        res = subprocess.run(cmd + ["send", "-"], input=line,  # noqa: UP022
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, timeout=120)  # noqa: UP021
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"could not run {cmd[0]}: {exc}"
    if res.returncode:
        return False, (res.stderr or res.stdout).strip() or f"exit code {res.returncode}"
    return True, res.stdout.strip()


def _report(ctx, ok, text):
    """Tell the user on RenderDoc's UI thread (a failure as an error dialog)."""
    def show():
        if ok:
            ctx.Extensions().MessageDialog(text, "Sent to fpinspector")
        else:
            ctx.Extensions().ErrorDialog(text, "Send to fpinspector")
    ctx.Extensions().GetMiniQtHelper().InvokeOntoUIThread(show)


def send_async(ctx, line):
    """Deliver on a thread: starting the app may take seconds."""
    def work():
        ok, text = deliver(line)
        _report(ctx, ok, text)
    t = threading.Thread(target=work, name="fpinspector-send", daemon=True)
    t.start()
    return t


def vertex_line(ctx, data, input_no):
    """The message of vertex input ``input_no`` of the vertex the menu was opened on."""
    if "index" not in data:
        raise rd_values.SendError("right-click a vertex row to send its inputs")
    state = ctx.CurPipelineState()
    action = ctx.CurAction()
    indexed = action is not None and bool(action.flags & rd.ActionFlags.Indexed)
    base = action.baseVertex if indexed else 0
    fmt, buf, offset, count, label = rd_values.vertex_input(
        rd, state.GetVertexInputs(), state.GetVBuffers(), data["index"], input_no, base)
    box = []
    ctx.Replay().BlockInvoke(lambda r: box.append(r.GetBufferData(buf, offset, count)))
    raw = bytes(box[0]) if box else b""
    if len(raw) != count:
        raise rd_values.SendError(f"the vertex buffer holds {len(raw)} of the {count} bytes "
                                  f"at offset {offset}")
    return rd_values.message_line(fmt, raw, "VTX " + label)


def texel_line(ctx):
    """The message of the texel picked in the texture viewer."""
    viewer = ctx.GetTextureViewer()
    tex_id = viewer.GetCurrentResource()
    tex = ctx.GetTexture(tex_id)
    if tex is None:
        raise rd_values.SendError("no texture is shown in the texture viewer")
    sub = viewer.GetSelectedSubresource()
    x, y = viewer.GetPickedLocation()
    width, height = max(1, tex.width >> sub.mip), max(1, tex.height >> sub.mip)
    box = []
    ctx.Replay().BlockInvoke(lambda r: box.append(r.GetTextureData(tex_id, sub)))
    fmt, raw, label = rd_values.texel(rd, tex.format, width, height, x, y,
                                      bytes(box[0]) if box else b"", ctx.GetResourceName(tex_id))
    return rd_values.message_line(fmt, raw, label)


def _guarded(ctx, build):
    try:
        line = build()
    except rd_values.SendError as exc:
        ctx.Extensions().ErrorDialog(str(exc), "Send to fpinspector")
        return None
    return send_async(ctx, line)


def _vertex_callback(input_no):
    return lambda ctx, data: _guarded(ctx, lambda: vertex_line(ctx, data, input_no))


def _texel_callback(ctx, data):
    return _guarded(ctx, lambda: texel_line(ctx))


def register(version, ctx):
    global _ctx
    _ctx = ctx
    ext = ctx.Extensions()
    for i in range(INPUTS):
        ext.RegisterContextMenu(qrd.ContextMenu.MeshPreview_VSInVertex,
                                ["Send to fpinspector", f"input {i}"],
                                _vertex_callback(i))
    ext.RegisterWindowMenu(qrd.WindowMenu.Tools, ["fpinspector", "Send picked texel"],
                           _texel_callback)


def unregister():
    global _ctx
    _ctx = None


__all__ = ["register", "unregister", "deliver", "vertex_line", "texel_line"]
