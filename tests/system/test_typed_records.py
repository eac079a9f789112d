"""The record types are checked: mypy, run on two small programs, refuses the one that hands a
game's features or engines another game's records, gives a game a deal or features of another
record type, or reads a field its record lacks, and passes the one that keeps them together
(issue 12: typed contracts a checker verifies).

Each line the checker must refuse is marked ``# WRONG``; the test fails if mypy misses one,
reports an error on any other line, or reports anything on the right program.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import exact

ROOT = Path(exact.__file__).resolve().parents[1]

# the engines' record type follows a game from its compiled deal to its features
RIGHT = '''
from exact.engines.batch import event_matrices
from exact.engines.compiled_store import compiled_for
from exact.games.baccarat.coup import FEATURES, PuntoBanco, PuntoBancoDeal, PuntoRecord
from exact.model.bets import Bet
from exact.model.settling import settle_records
from exact.model.features import Feature, Needs
from exact.model.game import Game


class Punto(Game[PuntoRecord]):
    def deal(self, needs: Needs) -> PuntoBancoDeal:
        raise NotImplementedError

    @property
    def features(self) -> dict[str, Feature[PuntoRecord]]:
        return FEATURES


def right(game: PuntoBanco, needs: Needs, bets: list[Bet]) -> object:
    compiled = compiled_for(game, needs)
    settle_records(game, bets, compiled.records)
    event_matrices(game, needs, compiled, bets)
    return FEATURES["winner"].read(compiled.records[0])


CARDS: Feature[PuntoRecord] = Feature("cards", "cards dealt", Needs(), lambda r: len(r[0]))
'''

# the same with 21st Century Baccarat's records (two hands and a flag) and a misread field
WRONG = '''
from exact.engines.batch import event_matrices
from exact.engines.compiled import CompiledDeal
from exact.games.century21.game import Century21Deal, Century21Record
from exact.games.baccarat.coup import FEATURES, PuntoBanco, PuntoRecord
from exact.games.simple import StagesDeal
from exact.model.bets import Bet
from exact.model.settling import settle_records
from exact.model.features import Feature, Needs
from exact.model.game import Game


class Punto(Game[PuntoRecord]):
    def deal(self, needs: Needs) -> StagesDeal:  # WRONG
        raise NotImplementedError

    @property
    def features(self) -> dict[str, Feature[Century21Record]]:  # WRONG
        return {}


def wrong(game: PuntoBanco, deal: Century21Deal, needs: Needs, bets: list[Bet]) -> object:
    compiled = CompiledDeal.compile(deal)
    settle_records(game, bets, compiled.records)  # WRONG
    event_matrices(game, needs, compiled, bets)  # WRONG
    return FEATURES["winner"].read(compiled.records[0])  # WRONG


CARDS: Feature[PuntoRecord] = Feature("cards", "cards dealt", Needs(),
                                      lambda r: r[0][0].denomination)  # WRONG
'''


def test_mypy_refuses_another_games_records(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api")
    (tmp_path / "right.py").write_text(RIGHT, encoding="utf-8")
    (tmp_path / "wrong.py").write_text(WRONG, encoding="utf-8")
    monkeypatch.setenv("MYPYPATH", str(ROOT))  # this checkout's package, not an installed one
    out, err, _ = api.run([str(tmp_path / "right.py"), str(tmp_path / "wrong.py"),
                           "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / "cache"), "--no-error-summary",
                           "--hide-error-context"])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert not err, err
    assert not [e for e in errors if not e.startswith(str(tmp_path))], errors  # package clean
    located = [re.match(r"(.+?):(\d+): error:", error) for error in errors]
    flagged = {(Path(found[1]).name, int(found[2])) for found in located if found}
    marked = {("wrong.py", number) for number, text in enumerate(WRONG.splitlines(), 1)
              if text.endswith("# WRONG")}
    assert flagged == marked, errors
