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
# # Baccarat with NINE & NINES: paytables and edges
#
# The NINE wager (on the Player's or the Banker's two-card 9) and the NINES bonus (pays on
# either or both hands' two-card 9s), analysed exactly for an 8-deck shoe under every
# paytable the game ships. The first cell stops with a clear message if the game
# (`nine-and-nines`) is not part of this checkout yet.

# %%
import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.lab.notebooks import edge_table, require_game
from exact.reference.published import game_figures

game = require_game("nine-and-nines")
bets = game_bets(game)
shoe = Shoe.standard(8)
result = analyze(game, shoe, bets)
display(Markdown(edge_table(result)))

# %% [markdown]
# ## Checks
# Every table's counts sum to the shoe's denominator, and every paytable of every wager has
# a house edge between -100 % and 100 %; NINE's edge is exactly the figure of
# `exact/data/nine_and_nines/published.toml` (259/5395).

# %%
from fractions import Fraction  # noqa: E402

# the headline: NINE (either party) on the illustrative Table NINE, 8 decks, exactly
published = game_figures("nine-and-nines")
for bet_id in ("nine-player", "nine-banker"):
    exact_edge = Fraction(published.value("house_edge_exact", bet=bet_id))
    print(f"{bet_id}: published {exact_edge}, computed {result.bets[bet_id].table().house_edge}")

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
axis.set_title("NINE & NINES: house edge of every wager and paytable, 8 decks")
plt.tight_layout()
plt.show()
