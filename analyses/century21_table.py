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
# # 21st Century Baccarat at a full table: what banking is worth
#
# A player who banks (the Player/Dealer) faces every seat at once. Each seat here wagers $100
# at a $10-$100 table with $1 collection per circle, and the Player/Dealer pays $1 collection
# too. When its wager does not cover the seats, three dice decide which seats get action
# (counted clockwise from position 1), so a small bank plays against fewer dollars.
#
# The Player/Dealer's *edge* below is its net result per hand (after its collection) per
# dollar of action it takes. It is exact for every number of seats when both sides play House
# Way (each seat's value is its heads-up value; the dice count is exact). The line "best
# response" lets the Player/Dealer see which seats drew and choose its play from that: exact
# at 1 to 3 seats (the full-table game). The first cell stops with a clear message if the
# game (`century21`) is not part of this checkout yet.

# %%
import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from exact.core.cards import Shoe
from exact.lab.notebooks import require_game

game = require_game("century21")
from exact.games.century21.table_economics import table_figures  # noqa: E402

rules = game.rules
shoe = Shoe.standard(rules.decks, rules.jokers)
WAGER = 100
SEATS = range(1, 8)
COVERED = (1, 0.75, 0.5, 0.25, 0.1)  # the share of the seats' wagers the bank covers
SHARES = (1, 0.9, 0.75, 0.6, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1)


def figures(seats, covered, strategy="house"):
    """The table's exact figures, the Player/Dealer's wager ``covered`` times the seats'
    (at least the table minimum)."""
    stake = max(rules.table.min_bet, round(covered * WAGER * seats))
    return table_figures(rules, shoe, [WAGER] * seats, strategy,
                         dealer_wager=None if covered >= 1 else stake, exact_pairs=False)


def edge(found):
    """The Player/Dealer's net per hand per dollar of action it takes (exact)."""
    return found.dealer_net / sum(found.expected_action)


house = {(n, c): figures(n, c) for n in SEATS for c in sorted({*COVERED, *SHARES})}

# %% [markdown]
# The Player/Dealer's best response to the table (exact, 1 to 3 seats; each takes seconds).

# %%
best = {n: figures(n, 1, "dealer-best") for n in range(1, 4)}

# %% [markdown]
# Beyond 3 seats the exact table game does not fit the machine: the Player/Dealer's best
# response is estimated from a seeded sample (its decisions from one sample, its value from
# another, with a standard error; 50,000 hands each here, the command uses 200,000).

# %%
from exact.games.century21.game import game_table  # noqa: E402
from exact.games.century21.table_sample import sampled_dealer_best  # noqa: E402

heads_up = game_table(rules, shoe)
player, dealer = heads_up.house_way()
house_value = heads_up.value(player, dealer)
sampled = {n: sampled_dealer_best(rules, shoe, [player] * n, dealer, [house_value] * n,
                                  hands=50_000) for n in range(4, 8)}


def sampled_edge(found):
    """The estimate's net edge per dollar of action, and its standard error (seats of WAGER,
    all covered, the Player/Dealer's collection of 1)."""
    action = WAGER * found.seats
    return (WAGER * found.dealer_value - rules.table.fee) / action, \
        WAGER * found.dealer_error / action

# %% [markdown]
# ## The edge against the number of seats and the wager covered

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
for covered in COVERED:
    label = "covers every seat" if covered == 1 else f"covers {covered:.0%}"
    left.plot(list(SEATS), [100 * float(edge(house[n, covered])) for n in SEATS],
              marker="o", label=f"House Way, {label}")
left.plot(list(best), [100 * float(edge(f)) for f in best.values()], marker="s",
          color="black", linestyle="--", label="best response to the table, covers all")
estimates = [sampled_edge(f) for f in sampled.values()]
left.errorbar(list(sampled), [100 * float(e) for e, _ in estimates],
              yerr=[100 * 1.96 * s for _, s in estimates], marker="s", color="grey",
              linestyle=":", capsize=3, label="best response, estimated (95%)")
left.axhline(0, color="grey", linewidth=0.8)
left.set_xlabel("seats of $100")
left.set_ylabel("Player/Dealer's net edge (% of action taken)")
left.set_title("Edge by number of seats")
left.legend(fontsize=8)
for n in (1, 2, 3, 5, 7):
    right.plot(SHARES, [100 * float(edge(house[n, c])) for c in SHARES], marker="o",
               label=f"{n} seat{'s' if n > 1 else ''}")
right.axhline(0, color="grey", linewidth=0.8)
right.set_xlabel("share of the seats' wagers the Player/Dealer covers")
right.set_ylabel("Player/Dealer's net edge (% of action taken)")
right.set_title("Edge by the wager covered (House Way)")
right.legend(fontsize=8)
fig.tight_layout()
plt.show()

# %% [markdown]
# The gross edge against House Way seats is the same 1.3118% per dollar of action at every
# table: what moves the net edge is the Player/Dealer's $1 collection, spread over the action
# it takes. A small bank at a full table takes little action per hand and pays the same
# collection. Seeing which seats drew is worth most heads-up and less per seat as the table
# fills: one decision serves every seat; beyond 3 seats the estimate is within a few hundredths
# of a percent of House Way's edge.

# %%
lines = ["| Seats | Player/Dealer wager | Expected action | Net per hand | Net edge |",
         "|---|---|---|---|---|"]
for (n, covered), found in house.items():
    if covered not in COVERED:
        continue
    lines.append(f"| {n} | {'all' if covered == 1 else f'${found.dealer_wager}'} | "
                 f"{float(sum(found.expected_action)):.2f} | {float(found.dealer_net):+.4f} | "
                 f"{100 * float(edge(found)):+.4f}% |")
for n, found in best.items():
    lines.append(f"| {n} (best response) | all | {float(sum(found.expected_action)):.2f} | "
                 f"{float(found.dealer_net):+.4f} | {100 * float(edge(found)):+.4f}% |")
for n, found in sampled.items():
    value, error = sampled_edge(found)
    lines.append(f"| {n} (best response, estimated) | all | {WAGER * n:.2f} | "
                 f"{float(WAGER * found.dealer_value - rules.table.fee):+.4f} | "
                 f"{100 * float(value):+.4f}% ± {100 * 1.96 * error:.4f}% |")
display(Markdown("\n".join(lines)))
