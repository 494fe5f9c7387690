"""``python -m fpinspector``: the same as the ``fpinspector`` command."""

from .cli import main

raise SystemExit(main())
