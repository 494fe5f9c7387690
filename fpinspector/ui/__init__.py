"""The desktop app (PySide6): widgets that show and edit the model; they compute nothing."""
