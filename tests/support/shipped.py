"""The shipped data files of the games, by the folder the tests knew them by (a game's module
name): each game's data sits in its package (exact/games/<game>/data/), and Punto Banco's rules
and bet files in the shared baccarat coup's (exact/games/baccarat/data/)."""

from __future__ import annotations

from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "exact" / "games"
# the coup's files, shared by the baccarat games; Punto Banco's own folder holds the rest
_COUP = ("rules.toml", "bets.toml", "side_bets.toml", "assumptions.toml")


def data_file(folder: str, name: str) -> Path:
    """The shipped file ``name`` of the game whose module name is ``folder``
    (``data_file("century21", "rules.toml")``)."""
    if folder == "punto_banco" and name in _COUP:
        folder = "baccarat"
    return GAMES / folder / "data" / name


def bet_files() -> list[Path]:
    """Every shipped bet file."""
    return sorted(GAMES.glob("*/data/*bets.toml"))
