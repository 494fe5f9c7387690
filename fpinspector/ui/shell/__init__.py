"""The window around the views: the main window, menus and shortcuts, dock layout, the
paste line and message line, history, drops, the local value channel, first run, and
screenshots."""
