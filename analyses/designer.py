# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Paytable designer
#
# Choose a game and a bet; drag the pay of each tier and watch the exact house edge, hit
# frequency and standard deviation follow (the edge is linear in the pays, so nothing is
# re-analysed). "Solve" finds the pay of one tier that hits a target edge with
# `exact.analysis.designer` and moves its slider to the nearest practical pay. In JupyterLab
# (`make lab`) the sliders are live; run top to bottom without a front end (as the tests do),
# the notebook drives them from code.

# %%
import matplotlib.pyplot as plt
from IPython.display import display

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.lab.notebooks import require_game
from exact.lab.widgets import PaytableDesigner

GAME, BET, DECKS = "punto-banco", "dragon-bonus-player", 8

game = require_game(GAME)
bet = next(b for b in game_bets(game) if b.id == BET)
analysis = analyze(game, Shoe.standard(DECKS), [bet]).bets[BET]
designer = PaytableDesigner(analysis)
display(designer.widget)

# %% [markdown]
# ## Return by tier
# Each tier's share of the return (pay times probability); the bars move with the sliders.

# %%
designer.figure()
plt.show()

# %% [markdown]
# ## Driving the designer from code
# A slider's value is a pay; the edge shown is the library's exact edge for those pays.

# %%
from fractions import Fraction  # noqa: E402

shipped = analysis.table()
award = shipped.top_award()  # Win by 9, 30 to 1
top = award.event
designer.sliders[top].value = 40  # paid 40 to 1 instead
edge = designer.table.house_edge
expected = shipped.house_edge - (40 - award.pays) * award.probability
assert edge == expected
assert str(edge) in designer.readout.value
print(f"{top} at 40 to 1: house edge {float(edge):.4%} = {edge}")

# %% [markdown]
# ## Solve for a target edge

# %%
design = designer.solve("4%", top)
print(designer.solution.value)
assert design.model.edge(design.exact_pays) == Fraction(4, 100)
assert designer.pays()[top] == design.practical_pays[top]
assert designer.table.house_edge == design.practical_edge
