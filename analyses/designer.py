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
# Choose a game, a bet, its starting paytable and the number of decks; drag the pay of each
# tier and watch the exact house edge, hit frequency and standard deviation follow (the edge is
# linear in the pays, so nothing is re-analysed). "Solve" finds the pay of one tier that hits a
# target edge and moves its slider to the nearest practical pay. "Save table" writes the design
# as a bet file that `exact analyze --table`, its `--xlsx` par sheet and `exact report --table`
# read back to the same exact edge (the commands are printed under the button).
#
# In JupyterLab (`make lab`) the widgets are live. The cells below the designer drive a second
# designer from code, so running them never moves the one you are working with.

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt
from IPython.display import display

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.lab.notebooks import require_game
from exact.lab.widgets import DesignerApp, PaytableDesigner

app = DesignerApp(game="punto-banco", bet="dragon-bonus-player", decks=8)
display(app.widget)

# %% [markdown]
# ## Return by tier
# Each tier's share of the return (pay times probability) for the bet chosen above.

# %%
app.designer.figure()
plt.show()

# %% [markdown]
# ## Driving a designer from code
# A slider's value is a pay; the edge shown is the library's exact edge for those pays. This
# designer is a separate one on the same bet: the widget above keeps its own state.

# %%
GAME, BET, DECKS = "punto-banco", "dragon-bonus-player", 8
game = require_game(GAME)
bet = next(b for b in game_bets(game) if b.id == BET)
analysis = analyze(game, Shoe.standard(DECKS), [bet]).bets[BET]
sketch = PaytableDesigner(analysis, game_id=GAME)
shipped = analysis.table()
award = shipped.top_award()  # Win by 9, 30 to 1
top = award.event
sketch.sliders[top].value = 40  # paid 40 to 1 instead
edge = sketch.table.house_edge
print(f"{top} at 40 to 1: house edge {float(edge):.4%} = {edge}")
print(f"shipped paytable {bet.paytable}: {float(shipped.house_edge):.4%}")

# %% [markdown]
# ## Solve for a target edge

# %%
design = sketch.solve("4%", top)
print(sketch.solution.value)
print(f"practical edge {float(design.practical_edge):.4%} = {design.practical_edge}")

# %% [markdown]
# ## Save the design as a table file
# The file is an ordinary bet file; the designed pays are its paytable `designed`, the
# starting paytable stays as an alternative (`--paytable dragon-bonus-player=30-10-6-4-2-1`).
# `EXACT_DESIGNS` names the folder it goes to (default: `designs` beside this notebook).

# %%
folder = Path(os.environ.get("EXACT_DESIGNS", "designs"))
folder.mkdir(parents=True, exist_ok=True)
saved = sketch.save(folder / f"{BET}-designed.toml")
print(saved.read_text()[:400])
for command in sketch.commands(saved):
    print(command)
