from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import settings

from exact.games.punto_banco import PuntoBanco
from exact.model.bets import Bet

sys.path.insert(0, str(Path(__file__).parent))
# The toy game registers itself when imported: only tests/test_toy_game.py imports it (and
# unregisters it), so that no other test sees a game the toolkit does not ship.
collect_ignore = ["toy_games"]

settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=25, deadline=None)
settings.load_profile("ci")


@pytest.fixture(scope="session")
def punto_banco() -> PuntoBanco:
    return PuntoBanco()


@pytest.fixture(scope="session")
def tracked_bets(punto_banco: PuntoBanco) -> list[Bet]:
    """The main bets and the tracked side bets of issue 7 (tests/batch_helpers.py)."""
    from batch_helpers import tracked_bets

    return tracked_bets(punto_banco)


# --- Known failures after a merge, each a follow-up named in that session's closing note ------
# Each is a follow-up named in that session's closing note; listed here, in one place, so that
# they are visible and cannot be forgotten. Remove an entry when its cause is fixed.
KNOWN_FAILURES: dict[str, str] = {}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in KNOWN_FAILURES:
            item.add_marker(pytest.mark.xfail(reason=KNOWN_FAILURES[item.nodeid], strict=False))
