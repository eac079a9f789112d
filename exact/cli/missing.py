"""A package the toolkit needs, missing from the Python that runs it (numpy...): one line
naming it, not a traceback from the imports.

Layer: cli, the top (beside the lab); it imports nothing of the toolkit, so that it works
where the toolkit's imports fail.
"""

from __future__ import annotations

import contextlib
import sys

EXIT_MISSING = 1
"""The exit status when a package the toolkit needs is missing (not the input's fault: 2 is)."""


def missing_package(error: ModuleNotFoundError) -> int:
    """One line naming the package ``error`` found missing, on standard error; a module of the
    toolkit itself missing is a broken installation, raised as it is."""
    name = (error.name or "").partition(".")[0]
    if not name or name == "exact":
        raise error
    with contextlib.suppress(OSError, ValueError, AttributeError):  # stderr closed or absent
        sys.stderr.write(f"exact: error: the Python package {name!r} is not installed in "
                         f"{sys.executable}: run `make install` and use .venv/bin/python, or "
                         f"`pip install exact` (the README's set-up)\n")
    return EXIT_MISSING
