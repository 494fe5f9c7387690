"""Reading sweep .npz files defensively: headers and metadata are checked before any array loads.

Why not ``np.load``: a damaged or hostile file must give one clear ``ValueError``, never a
``BadZipFile``, ``KeyError`` or a gigabyte allocation. Every member's ``.npy`` header (shape,
dtype) is read first and checked against the shape the metadata declares; the bytes the
arrays would take are capped; only then are the arrays read.
"""

from __future__ import annotations

import struct
import tokenize
import zipfile
import zlib
from typing import Any

import numpy as np

from .. import reading

__all__ = ["NpzMembers", "open_members", "load_json", "READ_ERRORS", "MAX_META_CHARS",
           "MAX_MEMBERS"]

#: Longest JSON text the meta and summary members may hold (characters).
MAX_META_CHARS = 16 << 20
#: Most members (arrays) a sweep file may hold.
MAX_MEMBERS = 4096
#: What reading a damaged zip / .npy can raise besides ValueError; each becomes ValueError
#: (numpy reads .npy headers with ``tokenize`` and ``ast.literal_eval``; zipfile raises
#: RuntimeError for an encrypted member).
READ_ERRORS = (OSError, EOFError, ValueError, KeyError, IndexError, TypeError,
               AttributeError, OverflowError, RecursionError, UnicodeDecodeError,
               NotImplementedError, SyntaxError, RuntimeError, tokenize.TokenError,
               zipfile.BadZipFile, zlib.error, struct.error)


class NpzMembers:
    """The ``.npy`` members of an open .npz: name -> (shape, dtype), read on demand."""

    def __init__(self, zf: zipfile.ZipFile) -> None:
        self._zf = zf
        infos = [i for i in zf.infolist() if not i.is_dir()]
        if len(infos) > MAX_MEMBERS:
            raise ValueError(f"{len(infos)} members; a sweep file has at most {MAX_MEMBERS}")
        self.headers: dict[str, tuple[tuple[int, ...], np.dtype]] = {}
        for info in infos:
            if not info.filename.endswith(".npy"):
                raise ValueError(f"member {info.filename!r} is not a .npy array")
            name = info.filename[:-4]
            if name in self.headers:
                raise ValueError(f"member {name!r} appears twice")
            with zf.open(info) as fh:
                self.headers[name] = _header(fh, name)

    def names(self) -> list[str]:
        return list(self.headers)

    def read(self, name: str) -> np.ndarray:
        """The array (its header already checked by the caller)."""
        with self._zf.open(name + ".npy") as fh:
            arr = np.lib.format.read_array(fh, allow_pickle=False)
            if fh.read(1):
                raise ValueError(f"member {name!r} has bytes after its data")
        shape, dtype = self.headers[name]
        if arr.shape != shape or arr.dtype != dtype:
            raise ValueError(f"member {name!r} does not match its header")
        return arr

    def text(self, name: str) -> str:
        """A 0-d unicode member (the JSON metadata), capped at :data:`MAX_META_CHARS`."""
        shape, dtype = self.headers[name]
        if shape != () or dtype.kind != "U":
            raise ValueError(f"member {name!r} is not a text field")
        if dtype.itemsize // 4 > MAX_META_CHARS:
            raise ValueError(f"member {name!r} is {dtype.itemsize // 4} characters; at most "
                             f"{MAX_META_CHARS}")
        return str(self.read(name))


def _header(fh: Any, name: str) -> tuple[tuple[int, ...], np.dtype]:
    fmt = np.lib.format
    version = fmt.read_magic(fh)
    if version == (1, 0):
        shape, fortran, dtype = fmt.read_array_header_1_0(fh, max_header_size=10000)
    elif version == (2, 0):
        shape, fortran, dtype = fmt.read_array_header_2_0(fh, max_header_size=10000)
    else:
        raise ValueError(f"member {name!r}: unsupported .npy version {version}")
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise ValueError(f"member {name!r}: dtype {dtype} is not a plain number or text type")
    if any(type(n) is not int or n < 0 for n in shape):
        raise ValueError(f"member {name!r}: bad shape {shape}")
    return tuple(shape), dtype


def open_members(path: Any) -> tuple[zipfile.ZipFile, NpzMembers]:
    """Open ``path`` as a zip of .npy members and read every header (not the data)."""
    zf = zipfile.ZipFile(path)
    try:
        return zf, NpzMembers(zf)
    except BaseException:
        zf.close()
        raise


def load_json(text: str, what: str) -> Any:
    """JSON text -> object through the reader policy (:func:`fpinspector.model.reading.load_json`:
    nesting at most 64 deep); every failure is ``ValueError``. (NaN and Infinity are read:
    Python's JSON writer puts them in a summary whose error column has no finite value.)"""
    return reading.load_json(text, what, constants=True)
