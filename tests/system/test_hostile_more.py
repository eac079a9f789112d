"""Hostile inputs found by the second hostile-input review (notes in the commit messages):
each a regression test, fast (in-process where the contract allows it)."""

from __future__ import annotations

import pytest

from exact.errors import BetFileError
from exact.games import get_game
from exact.model.bets import load_bets


def _bet(condition: str) -> str:
    return f"[[bet]]\nid = \"x\"\n[[bet.event]]\nname = \"Win\"\nwhen = '''{condition}'''\npays = 1\n"


def test_a_long_condition_failing_on_a_round_is_quoted_cut_short() -> None:
    """A condition of thousands of characters that fails on some round is quoted cut, its
    length said, in one line (it was cut by hand at 200 characters, with no length)."""
    features = list(get_game("punto-banco").features)
    members = ", ".join(map(str, range(190)))
    condition = f"player_total in {{{members}}} and 1 / (banker_total - 3) > 0"
    bet = load_bets("mine.toml", features, text=_bet(condition))[0]
    with pytest.raises(BetFileError) as error:
        bet.settle({"player_total": 1, "banker_total": 3})
    message = str(error.value)
    assert f"({len(condition)} characters)" in message, message
    assert len(message) < 300 and "\n" not in message and "division by zero" in message
