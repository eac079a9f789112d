"""Optional packages of the tests (reports, notebooks, spreadsheets, data frames, widgets)."""

from __future__ import annotations

import pytest


def require_module(name: str):
    """The module; outside CI a missing report/notebook package skips the tests that need it,
    in CI (where `make test` installs them) it fails them."""
    import importlib
    import os

    if os.environ.get("CI"):
        return importlib.import_module(name)
    return pytest.importorskip(name)
