"""Charts of the reports as reproducible vector SVG (matplotlib).

Layer: reports, above rendering; only the command line and the lab sit above it.

Same data, same bytes: the SVG ids are salted with a constant, the date is left out and
text is drawn as paths, so the chart neither depends on the installed fonts nor on the clock.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from exact.core.files import write_file

RC = {
    "svg.hashsalt": "exact-report",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.titlesize": 9,
    "axes.labelsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.35,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 72,
}
COLUMNS = 3
PANEL_WIDTH, PANEL_HEIGHT = 2.3, 1.9  # inches


@contextmanager
def _style():
    import matplotlib

    matplotlib.use("svg", force=True)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(RC):
        yield plt


def _grid(plt, panels: int):
    columns = min(COLUMNS, max(panels, 1))
    rows = max(1, math.ceil(panels / columns))
    figure, axes = plt.subplots(rows, columns, squeeze=False,
                                figsize=(PANEL_WIDTH * columns, PANEL_HEIGHT * rows))
    flat = [axis for row in axes for axis in row]
    for axis in flat[panels:]:
        axis.set_visible(False)
    return figure, flat[:panels]


def _write_svg(figure, path: Path, **options: object) -> None:
    """The chart as SVG (no date: same inputs, same bytes), written whole (exact.core.files)."""
    image = io.BytesIO()
    figure.savefig(image, format="svg", metadata={"Date": None}, **options)
    write_file(path, image.getvalue())


# Margins and gaps of a panel grid, in inches: room for the tick labels and axis label on the
# left and below each panel and for its title above. Fixed rather than fitted
# (``tight_layout``), because fitting draws every panel's text once more just to measure it,
# which doubled the time of the many-panel charts of a report.
MARGINS = {"left": 0.7, "right": 0.12, "bottom": 0.48, "top": 0.3}
GAPS = {"across": 0.74, "down": 0.8}


def _fixed_layout(figure) -> None:
    """Place ``figure``'s panel grid with :data:`MARGINS` and :data:`GAPS`."""
    axes = figure.get_axes()
    if not axes or axes[0].get_subplotspec() is None:
        return
    rows, columns = axes[0].get_subplotspec().get_gridspec().get_geometry()
    width, height = figure.get_size_inches()
    panel_width = (width - MARGINS["left"] - MARGINS["right"]
                   - GAPS["across"] * (columns - 1)) / columns
    panel_height = (height - MARGINS["bottom"] - MARGINS["top"]
                    - GAPS["down"] * (rows - 1)) / rows
    figure.subplots_adjust(left=MARGINS["left"] / width, right=1 - MARGINS["right"] / width,
                           bottom=MARGINS["bottom"] / height, top=1 - MARGINS["top"] / height,
                           wspace=GAPS["across"] / panel_width, hspace=GAPS["down"] / panel_height)


def _save(plt, figure, path: Path) -> str:
    _fixed_layout(figure)
    _write_svg(figure, path)
    plt.close(figure)
    return path.name


def edge_against_pay(panels: Sequence[Mapping[str, Any]], path: Path) -> str:
    """One panel per paying event: house edge (%) as that event's pay varies.

    Each panel: ``title``, ``pays`` and ``edges`` (x and y, floats), ``current`` (x, y) and
    ``break_even`` (x or None).
    """
    with _style() as plt:
        figure, axes = _grid(plt, len(panels))
        for axis, panel in zip(axes, panels, strict=True):
            axis.plot(panel["pays"], panel["edges"], color="#1f4e79", linewidth=1.4)
            axis.axhline(0, color="#555555", linewidth=0.8)
            x, y = panel["current"]
            axis.plot([x], [y], "o", color="#c00000", markersize=4, label="current pay")
            if panel.get("break_even") is not None:
                axis.axvline(panel["break_even"], color="#7f7f7f", linestyle="--",
                             linewidth=0.8, label="break-even pay")
            axis.set_title(str(panel["title"]))
            axis.set_xlabel("pay (units won per unit wagered)")
            axis.set_ylabel("house edge (%)")
        if axes:
            axes[0].legend(fontsize=6, loc="best")
        return _save(plt, figure, path)


def effects_of_removal(ranks: Sequence[str], panels: Sequence[Mapping[str, Any]],
                       path: Path) -> str:
    """One bar panel per bet: change of the house edge (percentage points) when one card of
    each rank is removed. Each panel: ``title`` and ``values`` (floats, one per rank)."""
    with _style() as plt:
        figure, axes = _grid(plt, len(panels))
        for axis, panel in zip(axes, panels, strict=True):
            values = list(panel["values"])
            colours = ["#c00000" if v > 0 else "#1f4e79" for v in values]
            axis.bar(list(ranks), values, color=colours, width=0.7)
            axis.axhline(0, color="#555555", linewidth=0.8)
            axis.set_title(str(panel["title"]))
            axis.set_xlabel("rank removed (one card)")
            axis.set_ylabel("change in house edge (pp)")
        return _save(plt, figure, path)


def edge_against_decks(decks: Sequence[int], series: Mapping[str, Sequence[float]],
                       path: Path) -> str:
    """One panel per bet: house edge (%) against the number of decks."""
    with _style() as plt:
        figure, axes = _grid(plt, len(series))
        for axis, (title, edges) in zip(axes, series.items(), strict=True):
            axis.plot(list(decks), list(edges), "o-", color="#1f4e79", markersize=3.5,
                      linewidth=1.2)
            axis.set_xticks(list(decks))
            axis.set_title(title)
            axis.set_xlabel("number of 52-card decks")
            axis.set_ylabel("house edge (%)")
        return _save(plt, figure, path)


def strategy_map(rows: Sequence[str], columns: Sequence[str],
                 panels: Sequence[Mapping[str, Any]], path: Path) -> str:
    """One heat map per strategy: P(draw) (0 to 1) by hand (rows) and card (columns). Each
    panel: ``title`` and ``values`` (one list of floats per row; NaN where no choice)."""
    with _style() as plt:
        figure, axes = plt.subplots(1, len(panels), squeeze=False, sharey=True,
                                    figsize=(PANEL_WIDTH * len(panels),
                                             1.0 + 0.16 * len(rows)))
        image = None
        for axis, panel in zip(axes[0], panels, strict=True):
            image = axis.imshow(panel["values"], cmap="Blues", vmin=0, vmax=1,
                                aspect="auto", interpolation="nearest")
            axis.set_xticks(range(len(columns)), list(columns))
            axis.set_yticks(range(len(rows)), list(rows), fontsize=6)
            axis.grid(False)
            axis.set_title(str(panel["title"]))
            axis.set_xlabel("dealer's up card (point value)")
        axes[0][0].set_ylabel("player's hand")
        if image is not None:
            bar = figure.colorbar(image, ax=list(axes[0]), fraction=0.03, pad=0.02)
            bar.set_label("P(draw)")
        _write_svg(figure, path, bbox_inches="tight")
        plt.close(figure)
        return path.name


def edge_against_decks_lines(decks: Sequence[int], series: Mapping[str, Sequence[float]],
                             path: Path) -> str:
    """One panel, one line per series: the player's edge (%) against the number of decks."""
    with _style() as plt:
        figure, axis = plt.subplots(figsize=(PANEL_WIDTH * 2, PANEL_HEIGHT * 1.2))
        for (label, values), marker in zip(series.items(), "osd^v", strict=False):
            axis.plot(list(decks), list(values), marker=marker, markersize=3.5, linewidth=1.2,
                      label=label)
        axis.set_xticks(list(decks))
        axis.set_xlabel("number of 52-card decks (jokers: one per deck)")
        axis.set_ylabel("player's edge (%)")
        axis.legend(fontsize=7)
        return _save(plt, figure, path)
