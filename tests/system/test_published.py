"""Every published figure of exact/data/<game>/published.toml (transcribed from
../shared/reference/published-figures.md), computed here independently of the reports'
verification and compared with the file: counts exactly, rounded figures at their published
precision.

How each kind is computed: bet counts, edges, returns and deviations from the bet analysis of
a full shoe (the engine the plan chooses); the denominator as N!/(N-6)!; feature counts and
probabilities by grouping the round records of both the compiled and the direct engine."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from exact.analysis.bet_analysis import GameAnalysis, analyze, game_bets
from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.errors import PublishedFiguresError
from exact.games import get_game
from exact.model.game import Game
from exact.reference.published import KINDS, Figure, game_figures, loads

from tests.support.batch_helpers import engine_counts

GAMES = {"punto_banco": "punto-banco", "nine_and_nines": "nine-and-nines"}
FILES = {directory: game_figures(directory) for directory in GAMES}
# How many figures of each kind each file holds: a truncated or half-deleted file fails here
# instead of silently checking less.
EXPECTED_KINDS = {
    # count: main 3 x 3 decks, EZ and no-commission 5, pairs 2 + 2 x 3 tiers, Perfect Pairs 3;
    # house_edge: main 4, EZ and no-commission 6, pairs 2, Perfect Pairs 1
    "punto_banco": {"count": 9 + 5 + 8 + 3, "total": 3, "house_edge": 4 + 6 + 2 + 1,
                    "house_edge_resolved": 2, "sd": 3, "feature_count": 30,
                    "feature_probability": 3, "return": 10 + 2},
    "nine_and_nines": {"house_edge_exact": 2, "house_edge": 1 + 4, "count": 3, "total": 1},
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


def computed(directory: str, figure: Figure) -> list[int | Fraction]:
    """The library's exact figure, in the figure's unit (for a deviation: the variance), once
    per independent way of computing it."""
    game = get_game(GAMES[directory])
    total = falling(52 * figure.decks, 6)
    if figure.kind == "total":
        return [total]
    if figure.features:
        names = tuple(sorted({name for other in FILES[directory].of_kind(figure.kind)
                              for name, _ in other.features}))
        wanted = dict(figure.features)
        out: list[int | Fraction] = []
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
    ("[[figure\n", "not valid TOML"),
    ("a" + ".a" * 300 + " = 1\n", "not valid TOML"),
])
def test_malformed_file_is_one_typed_line(text, problem):
    with pytest.raises(PublishedFiguresError) as caught:
        loads(text, "figures.toml")
    message = str(caught.value)
    assert message.startswith("figures.toml") and "\n" not in message
    assert problem in message, message


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
