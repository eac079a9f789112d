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
# # 21st Century Baccarat: strategies and edges
#
# The game is dealt from eight decks with one joker per deck (424 cards); jokers are wild.
# It has no bet file: one player plays against the Player/Dealer, and both may deviate from
# House Way at their option hands, so its analysis is a strategy analysis. The game table
# gives the exact result of any pair of strategies: House Way, each side's best response to
# the other's House Way, and the equilibrium. The first cell stops with a clear message if
# the game (`century21`) is not part of this checkout yet.

# %%
import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from exact.core.cards import Shoe
from exact.games.century21.render import heads_up_table
from exact.lab.notebooks import require_game

game = require_game("century21")
from exact.games.century21.game import describe_set, game_table  # noqa: E402
from exact.games.century21.solve import strategy_by_name  # noqa: E402

rules = game.rules
shoe = Shoe.standard(rules.decks, rules.jokers)
table = game_table(rules, shoe)
names = {"house": "House Way v House Way", "best": "best response v House Way",
         "dealer-best": "House Way v dealer's best response",
         "equilibrium": "equilibrium v equilibrium"}
pairs = {name: strategy_by_name(table, name) for name in names}
results = {name: table.evaluate(*pair) for name, pair in pairs.items()}
lines = ["| Player v Player/Dealer | Player's edge | Win | Push | Loss | SD "
         "| Edge with $1 on $10 |",
         "|---|---|---|---|---|---|---|"]
for name, result in results.items():
    sd = heads_up_table(result, name).standard_deviation
    lines.append(f"| {names[name]} | {float(result.edge):+.4%} | "
                 f"{float(result.probability('win')):.3%} | "
                 f"{float(result.probability('push')):.3%} | "
                 f"{float(result.probability('loss')):.3%} | {sd:.4f} | "
                 f"{float(result.edge_with_collection(10, 1)):+.4%} |")
display(Markdown("\n".join(lines)))

# %% [markdown]
# ## Checks
# Every strategy pair's (expected) counts sum to the number of ordered six-card sequences;
# each best response is at least as good for its side as House Way, and the equilibrium lies
# between them: neither side gains by deviating from it (checked exactly). The House Way edge
# is the README's (`exact/data/century21/published.toml`: no outside source publishes a figure
# for the game, so this pins the project's own result).

# %%
from exact.games.century21.solve import deviation_gaps  # noqa: E402
from exact.reference.published import game_figures  # noqa: E402

edges = {name: result.edge for name, result in results.items()}
_, player_gain, dealer_gain = deviation_gaps(table, *pairs["equilibrium"])
print(f"House Way edge {edges['house']} = {float(edges['house']):+.6%}; published (the "
      f"project's own): {game_figures('century21').find('value_exact', strategy='house').value}")
print(f"At the equilibrium, a deviation gains the player {player_gain} and the dealer "
      f"{dealer_gain}")
print(f"Equilibrium value {float(edges['equilibrium']):+.6%} (exact, no side gains by deviating)")

# %% [markdown]
# ## The player's strategy map
# Probability of drawing at each option hand, by the Player/Dealer's up card.

# %%
ups = sorted({infoset[2] for infoset in table.player_sets})
figure, axes = plt.subplots(1, 3, figsize=(12, 3), sharey=True)
for axis, name in zip(axes, ("house", "best", "equilibrium"), strict=True):
    player = pairs[name][0]
    grid: dict[str, dict[int, float]] = {}
    for infoset in sorted(table.player_sets, key=str):
        own = describe_set(infoset).split(" v up ")[0].removeprefix("player ")
        grid.setdefault(own, {})[infoset[2]] = float(player[infoset].get("draw", 0))
    image = axis.imshow([[grid[h].get(u, float("nan")) for u in ups] for h in grid],
                        cmap="Blues", vmin=0, vmax=1, aspect="auto")
    axis.set_xticks(range(len(ups)), [str(u) for u in ups])
    axis.set_yticks(range(len(grid)), list(grid))
    axis.set_xlabel("dealer's up card (point value)")
    axis.set_title(names[name].split(" v ")[0])
figure.colorbar(image, ax=list(axes), label="P(draw)")
plt.show()

# %% [markdown]
# ## Player's edge by strategy pair

# %%
figure, axis = plt.subplots(figsize=(7, 3))
axis.bar(range(len(edges)), [float(e) * 100 for e in edges.values()])
axis.set_xticks(range(len(edges)), [names[n] for n in edges], rotation=20, ha="right")
axis.set_ylabel("player's edge (%)")
axis.set_title("21st Century Baccarat, 8 decks + 8 jokers: player's edge per unit bet")
plt.tight_layout()
plt.show()
