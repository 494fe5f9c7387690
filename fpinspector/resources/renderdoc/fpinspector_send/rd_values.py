"""RenderDoc data to an fpinspector message: a format's lanes and the bytes of one element.

Plain functions over RenderDoc's Python objects (``renderdoc.ResourceFormat``,
``VertexInputAttribute``, ``BoundVBuffer``); the ``rd`` module is passed in, so this file
imports nothing of RenderDoc and nothing of fpinspector. Python 3.6 syntax: RenderDoc on
Windows embeds Python 3.6 (its docs, python_api/dev_environment). The message is the
one-line JSON ``fpinspector send --json`` prints (fpinspector/model/send/message.py checks
it when the app receives it).
"""

import json

#: (component type name, bytes per component) -> fpinspector's lane format
_REGULAR = {
    ("Float", 8): "f64", ("Float", 4): "f32", ("Float", 2): "f16",
    ("UInt", 4): "u32", ("UInt", 2): "u16", ("UInt", 1): "u8",
    ("SInt", 4): "i32",
    ("UNorm", 2): "unorm16", ("UNorm", 1): "unorm8",
    ("SNorm", 2): "snorm16", ("SNorm", 1): "snorm8",
    ("UNormSRGB", 1): "srgb8",
}
_BITS = {"f64": 64, "f32": 32, "f16": 16, "u32": 32, "u16": 16, "u8": 8, "i32": 32,
         "unorm16": 16, "unorm8": 8, "snorm16": 16, "snorm8": 8, "srgb8": 8,
         "r11g11b10": 32, "rgb9e5": 32}
MAX_LANES = 64


class SendError(ValueError):
    """Why this element cannot be sent (shown to the user in RenderDoc)."""


def _comp_name(rd, value):
    """The name of a ``rd.CompType`` value (RenderDoc's enums are plain ints in Python)."""
    for name in ("Float", "UInt", "SInt", "UNorm", "SNorm", "UNormSRGB"):
        if value == getattr(rd.CompType, name):
            return name
    return f"type {value}"


def lane_format(rd, fmt):
    """(fpinspector format, bytes per lane, lanes) of one element of ``fmt``."""
    kind = fmt.type
    if kind == rd.ResourceFormatType.R11G11B10:
        return "r11g11b10", 4, 1
    if kind == rd.ResourceFormatType.R9G9B9E5:
        return "rgb9e5", 4, 1
    if kind != rd.ResourceFormatType.Regular:
        raise SendError(f"{fmt.Name()}: a packed or block format fpinspector does not read")
    key = (_comp_name(rd, fmt.compType), int(fmt.compByteWidth))
    if key not in _REGULAR:
        raise SendError(f"{fmt.Name()}: {key[0]} components of {key[1]} bytes have no "
                        "fpinspector format")
    return _REGULAR[key], key[1], int(fmt.compCount)


def message_line(fmt_name, data, label, to=None):
    """The message of ``data`` (little-endian lanes of ``fmt_name``, the lowest first)."""
    width = _BITS[fmt_name]
    size = (width + 7) // 8
    if not data or len(data) % size:
        raise SendError(f"{len(data)} bytes are not whole {fmt_name} lanes")
    lanes = [int.from_bytes(bytes(data[i:i + size]), "little")
             for i in range(0, len(data), size)]
    if len(lanes) > MAX_LANES:
        raise SendError(f"{len(lanes)} lanes: a message holds at most {MAX_LANES}")
    digits = (width + 3) // 4
    msg = {"format": fmt_name, "lanes": ["0x{:0{}x}".format(v, digits) for v in lanes],
           "label": label[:200], "source": "renderdoc"}
    if to is not None:
        msg["to"] = to
    return json.dumps(msg, ensure_ascii=False, separators=(", ", ": "))


def vertex_input(rd, attrs, vbs, index, input_no, base_vertex=0):
    """(format, buffer id, byte offset, byte count, label) of vertex input ``input_no`` of
    the vertex fetched at ``index`` (the index value; ``base_vertex`` added, as the
    draw's index fetch does): the attribute's offset in its vertex buffer, the buffer's
    offset, the stride times the vertex."""
    attrs = list(attrs)
    if not 0 <= input_no < len(attrs):
        raise SendError("this draw has {} vertex input{} (no input {})".format(
            len(attrs), "" if len(attrs) == 1 else "s", input_no))
    attr = attrs[input_no]
    if attr.perInstance:
        raise SendError(f"{attr.name} is a per-instance input: not read per vertex")
    if attr.genericEnabled:
        raise SendError(f"{attr.name} comes from a constant, not a buffer")
    vbs = list(vbs)
    if not 0 <= attr.vertexBuffer < len(vbs):
        raise SendError(f"{attr.name} reads vertex buffer {attr.vertexBuffer}, which is not bound")
    vb = vbs[attr.vertexBuffer]
    fmt_name, size, count = lane_format(rd, attr.format)
    offset = int(vb.byteOffset) + int(attr.byteOffset) + int(vb.byteStride) * (
        int(index) + int(base_vertex))
    label = f"{attr.name} of vertex {index} ({attr.format.Name()})"
    return fmt_name, vb.resourceId, offset, size * count, label


def texel(rd, fmt, width, height, x, y, data, name):
    """(format, bytes, label) of texel (x, y) of a ``width`` x ``height`` subresource whose
    bytes RenderDoc returned tightly packed (refused when their count says otherwise)."""
    fmt_name, size, count = lane_format(rd, fmt)
    elem = size * count
    if len(data) != width * height * elem:
        raise SendError(f"{len(data)} bytes for {width}x{height} texels of {elem} bytes: "
                        "not tightly packed rows; "
                        "cannot find the texel")
    if not (0 <= x < width and 0 <= y < height):
        raise SendError("no texel is picked (right-click one in the texture viewer first)")
    start = (y * width + x) * elem
    label = f"{name} texel ({x}, {y}) ({fmt.Name()})"
    return fmt_name, bytes(data[start:start + elem]), label
