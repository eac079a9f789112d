from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import settings

from exact.core.cards import Shoe
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


@pytest.fixture
def keep_small_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small compiled deals kept on disk too (they are not, as compiling them costs about what
    their entry does): the cache tests plant and read entries of small, quick deals."""
    from exact.engines import compiled

    monkeypatch.setattr(compiled, "SMALL_DEAL_RECORDS", 0)


@pytest.fixture(scope="session")
def tracked_bets(punto_banco: PuntoBanco) -> list[Bet]:
    """The main bets and the tracked side bets of issue 7 (tests/batch_helpers.py)."""
    from batch_helpers import tracked_bets

    return tracked_bets(punto_banco)


def engine_counts(game, shoe: Shoe, names: Sequence[str],
                  key: Callable[[dict[str, object]], object], engine: str = "direct") -> Counter:
    """Counts of the game's round records, keyed like the reference's."""
    needs = game.needs(names)
    distribution = (game.enumerate(needs, shoe) if engine == "direct"
                    else game.compiled(needs).distribution(shoe))
    out: Counter = Counter()
    for record, count in distribution.counts.items():
        out[key({name: game.read(record, name) for name in names})] += count
    assert sum(out.values()) == distribution.total
    return out


def require_module(name: str):
    """The module; outside CI a missing report/notebook package skips the tests that need it,
    in CI (where `make test` installs them) it fails them."""
    import importlib
    import os

    if os.environ.get("CI"):
        return importlib.import_module(name)
    return pytest.importorskip(name)


# --- Known failures after a merge, each a follow-up named in that session's closing note ------
# Each is a follow-up named in that session's closing note; listed here, in one place, so that
# they are visible and cannot be forgotten. Remove an entry when its cause is fixed.
KNOWN_FAILURES: dict[str, str] = {}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in KNOWN_FAILURES:
            item.add_marker(pytest.mark.xfail(reason=KNOWN_FAILURES[item.nodeid], strict=False))
