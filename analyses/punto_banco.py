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
# # Punto Banco: edges, paytables and decks
#
# Every wager the game ships (the main bets and, once they land, the side bets) analysed
# exactly for an 8-deck shoe, with its alternative paytables, the effect of the number of
# decks and of the Banker commission. Everything is computed by the `exact` library; the
# headline numbers are printed beside the published figures (the tests check they agree).

# %%
from fractions import Fraction

import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.lab.notebooks import edge_by_decks_figure, require_game
from exact.reference.published import game_figures

game = require_game("punto-banco")
bets = game_bets(game)
result = analyze(game, Shoe.standard(8), bets)
result  # noqa: B018 (a cell's last value: shown as a table of every wager and paytable)

# %% [markdown]
# ## Headline numbers
# The published 8-deck figures (wizardofodds.com, read from
# `exact/data/punto_banco/published.toml`): the house edges of the main bets, and how often
# the Banker wins out of every ordered 6-card sequence.

# %%
published = game_figures("punto-banco")
banker, player, tie = (result.bets[b] for b in ("banker", "player", "tie"))
for bet, paytable in (("banker", None), ("player", None), ("tie", "8-to-1"), ("tie", "9-to-1")):
    figure = published.find("house_edge", bet=bet, paytable=paytable)
    print(f"{bet} ({figure.paytable}): published {figure.value} %, computed",
          figure.expressed(result.bets[bet].table(paytable).house_edge), "%")
print("Banker house edge, exact:", banker.table().house_edge)

# %% [markdown]
# ## House edge against the number of decks
# One panel per family of bets (main bets, pairs, Egalité, ...), each on its own scale: the
# bets a reader compares sit together, and no line hides another.

# %%
decks = [1, 2, 4, 6, 8]
by_decks = {d: result if d == 8 else analyze(game, Shoe.standard(d), bets) for d in decks}
figure = edge_by_decks_figure(by_decks, bets)
plt.show()

# %% [markdown]
# ## Banker commission
# The Banker wager pays `1 - c` to 1 for a commission `c`; the house edge is linear in `c`.
# The break-even commission (house edge 0) is exact.

# %%
win, push, lose = (Fraction(c, result.total) for c in banker.counts)
commissions = [Fraction(k, 100) for k in range(0, 7)]
edges = [-(win * (1 - c) - lose) for c in commissions]
break_even = 1 - lose / win
display(Markdown("| Commission | House edge |\n|---|---|\n" + "\n".join(
    f"| {float(c):.0%} | {float(e) * 100:.4f}% |"
    for c, e in zip(commissions, edges, strict=True))))
print("break-even commission:", break_even, f"= {float(break_even):.4%}")
figure, axis = plt.subplots(figsize=(6, 3.5))
axis.plot([float(c) * 100 for c in commissions], [float(e) * 100 for e in edges], "o-")
axis.axhline(0, color="grey", linewidth=0.8)
axis.set_xlabel("commission on Banker wins (%)")
axis.set_ylabel("Banker house edge (%)")
plt.show()
