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
# # Baccara chemin de fer: the classic game-theory solutions, exactly
#
# Heads-up, the Player draws on 0-4, stands on 6-7 and chooses on 5; the Banker chooses at every
# decision point, seeing its own hand and the Player's third card (or that the Player stood).
# The game is a module and a rules file (`exact/games/chemin_de_fer/game.py`); the equilibria come
# from the generic algorithms of `exact/engines/strategy_games.py` (sequence-form LP made
# exact, exact best responses, exact support enumeration for the commission game). The first
# cell stops with a clear message if the game (`chemin-de-fer`) is not part of this checkout yet.

# %%
from fractions import Fraction

import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from exact.lab.notebooks import require_game
from exact.reference.published import game_figures

game = require_game("chemin-de-fer")
from exact.games.chemin_de_fer.game import (  # noqa: E402
    PLAYER_FIVE,
    RULES,
    describe_set,
    equilibrium,
    nash_equilibria,
)


def mixed(strategy):
    return {describe_set(h): p["draw"] for h, p in strategy.items() if 0 < p["draw"] < 1}


# %% [markdown]
# ## Kemeny and Snell (1957): with replacement, each side sees its total
# Published (Ethier and Gámez 2013, abstract and introduction; issue 16; each figure read from
# `exact/data/chemin_de_fer/published.toml`, its source quoted there): a 2 x 2^88 matrix game
# with a unique solution, the Player drawing on 5 with probability 9/11. The published value and
# the Banker's mixing could not be retrieved here, so they stand beside nothing yet: the exact
# figures below are checked by the exact deviation check, by hand (9/11 is exactly what leaves the
# Banker indifferent with 6 against a standing Player, and the 2 x 2 kernel's closed form gives
# the value and the Banker's mixing) and by an independent twin (the payoffs written again from
# scratch, solved by Foster's algorithm and as a plain matrix game;
# tests/games/test_chemin_de_fer.py).

# %%
published = game_figures("chemin-de-fer")
kemeny_snell = equilibrium(RULES, None, "totals")
nine_elevenths = published.find("draw_probability", decks=None, replacement=True,
                                information="totals", at="Player 5")
print(f"Player's value {kemeny_snell.values[0]} = {float(kemeny_snell.values[0]):+.6%}")
print("mixed:", mixed(kemeny_snell.strategies[0]), mixed(kemeny_snell.strategies[1]))

# %% [markdown]
# ## Banker sees its two cards (Downton and Lockwood 1975; Ethier and Gámez 2013, Model B2)
# The first coup from a full d-deck shoe, and with replacement; each row is the exact minimax
# solution, verified (neither side gains by deviating, exactly). Published: a 2 x 2^484 game with a
# unique solution for d = 1..8 (Downton and Lockwood; Ethier and Gámez). Their tables of values and
# strategies could not be retrieved here; for every d the row agrees exactly with the independent
# twin solved by Foster's algorithm, the method they used.

# %%
rows = ["| shoe | Player's value | P(Player draws on 5) | Banker mixes at | P(Banker draws) "
        "| verified |", "|---|---|---|---|---|---|"]
values, verified = {}, {}
for decks in [*range(1, 9), None]:
    found = equilibrium(RULES, decks, "banker-cards")
    verified[decks] = found.verified
    values[decks] = found.values[0]
    banker = mixed(found.strategies[1])
    rows.append(f"| {'with replacement' if decks is None else f'{decks} deck(s)'} | "
                f"{float(found.values[0]):+.6%} | "
                f"{float(found.strategies[0][PLAYER_FIVE]['draw']):.6f} | "
                f"{'; '.join(banker) or '-'} | "
                f"{'; '.join(f'{float(p):.6f}' for p in banker.values()) or '-'} | "
                f"{'yes' if found.verified else 'NO'} |")
display(Markdown("\n".join(rows)))

# %% [markdown]
# With replacement the Banker's composition tells it nothing about the cards to come, so Model
# B2 has Kemeny and Snell's value, and the Banker's mixing at 6 against a standing Player may be
# spread over the compositions of 6 in any way that keeps the total: the solution is not unique,
# and the exact enumeration says so (it meets a tie off the support and claims no uniqueness).
# Dealt from a finite shoe, the composition informs, and the value moves with d.

# %%
figure, axis = plt.subplots(figsize=(6, 3))
axis.plot(range(1, 9), [float(values[d]) * 100 for d in range(1, 9)], marker="o",
          label="d decks, first coup")
axis.axhline(float(values[None]) * 100, linestyle="--", color="grey", label="with replacement")
axis.set_xlabel("decks")
axis.set_ylabel("Player's value (%)")
axis.set_title("Chemin de fer, Banker sees its cards: value of the game")
axis.legend()
plt.tight_layout()
plt.show()

# %% [markdown]
# ## With the casino's commission (Ethier and Lee 2023): a bimatrix game
# A 5% commission on Banker wins, 6 decks: the exact support enumeration finds every Nash
# equilibrium. The Banker still makes the Player indifferent, so the Player's value is the
# parlor game's; the Player's mixing changes, to keep the Banker indifferent.

# %%
casino = nash_equilibria(RULES.with_commission(Fraction(1, 20)), 6, "banker-cards")
found = casino.found[0]
print(f"Player {float(found.values[0]):+.6%}, Banker {float(found.values[1]):+.6%}; "
      f"mixed: {mixed(found.strategies[0])} {mixed(found.strategies[1])}")
