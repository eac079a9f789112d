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
# # Card counting at Punto Banco
#
# How much do the cards already dealt move the edge of each wager? The effects of removal
# (EOR) are computed exactly: the shoe less one card of each rank is re-analysed by the
# compiled engine. A linear count built from them then predicts the edge of depleted shoes,
# which we check against the exact edge of seeded random depleted shoes.

# %%
import random
from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import CARDS, RANKS, Shoe
from exact.lab.notebooks import require_game

game = require_game("punto-banco")
bets = [bet for bet in game_bets(game) if bet.id in ("banker", "player", "tie")]
full = Shoe.standard(8)
base = analyze(game, full, bets)
base_edge = {b: base.bets[b].table().house_edge for b in base.bets}

eor = {b: {} for b in base.bets}
for rank in RANKS:
    depleted = analyze(game, full.remove([rank]), bets)
    for b in eor:
        eor[b][rank] = depleted.bets[b].table().house_edge - base_edge[b]

display(Markdown("| Rank | " + " | ".join(base.bets[b].bet.name for b in eor) + " |\n|---|"
                 + "---|" * len(eor) + "\n" + "\n".join(
    f"| {r} | " + " | ".join(f"{float(eor[b][r]) * 100:+.5f} pp" for b in eor) + " |"
    for r in RANKS)))

# %% [markdown]
# Removing a card drawn at random leaves every expectation unchanged, so the effects
# weighted by the number of cards of each rank sum to exactly zero.

# %%


# %% [markdown]
# ## Effects of removal, one chart per bet
# The batch evaluator gives the same effects for the main bets in one pass (checked here
# against the re-analyses above) and for side bets too; each bet gets its own bar chart on
# its own scale (red: removing that rank raises the house edge).

# %%
from exact.analysis.removal import break_even_true_count, derive_tags, effects_of_removal  # noqa: E402
from exact.lab.notebooks import removal_figure  # noqa: E402

charted = [bet for bet in game_bets(game)
           if bet.id in ("banker", "player", "tie", "dragon-7", "panda-8", "egalite-5")]
removal = effects_of_removal(game, full, charted)
removal_figure(removal)
plt.show()

# %% [markdown]
# ## A linear count against the exact edge
# After `k` of the `N` cards are gone, the linear estimate of the edge is
# `base + (N-1)/(N-k) * sum of the EOR of the removed cards`. We deal 300 of the 416 cards
# of seeded random shoes and compare that estimate with the exact edge of what is left.

# %%
generator = random.Random(2026)
deck = [card for card, count in zip(CARDS, full.counts, strict=True) for _ in range(count)]
N, dealt = full.size, 300
estimates = {b: [] for b in eor}
exact_edges = {b: [] for b in eor}
for _ in range(60):
    removed = generator.sample(deck, dealt)
    left = full.remove(removed)
    result = analyze(game, left, bets)
    for b in eor:
        shift = sum(eor[b][card.rank] for card in removed) * Fraction(N - 1, N - dealt)
        estimates[b].append(float(base_edge[b] + shift) * 100)
        exact_edges[b].append(float(result.bets[b].table().house_edge) * 100)

correlations = {b: np.corrcoef(estimates[b], exact_edges[b])[0, 1] for b in eor}
print({b: round(float(c), 3) for b, c in correlations.items()})

figure, axes = plt.subplots(1, 3, figsize=(11, 3.4))
for axis, b in zip(axes, eor, strict=True):
    axis.plot(estimates[b], exact_edges[b], ".", markersize=4)
    low, high = min(exact_edges[b]), max(exact_edges[b])
    axis.plot([low, high], [low, high], color="grey", linewidth=0.8)
    axis.set_title(f"{base.bets[b].bet.name} (r = {correlations[b]:.3f})")
    axis.set_xlabel("linear count estimate of house edge (%)")
    axis.set_ylabel("exact house edge (%)")
plt.tight_layout()
plt.show()

# %% [markdown]
# The linear count tracks the exact edge closely, but the effects are tiny: the edge of a
# depleted shoe rarely if ever turns in the player's favour on the main wagers, which is why
# baccarat's main bets are not worth counting. How often did it here?

# %%
for b in eor:
    share = sum(e < 0 for e in exact_edges[b]) / len(exact_edges[b])
    print(f"{base.bets[b].bet.name}: player advantage in {share:.0%} of the depleted shoes")

# %% [markdown]
# ## The exact edge against the true count
# Each bet's own balanced count (tags proportional to its effects of removal): the true count
# of the cards dealt (running count per deck left) against the exact house edge of what is
# left, for the same depleted shoes. The dashed line is the true count where the linear
# estimate says the bet turns in the player's favour (TC*).

# %%
tags = {b: derive_tags(removal.effects[b]) for b in eor}
samples = random.Random(2026)
true_counts = {b: [] for b in eor}
for _ in range(60):  # the same seeded shoes as above
    removed = samples.sample(deck, dealt)
    for b in eor:
        running = sum(tags[b][card.rank] for card in removed)
        true_counts[b].append(running / ((N - dealt) / 52))
figure, axes = plt.subplots(1, 3, figsize=(11, 3.4))
for axis, b in zip(axes, eor, strict=True):
    axis.plot(true_counts[b], exact_edges[b], ".", markersize=5)
    trigger = break_even_true_count(removal.base[b], tags[b], removal.effects[b], 8)
    if abs(trigger) < 50:
        axis.axvline(trigger, color="#c00000", linestyle="--", linewidth=0.8,
                     label=f"TC* = {trigger:.1f}")
        axis.legend(fontsize=7)
    axis.axhline(0, color="grey", linewidth=0.8)
    axis.set_title(base.bets[b].bet.name)
    axis.set_xlabel("true count (running count per deck left)")
    axis.set_ylabel("exact house edge (%)")
plt.tight_layout()
plt.show()
