"""CLI subcommands, one module each (see fpinspector.cli)."""
