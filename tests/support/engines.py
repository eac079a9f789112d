"""The plan with one engine taken out, for a test whose purpose is another engine's path
that the plan no longer picks by cost (the path must stay covered whatever ``auto`` prefers)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from exact.engines import plan


@contextmanager
def without_engine(name: str) -> Iterator[None]:
    kept = [engine for engine in plan.ENGINES if engine.name != name]
    assert len(kept) == len(plan.ENGINES) - 1, f"no engine {name!r} registered"
    with mock.patch.object(plan, "ENGINES", kept):
        yield
