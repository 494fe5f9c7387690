"""Remembered dialog folders and recent workspaces, kept in the window's QSettings.

Why: a file dialog left to itself starts in the working directory and forgets the last
folder, and a workspace opened yesterday would have to be found again."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6 import QtCore

__all__ = ["RECENT_MAX", "add_recent", "folder_for", "recent_workspaces", "remember_folder"]

#: How many recent workspaces File ▸ Open recent lists.
RECENT_MAX = 8


def folder_for(settings: QtCore.QSettings, kind: str) -> str:
    """The folder the ``kind`` dialog ("workspace", "report", "export") was last left in,
    or the user's home folder (never the working directory)."""
    value = settings.value(f"folders/{kind}")
    if isinstance(value, str) and value and Path(value).is_dir():
        return value
    return str(Path.home())


def remember_folder(settings: QtCore.QSettings, kind: str, path: str) -> None:
    """Remember the folder of ``path`` for the next ``kind`` dialog."""
    if path:
        settings.setValue(f"folders/{kind}", str(Path(path).resolve().parent))


def recent_workspaces(settings: QtCore.QSettings) -> list[str]:
    """The workspaces opened or saved last, newest first (those that still exist)."""
    value = settings.value("recentWorkspaces")
    items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    return [p for p in items if isinstance(p, str) and p and os.path.isfile(p)][:RECENT_MAX]


def add_recent(settings: QtCore.QSettings, path: str) -> None:
    """Put ``path`` first in the recent workspaces (once)."""
    path = str(Path(path).resolve())
    items = [p for p in recent_workspaces(settings) if p != path]
    settings.setValue("recentWorkspaces", [path, *items][:RECENT_MAX])
