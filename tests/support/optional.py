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


def required_when_run(*names: str):
    """An autouse fixture for a test file: the modules ``names`` (as :func:`require_module`),
    imported when the file's first test runs, not when the file is collected: under `make
    test` the worker that runs none of its tests neither imports nor compiles them."""

    @pytest.fixture(autouse=True, scope="module")
    def _required_modules() -> None:
        for name in names:
            require_module(name)

    return _required_modules
