from fractions import Fraction

from exact.analysis.bet_analysis import analyze
from exact.core.cards import Shoe
from exact.model.bets import load_bets

# the code-driven designer shows the library's exact edge at 40 to 1
expected = shipped.house_edge - (40 - award.pays) * award.probability
assert edge == expected
assert str(sketch.table.house_edge) in sketch.readout.value
# the solve hits the target exactly, and the slider sits at the practical pay
assert design.model.edge(design.exact_pays) == Fraction(4, 100)
assert sketch.pays()[top] == design.practical_pays[top]
assert sketch.table.house_edge == design.practical_edge
# the saved table reads back to the same exact edge (its paytable: designed)
(read_back,) = load_bets(saved, game.features)
assert read_back.paytable == "designed"
again = analyze(game, Shoe.standard(DECKS), [read_back]).bets[BET].table()
assert again.house_edge == sketch.table.house_edge
# the widget above was not moved by the cells below it
assert app.designer.changed_pays() == {}
assert "paytable <b>30-10-6-4-2-1</b>" in app.designer.header.value
