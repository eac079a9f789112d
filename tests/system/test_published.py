"""Every published figure of exact/data/<game>/published.toml (transcribed from
../shared/reference/published-figures.md and, for chemin de fer and 21st Century Baccarat, from
the sources each figure quotes), computed here independently of the reports' verification and
compared with the file: counts exactly, rounded figures at their published precision, exact
figures exactly.

How each kind is computed: bet counts, edges, returns and deviations from the bet analysis of
a full shoe (the engine the plan chooses); the denominator as N!/(N-6)!; feature counts and
probabilities by grouping the round records of both the compiled and the direct engine.
The strategy-game kinds: 21st Century's House Way edge both by the compiled evaluator of the
fixed strategy pair and by the game table (sequence form); chemin de fer's game sizes both
from the game's sequence form and by counting its information sets by hand, the Player's
drawing probability by the LP, by the exhaustive support enumeration and by hand (the
Banker's indifference where it mixes), uniqueness by the exhaustive support enumeration."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from itertools import product
from math import prod

import pytest

from exact.analysis.bet_analysis import GameAnalysis, analyze, game_bets
from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.errors import PublishedFiguresError
from exact.games import get_game
from exact.games.century21.published import Century21Figure
from exact.games.chemin_de_fer.published import CheminDeFerFigure
from exact.model.game import Game
from exact.model.plugins import plugin
from exact.reference.published import KINDS, STRATEGY_KINDS, Figure, game_figures, loads

from tests.support.batch_helpers import engine_counts

GAMES = {"punto_banco": "punto-banco", "nine_and_nines": "nine-and-nines",
         "century21": "century21", "chemin_de_fer": "chemin-de-fer"}
FILES = {directory: game_figures(game_id) for directory, game_id in GAMES.items()}
# How many figures of each kind each file holds: a truncated or half-deleted file fails here
# instead of silently checking less.
EXPECTED_KINDS = {
    # count: main 3 x 3 decks, EZ and no-commission 5, pairs 2 + 2 x 3 tiers, Perfect Pairs 3;
    # house_edge: main 4, EZ and no-commission 6, pairs 2, Perfect Pairs 1
    "punto_banco": {"count": 9 + 5 + 8 + 3, "total": 3, "house_edge": 4 + 6 + 2 + 1,
                    "house_edge_resolved": 2, "sd": 3, "feature_count": 30,
                    "feature_probability": 3, "return": 10 + 2},
    "nine_and_nines": {"house_edge_exact": 2, "house_edge": 1 + 4, "count": 3, "total": 1},
    # the README's House Way edge: no outside source publishes a figure for the game
    "century21": {"value_exact": 1},
    # Kemeny and Snell's 9/11; sizes: Model A1, B2 (d = 1..8), B3 (6 decks); uniqueness: A1,
    # B2 (d = 1..8), B2 with a 5% commission (6 decks)
    "chemin_de_fer": {"draw_probability": 1, "game_size": 1 + 8 + 1, "unique": 1 + 8 + 1},
}
FIGURES = [(directory, figure) for directory, published in FILES.items()
           for figure in published.figures]


def test_each_file_holds_the_expected_figures():
    for directory, published in FILES.items():
        held = Counter(figure.kind for figure in published.figures)
        assert dict(held) == EXPECTED_KINDS[directory], directory
        assert len({figure.id for figure in published.figures}) == len(published.figures)
        assert all(figure.source for figure in published.figures)


_ANALYSES: dict[tuple[str, int, tuple[str, ...]], GameAnalysis] = {}
_TALLIES: dict[tuple[str, int, tuple[str, ...], str], Counter] = {}


def _analysis(game: Game, decks: int, bet_ids: tuple[str, ...]) -> GameAnalysis:
    """The bets the file names, analysed once per shoe for the whole module."""
    key = (game.id, decks, bet_ids)
    if key not in _ANALYSES:
        bets = [bet for bet in game_bets(game) if bet.id in bet_ids]
        _ANALYSES[key] = analyze(game, Shoe.standard(decks), bets)
    return _ANALYSES[key]


def _feature_counts(game: Game, decks: int, names: tuple[str, ...], engine: str) -> Counter:
    key = (game.id, decks, names, engine)
    if key not in _TALLIES:
        _TALLIES[key] = engine_counts(game, Shoe.standard(decks), list(names),
                                      lambda f: tuple(f[n] for n in names), engine)
    return _TALLIES[key]


def computed(directory: str, figure: Figure) -> list[int | Fraction | tuple[int, int]]:
    """The library's exact figure, in the figure's unit (for a deviation: the variance; for a
    game size: each side's number of pure strategies), once per independent way of computing
    it."""
    if figure.kind in STRATEGY_KINDS:
        return STRATEGY_GAMES[directory](figure)
    game = get_game(GAMES[directory])
    total = falling(52 * figure.decks, 6)
    if figure.kind == "total":
        return [total]
    if figure.features:
        names = tuple(sorted({name for other in FILES[directory].of_kind(figure.kind)
                              for name, _ in other.features}))
        wanted = dict(figure.features)
        out: list[int | Fraction | tuple[int, int]] = []
        for engine in ("compiled", "direct"):
            counts = _feature_counts(game, figure.decks, names, engine)
            assert sum(counts.values()) == total
            count = sum(c for key, c in counts.items()
                        if all(key[names.index(n)] == v for n, v in wanted.items()))
            out.append(figure.in_unit(count, total) if figure.kind == "feature_count"
                       else Fraction(count, total))
        return out
    bet_ids = tuple(sorted({f.bet for f in FILES[directory].figures if f.bet}))
    analysis = _analysis(game, figure.decks, bet_ids)
    assert analysis.total == total
    bet = analysis.bets[figure.bet]
    assert sum(bet.counts) == total
    table = bet.table(figure.paytable)
    if figure.kind == "count":
        events = [event.name for event in bet.bet.events]
        return [figure.in_unit(bet.counts[events.index(figure.event)], total)]
    if figure.kind in ("house_edge", "house_edge_exact"):
        return [table.house_edge]
    if figure.kind == "house_edge_resolved":
        return [table.house_edge_per_resolved_bet]
    if figure.kind == "return":
        return [table.expected_value]
    assert figure.kind == "sd"
    return [table.variance]


def _century21(figure: Figure) -> list[int | Fraction | tuple[int, int]]:
    """The player's result under the figure's strategy pair, on the default rules' shoe: from
    the game table (the sequence form, every pair of action sequences counted) and, for a pure
    pair, from the compiled evaluator of that pair (a polynomial over the shoe's counts)."""
    from exact.games.century21.batch import PLAYER, evaluator_for
    from exact.games.century21.game import DEFAULT_RULES, game_table, shoe_for
    from exact.games.century21.solve import strategy_by_name

    strategy = figure.own_value("strategy")
    assert figure.kind == "value_exact" and isinstance(strategy, str), figure.id
    assert (figure.decks, dict(figure.own)) == (DEFAULT_RULES.decks, {"strategy": strategy})
    shoe = shoe_for(DEFAULT_RULES)
    table = game_table(DEFAULT_RULES, shoe)
    out: list[int | Fraction | tuple[int, int]] = [
        table.evaluate(*strategy_by_name(table, strategy)).edge]
    if strategy != "equilibrium":  # a mixed pair has no compiled deal
        evaluator = evaluator_for(DEFAULT_RULES, strategy)
        out.append(evaluator.expected_values([shoe])[PLAYER][0])
    return out


def _chemin_de_fer(figure: Figure) -> list[int | Fraction | tuple[int, int]]:
    from exact.games.chemin_de_fer.game import (
        RULES,
        describe_set,
        equilibrium,
        nash_equilibria,
        sequence_form,
    )

    own = dict(figure.own)
    information = own["information"]
    assert information is not None, figure.id
    rules = RULES.with_commission(own["commission"]) if own["commission"] else RULES
    decks = figure.decks  # None: with replacement
    assert (decks is None) == own["replacement"], figure.id
    if figure.kind == "game_size":
        game = sequence_form(rules, decks, information)
        pure = tuple(prod(len(actions) for actions in side.values()) for side in game.sets)
        return [(pure[0], pure[1]), _chemin_de_fer_size_by_hand(information)]
    every = nash_equilibria(rules, decks, information)
    if figure.kind == "unique":
        return [every.unique]
    assert figure.kind == "draw_probability" and own["strategy"] == "equilibrium", figure.id
    lp = equilibrium(rules, decks, information)
    assert lp.verified and every.unique
    (where,) = [h for h in lp.strategies[0] if describe_set(h) == own["at"]]
    out: list[int | Fraction | tuple[int, int]] = [
        found.strategies[0][where]["draw"] for found in (lp, every.found[0])]
    if decks is None and information == "totals" and where == ("player", 5):
        mixed = [h for h, p in lp.strategies[1].items() if 0 < p["draw"] < 1]
        assert len(mixed) == 1 and mixed[0][2] is None  # one mixed set, the Player stood
        out.append(_draw_on_five_by_hand(mixed[0][1]))
    return out


def _chemin_de_fer_size_by_hand(information: str) -> tuple[int, int]:
    """Each side's pure strategies, a draw-or-stand choice at each of its information sets:
    the Player chooses on 5 only, knowing its total or, in the cards model, which of the 5
    two-card hands of total 5 it holds; the Banker chooses with every hand but a natural (8, 9),
    knowing its total (0-7) or its two cards, and whether the Player stood or which third card
    (0-9) it drew."""
    pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    player = len([p for p in pairs if sum(p) % 10 == 5]) if information == "cards" else 1
    hands = 8 if information == "totals" else len([p for p in pairs if sum(p) % 10 < 8])
    return 2**player, 2 ** (hands * 11)


def _draw_on_five_by_hand(banker: int) -> Fraction:
    """With replacement (a card is a 0 with chance 4/13, else 1-9 each 1/13) the Player's
    probability p of drawing on 5 that leaves the Banker holding ``banker`` against a standing
    Player indifferent: its gain from drawing over standing against a Player's 5 (which stands
    with chance 1 - p), 6 and 7, each weighted by the chance of that two-card total, sums to 0."""
    card = {value: Fraction(4 if value == 0 else 1, 13) for value in range(10)}
    two_cards = Counter()
    for first, second in product(range(10), repeat=2):
        two_cards[(first + second) % 10] += card[first] * card[second]

    def sign(banker_total: int, player_total: int) -> int:
        return (banker_total > player_total) - (banker_total < player_total)

    gain = {player: two_cards[player] * (sum(chance * sign((banker + x) % 10, player)
                                             for x, chance in card.items())
                                         - sign(banker, player)) for player in (5, 6, 7)}
    return 1 + (gain[6] + gain[7]) / gain[5]


STRATEGY_GAMES = {"century21": _century21, "chemin_de_fer": _chemin_de_fer}


@pytest.mark.parametrize(("directory", "figure"), FIGURES,
                         ids=[f"{directory}: {figure.id}" for directory, figure in FIGURES])
def test_published_figure(directory, figure):
    for value in computed(directory, figure):
        assert figure.expressed(value) == figure.value


# --- the loader ------------------------------------------------------------------------------
def test_expressed_rounds_exactly_at_the_published_precision():
    edge = loads('[[figure]]\nwhat = "house_edge"\nbet = "b"\nvalue = "1.06"\n', "f.toml")
    figure = edge.figures[0]
    assert figure.expressed(Fraction(10575, 10**6)) == "1.06"  # 1.0575% -> 1.06
    assert figure.expressed(Fraction(10549, 10**6)) == "1.05"
    assert not figure.agrees(Fraction(10549, 10**6))
    ret = Figure("return", "-0.040964", "s", bet="b")
    assert ret.expressed(Fraction(-40964, 10**6)) == "-0.040964"
    assert ret.expressed(Fraction(-1, 10**7)) == "0.000000" != ret.value
    count = Figure("count", 6448, "s", bet="b", event="e", per=86320)
    assert count.in_unit(6448 * 3, 86320 * 3) == 6448 and count.agrees(6448)
    assert count.expressed(count.in_unit(1, 3)) == "86320/3"  # not a whole count: disagrees
    deviation = Figure("sd", "2.6409", "s", bet="b")
    assert deviation.expressed(Fraction(26409, 10**4) ** 2) == "2.6409"
    assert deviation.expressed(Fraction(264085, 10**5) ** 2 - Fraction(1, 10**12)) == "2.6408"
    size = Figure("game_size", "2^5 x 2^484", "s")
    assert size.agrees((2**5, 2**484)) and not size.agrees((2**5, 2**483))
    assert size.expressed((2, 3 * 2**4)) == "2 x 48" and size.expressed((1, 2**2)) == "1 x 2^2"
    assert not size.agrees(2**489)  # a number is no game size
    unique = Figure("unique", True, "s")
    assert unique.agrees(True) and not unique.agrees(False) and not unique.agrees(1)
    nine_elevenths = Figure("draw_probability", "9/11", "s",
                            own=(("strategy", "equilibrium"), ("at", "P 5")))
    assert nine_elevenths.agrees(Fraction(18, 22)) and not nine_elevenths.agrees(Fraction(9, 10))


def test_find_names_one_figure():
    punto_banco = FILES["punto_banco"]
    assert punto_banco.value("total", decks=1) == falling(52, 6)
    nine_to_one = punto_banco.find("house_edge", bet="tie", paytable="9-to-1")
    assert (nine_to_one.decks, nine_to_one.paytable, nine_to_one.places) == (8, "9-to-1", 4)
    assert punto_banco.value("feature_count", winner="tie", player_total=0) > 0
    with pytest.raises(LookupError):
        punto_banco.find("house_edge", bet="tie")  # two paytables
    with pytest.raises(LookupError):
        punto_banco.find("count", decks=2, bet="banker")
    chemin_de_fer = FILES["chemin_de_fer"]
    assert chemin_de_fer.value("draw_probability", decks=None, replacement=True,
                               at="Player 5") == "9/11"
    assert chemin_de_fer.value("draw_probability", decks=None, at="Player 5") == "9/11"
    assert chemin_de_fer.value("game_size", decks=6, information="cards") == "2^5 x 2^484"
    commission = chemin_de_fer.find("unique", decks=6, commission="1/20")
    assert commission is chemin_de_fer.find("unique", decks=6, commission=Fraction(5, 100))
    assert commission.id == "6d unique banker-cards commission 1/20"
    assert chemin_de_fer.find("unique", decks=None).id == "unique replacement totals"
    with pytest.raises(LookupError):
        chemin_de_fer.find("unique", decks=6)  # with and without the commission
    assert chemin_de_fer.find("unique", decks=6, commission=0).own_value("commission") == 0
    assert chemin_de_fer.find("unique", decks=6, commission="0").own_value("at") is None
    with pytest.raises(LookupError):
        chemin_de_fer.find("game_size", decks=6, information="totals")  # only with replacement


@pytest.mark.parametrize(("text", "problem"), [
    ("[[figure]]\nwhat = 'nonsense'\nvalue = 1\n", "'what' must be one of"),
    ("[[figure]]\nwhat = 'count'\nevent = 'Tie'\nvalue = 1\n", "names its 'bet'"),
    ("[[figure]]\nwhat = 'count'\nbet = 'tie'\nvalue = 1\n", "names its 'event'"),
    ("[[figure]]\nwhat = 'count'\nbet = 'tie'\nevent = 'Tie'\nvalue = -1\n", "whole number"),
    ("[[figure]]\nwhat = 'count'\nbet = 'tie'\nevent = 'Tie'\nvalue = 1.5\n", "whole number"),
    ("[[figure]]\nwhat = 'count'\nbet = 'tie'\nevent = 'Tie'\nvalue = " + "9" * 70 + "\n",
     "whole number"),
    ("[[figure]]\nwhat = 'house_edge'\nbet = 'tie'\nvalue = 1.0579\n", "a decimal as text"),
    ("[[figure]]\nwhat = 'house_edge'\nbet = 'tie'\nvalue = '1e3'\n", "a decimal as text"),
    ("[[figure]]\nwhat = 'house_edge_exact'\nbet = 'tie'\nvalue = '1/0'\n", "a fraction"),
    ("[[figure]]\nwhat = 'total'\ndecks = 0\nvalue = 1\n", "'decks' must be"),
    ("[[figure]]\nwhat = 'total'\ndecks = '8'\nvalue = 1\n", "'decks' must be"),
    ("[[figure]]\nwhat = 'total'\nvalue = 1\nvlaue = 2\n", "unknown key(s) 'vlaue'"),
    ("[[figure]]\nwhat = 'total'\nper = 3\nvalue = 1\n", "'per'"),
    ("[[figure]]\nwhat = 'feature_count'\nvalue = 1\n", "'features' must be a table"),
    ("[[figure]]\nwhat = 'feature_count'\nfeatures = {a = [1]}\nvalue = 1\n", "feature 'a'"),
    ("[[figure]]\nwhat = 'total'\nfeatures = {a = 1}\nvalue = 1\n", "only feature figures"),
    ("source = 'x'\n", "no [[figure]] table"),
    ("figure = 3\n", "no [[figure]] table"),
    ("[[figure]]\nwhat = 'unique'\nvalue = 'yes'\n", "true or false (unique)"),
    ("[[figure]]\nwhat = 'unique'\nvalue = 1\n", "true or false (unique)"),
    ("[[figure]]\nwhat = 'game_size'\nvalue = '2 x 2^1'\n", "a game size"),
    ("[[figure]]\nwhat = 'game_size'\nvalue = '2 x 2^10000'\n", "a game size"),
    ("[[figure]]\nwhat = 'game_size'\nvalue = 2\n", "a game size"),
    ("[[figure]]\nwhat = 'draw_probability'\nstrategy = 'equilibrium'\nat = 'P'\n"
     "value = '12/11'\n", "from 0 to 1"),
    ("[[figure]]\nwhat = 'draw_probability'\nstrategy = 'equilibrium'\nvalue = '1/2'\n",
     "names its set 'at'"),
    ("[[figure]]\nwhat = 'value_exact'\nat = 'P'\nstrategy = 'house'\nvalue = '1/2'\n",
     "has no set 'at'"),
    ("[[figure]]\nwhat = 'value_exact'\nvalue = '-1/2'\n", "names its 'strategy'"),
    ("[[figure]]\nwhat = 'unique'\nstrategy = 'house'\nvalue = true\n", "has no 'strategy'"),
    ("[[figure]]\nwhat = 'value_exact'\nstrategy = 'cheat'\nvalue = '1'\n",
     "'strategy' must be one of"),
    ("[[figure]]\nwhat = 'unique'\ninformation = 'all'\nvalue = true\n",
     "'information' must be one of"),
    ("[[figure]]\nwhat = 'unique'\ncommission = '1'\nvalue = true\n", "'commission' must"),
    ("[[figure]]\nwhat = 'unique'\ncommission = 0.05\nvalue = true\n", "'commission' must"),
    ("[[figure]]\nwhat = 'unique'\nreplacement = 'yes'\nvalue = true\n",
     "'replacement' must be true or false"),
    ("[[figure]]\nwhat = 'unique'\nreplacement = true\ndecks = 1\nvalue = true\n",
     "a figure dealt with replacement has no 'decks'"),
    ("[[figure]]\nwhat = 'unique'\nbet = 'tie'\nvalue = true\n", "has no 'bet'"),
    ("[[figure]]\nwhat = 'total'\ninformation = 'totals'\nvalue = 1\n",
     "has no 'information'"),
    ("[[figure\n", "not valid TOML"),
    ("a" + ".a" * 300 + " = 1\n", "not valid TOML"),
])
def test_malformed_file_is_one_typed_line(text, problem):
    """(Read with chemin de fer's record, whose keys of its own are the most.)"""
    with pytest.raises(PublishedFiguresError) as caught:
        loads(text, "figures.toml", CheminDeFerFigure)
    message = str(caught.value)
    assert message.startswith("figures.toml") and "\n" not in message
    assert problem in message, message


@pytest.mark.parametrize(("record", "key", "value"), [
    (None, "information", "'totals'"), (None, "replacement", "true"),
    (None, "commission", "'1/20'"), (None, "strategy", "'house'"), (None, "at", "'Player 5'"),
    (Century21Figure, "information", "'totals'"), (Century21Figure, "replacement", "true"),
])
def test_a_key_the_game_does_not_declare_is_refused_in_one_line(record, key, value):
    """The generic reader knows no game's keys: each game declares its own (its plugin
    record's ``figures``), and another game's key is as unknown as a misspelt one."""
    text = f"[[figure]]\nwhat = 'value_exact'\n{key} = {value}\nvalue = '1/2'\n"
    with pytest.raises(PublishedFiguresError) as caught:
        loads(text, "figures.toml", record)
    assert str(caught.value).startswith(f"figures.toml: figure entry 1: unknown key(s) '{key}'")
    assert "\n" not in str(caught.value)


def test_each_game_reads_its_figures_with_the_keys_it_declares(monkeypatch):
    from exact.model import plugins

    assert plugin("chemin-de-fer").figures is CheminDeFerFigure
    assert plugin("century21").figures is Century21Figure
    assert plugin("punto-banco").figures is None  # a bet game's keys are every game's
    assert {key for figure in FILES["chemin_de_fer"].figures for key, _ in figure.own} == {
        "replacement", "information", "commission", "strategy", "at"}
    assert all(figure.own == () for figure in FILES["punto_banco"].figures)
    broken = dataclasses.replace(plugin("chemin-de-fer"), figures=dict)
    monkeypatch.setattr(plugins, "plugin", lambda game_id: broken)
    with pytest.raises(PublishedFiguresError, match="is no FigureEntry"):
        game_figures("chemin-de-fer")


def test_unreadable_or_oversized_file_is_a_typed_error(tmp_path):
    from exact.core.parsing import MAX_FILE_BYTES
    from exact.reference.published import load

    with pytest.raises(PublishedFiguresError, match="cannot read published figures"):
        load(tmp_path / "missing.toml")
    big = tmp_path / "big.toml"
    big.write_text("#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(PublishedFiguresError, match="larger than"):
        load(big)


def test_every_kind_is_published_somewhere():
    assert {figure.kind for published in FILES.values() for figure in published.figures} == \
        set(KINDS)
