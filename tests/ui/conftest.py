"""pytest-qt fixtures for the desktop app tests (offscreen; no real GPU needed)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
