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
# # 21st Century Baccarat: wagers and edges
#
# The game is dealt from eight decks with one joker per deck (424 cards); jokers are wild.
# Every wager the game ships is analysed exactly under every paytable. The first cell
# stops with a clear message if the game (`century21`) is not part of this checkout yet.

# %%
import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from exact.analysis import analyze, game_bets
from exact.cards import Shoe
from exact.notebooks import edge_table, require_game

game = require_game("century21")
bets = game_bets(game)
shoe = Shoe.standard(8, jokers=8)
result = analyze(game, shoe, bets)
display(Markdown(edge_table(result)))

# %% [markdown]
# ## Checks
# Every table's counts sum to the shoe's denominator, and every paytable of every wager has
# a house edge between -100 % and 100 %.

# %%
for bet in result.bets.values():
    assert sum(bet.counts) == result.total
    for table in bet.tables.values():
        assert -1 < table.house_edge < 1

# %% [markdown]
# ## House edge by paytable

# %%
labels, edges = [], []
for bet in result.bets.values():
    for name, table in bet.tables.items():
        labels.append(f"{bet.bet.name}\n{name}")
        edges.append(float(table.house_edge) * 100)
figure, axis = plt.subplots(figsize=(max(6, 0.9 * len(labels)), 4))
axis.bar(range(len(labels)), edges)
axis.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
axis.set_ylabel("house edge (%)")
axis.set_title("21st Century Baccarat: house edge of every wager and paytable, 8 decks + 8 jokers")
plt.tight_layout()
plt.show()
