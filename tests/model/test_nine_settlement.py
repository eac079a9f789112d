"""Round settlement: the seed's eleven example rounds of Baccarat with NINE & NINES, dealt
from cards that fit each description, and the amounts (won, lost, pushed, commission)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.core.cards import CARDS
from exact.games import get_game
from exact.games.baccarat.reference import play, total
from exact.games.nine_and_nines.reference import (
    LOSE,
    MAIN_PAYS,
    NINE_PAYS,
    NINES_PAYS,
    PUSH,
    ROUNDS,
    nine_tier,
    nines_tier,
)
from exact.model.settlement import SettlementError, Wager, settle_round

GAME = get_game("nine-and-nines")
SIDE = ("nine-player", "nine-banker", "nines")
STAKE = Fraction(10)


def net_of(pays, stake=STAKE):
    return -stake if pays == LOSE else Fraction(0) if pays == PUSH else stake * Fraction(pays)


@pytest.mark.parametrize("number", sorted(ROUNDS))
def test_seed_example_round(number):
    cards, side_pays, winner = ROUNDS[number]
    wagers = [Wager(bet, STAKE) for bet in (*SIDE, "player", "banker", "tie")]
    settled = settle_round(GAME, cards, wagers)
    assert settled.features["winner"] == winner
    by_bet = {s.wager.bet: s for s in settled.settlements}
    for bet, pays in zip(SIDE, side_pays, strict=True):
        settlement = by_bet[bet]
        assert settlement.net == net_of(pays), (number, bet, settlement.reason)
        assert settlement.result == ("loss" if pays == LOSE else "win")
    for bet in ("player", "banker", "tie"):
        assert by_bet[bet].net == net_of(MAIN_PAYS[bet][winner]), (number, bet)
    # the round's money adds up: what is won, lost and pushed accounts for the stakes
    assert settled.won - settled.lost == settled.net
    assert settled.pushed == sum((STAKE for s in settled.settlements if s.result == "push"),
                                 Fraction(0))
    banker = by_bet["banker"]
    assert banker.commission == (STAKE / 20 if winner == "banker" else 0)
    assert settled.commission == banker.commission


def test_round_4_reasons_name_the_tiers():
    settled = settle_round(GAME, ROUNDS[4][0], [Wager(b, 1) for b in SIDE])
    reasons = [s.reason for s in settled.settlements]
    assert reasons[0].startswith("NINE (Player): Unsuited 9 without a ten (")
    assert "pays 10 to 1" in reasons[0]
    assert reasons[1].startswith("NINE (Banker): Suited 4-5 (banker_initial_ranks = '45'")
    assert reasons[2].startswith("NINES: Double without tens (")
    assert "wins 30" in reasons[2]


def test_commission_is_shown_apart_and_follows_the_paytable():
    cards = ROUNDS[6][0]  # Banker wins 7 to 5
    five, four = settle_round(GAME, cards, [Wager("banker", 100),
                                            Wager("banker", 100, "commission-4%")]).settlements
    assert (five.won, five.commission, five.lost, five.pushed) == (95, 5, 0, 0)
    assert (four.won, four.commission) == (96, 4)
    assert "less 1/20 commission" in five.reason and "after 5 commission" in five.reason


def test_push_returns_the_stake():
    settled = settle_round(GAME, ROUNDS[9][0], [Wager("player", 25), Wager("banker", 25)])
    assert [(s.result, s.pushed, s.won, s.lost) for s in settled.settlements] == [
        ("push", 25, 0, 0), ("push", 25, 0, 0)]
    assert settled.pushed == 50 and settled.net == 0
    assert "Staked 50: won 0, lost 0, pushed 50, commission 0; net 0" in settled.summary()


def test_same_engine_settles_plain_punto_banco():
    settled = settle_round(get_game("punto-banco"), ROUNDS[6][0], [Wager("banker", 20)])
    assert (settled.won, settled.commission) == (19, 1)
    with pytest.raises(SettlementError, match="no bet 'nines'"):
        settle_round(get_game("punto-banco"), ROUNDS[6][0], [Wager("nines", 20)])


@settings(max_examples=300)
@given(st.lists(st.sampled_from(CARDS[:52]), min_size=6, max_size=6))
def test_settlement_agrees_with_the_hand_written_tables(cards):
    """Any six cards of an 8-deck shoe: every wager settles as the independent reference says."""
    settled = settle_round(GAME, cards, [Wager(bet, 1) for bet in (*SIDE, "player", "tie")])
    nine_player, nine_banker, nines, player, tie = (s.net for s in settled.settlements)
    first_player, first_banker = (cards[0], cards[2]), (cards[1], cards[3])
    assert nine_player == NINE_PAYS[nine_tier(first_player)]
    assert nine_banker == NINE_PAYS[nine_tier(first_banker)]
    assert nines == NINES_PAYS[nines_tier(first_player, first_banker)]
    hands = play(cards)
    player_total, banker_total = total(hands[0]), total(hands[1])
    assert player == (1 if player_total > banker_total else 0 if player_total == banker_total
                      else -1)
    assert tie == (8 if player_total == banker_total else -1)


def test_gross_must_cover_the_pays():
    from exact.errors import BetFileError
    from exact.model.bets import load_bets

    text = ('[[bet]]\nid = "b"\n[[bet.event]]\nname = "Banker wins"\n'
            'when = "winner == \'banker\'"\npays = 1\ngross = "19/20"\n')
    with pytest.raises(BetFileError, match="gross '19/20' must be a win at least the pays"):
        load_bets("x.toml", GAME.features, text=text)
