"""Layering (STYLE.md 1): model imports no Qt/GL, gpu imports no Qt; data flows model -> gpu -> ui."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "fpinspector"

FORBIDDEN = {
    "model": ("PySide6", "pyqtgraph", "moderngl", "glcontext", "fpinspector.ui", "fpinspector.gpu"),
    "gpu": ("PySide6", "pyqtgraph", "fpinspector.ui"),
}


def _imports(path: pathlib.Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            mod = node.module
            if node.level:  # relative: resolve against the package path
                pkg = path.relative_to(ROOT.parent).with_suffix("").parts[: -node.level]
                mod = ".".join(pkg + (mod,))
            found.append((node.lineno, mod))
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_does_not_reach_up(layer: str) -> None:
    bad = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for line, mod in _imports(path):
            if any(mod == f or mod.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(ROOT.parent)}:{line} imports {mod}")
    assert not bad, "\n".join(bad)


def test_model_imports_without_qt_or_gl() -> None:
    """The model is a public API usable on a machine with no Qt and no GL."""
    import subprocess
    import sys

    code = (
        "import sys, fpinspector.model, fpinspector.cli;"
        "bad=[m for m in ('PySide6','moderngl','pyqtgraph') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
