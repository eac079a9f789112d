"""Charts of the reports as reproducible vector SVG (matplotlib), each sized to fit a page.

Layer: reports, above rendering; only the command line and the lab sit above it.

Same data, same bytes: the SVG ids are salted with a constant and the date is left out. Text
stays text (``svg.fonttype = none``) in a font both matplotlib and Typst carry (DejaVu Sans
Mono), so the PDF's chart titles, labels and ticks are searchable and copy out, measured and
drawn with the same glyphs; minus signs are ASCII hyphens, as everywhere in the reports.

Every chart is drawn at the width of the reports' text (:data:`TEXT_WIDTH`, from the page of
``templates/lib.typ``) and no taller than :data:`MAX_HEIGHT`, which leaves room for a caption
in the text area: a chart of many panels is split into several figures, ``name-1.svg``,
``name-2.svg``..., and the functions return the list of their file names.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from exact.core.files import write_file
from exact.model.bets import Bet

# The page of templates/lib.typ (`set page(paper: "a4", margin: (x: 20mm, top: 22mm,
# bottom: 22mm))`); tests/reports/test_reports.py reads the template and checks these.
PAGE_MM = (210, 297)
MARGIN_MM = {"x": 20, "top": 22, "bottom": 22}
MM = 1 / 25.4  # inches
TEXT_WIDTH = (PAGE_MM[0] - 2 * MARGIN_MM["x"]) * MM
TEXT_HEIGHT = (PAGE_MM[1] - MARGIN_MM["top"] - MARGIN_MM["bottom"]) * MM
# A figure's caption (up to three lines) and the gap above it, with a line of slack
CAPTION_ALLOWANCE = 1.1
MAX_HEIGHT = TEXT_HEIGHT - CAPTION_ALLOWANCE

FONT = "DejaVu Sans Mono"
RC = {
    "svg.hashsalt": "exact-report",
    "svg.fonttype": "none",
    "axes.unicode_minus": False,
    "axes.formatter.use_mathtext": False,
    "font.family": FONT,
    "font.size": 7,
    "axes.titlesize": 7.5,
    "axes.labelsize": 7,
    "xtick.labelsize": 6.5,
    "ytick.labelsize": 6.5,
    "legend.fontsize": 6.5,
    "axes.grid": True,
    "grid.alpha": 0.35,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 72,
}
COLUMNS = 3
PANEL_HEIGHT = 2.0  # inches: one row of a grid of panels, its title and tick labels included
TITLE_WIDTH = 27  # characters of a panel title's line in a grid of three columns


@contextmanager
def _style():
    import matplotlib

    matplotlib.use("svg", force=True)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(RC):
        yield plt


def _pages(count: int, per_page: int) -> list[range]:
    """Indices of ``count`` items, ``per_page`` at a time (at least one page).

    >>> _pages(7, 3)
    [range(0, 3), range(3, 6), range(6, 7)]
    """
    return [range(start, min(start + per_page, count))
            for start in range(0, max(count, 1), per_page)]


def _path(path: Path, page: int, pages: int) -> Path:
    """``decks.svg`` for a chart of one figure, ``decks-1.svg``, ``decks-2.svg``... else."""
    return path if pages == 1 else path.with_name(f"{path.stem}-{page}{path.suffix}")


def _wrapped(title: str, width: int = TITLE_WIDTH) -> str:
    # never at a hyphen: a reader's copy would join the lines into one word
    return "\n".join(textwrap.wrap(title, width, break_on_hyphens=False)) or title


def _grid(plt, panels: int):
    """A figure of the text's width for ``panels`` panels in rows of :data:`COLUMNS`."""
    rows = max(1, math.ceil(panels / COLUMNS))
    figure, axes = plt.subplots(rows, COLUMNS, squeeze=False,
                                figsize=(TEXT_WIDTH, PANEL_HEIGHT * rows))
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
# left and below each panel and for its title (up to three lines) above. Fixed rather than
# fitted (``tight_layout``), because fitting draws every panel's text once more just to
# measure it, which doubled the time of the many-panel charts of a report.
MARGINS = {"left": 0.62, "right": 0.1, "bottom": 0.42, "top": 0.42}
GAPS = {"across": 0.62, "down": 0.84}


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


# The rows of three panels a figure holds within MAX_HEIGHT
ROWS_PER_FIGURE = int((MAX_HEIGHT - MARGINS["top"] - MARGINS["bottom"] + GAPS["down"])
                      // PANEL_HEIGHT)


def _paged_grid(panels: Sequence[Mapping[str, Any]], path: Path, draw) -> list[str]:
    """``panels`` in grids of :data:`COLUMNS` columns, as many figures as fit a page each:
    ``draw(axis, panel)`` draws one panel."""
    per_figure = COLUMNS * ROWS_PER_FIGURE
    pages = _pages(len(panels), per_figure)
    names = []
    for number, indices in enumerate(pages, start=1):
        with _style() as plt:
            figure, axes = _grid(plt, len(indices))
            for axis, index in zip(axes, indices, strict=True):
                draw(axis, panels[index])
            names.append(_save(plt, figure, _path(path, number, len(pages))))
    return names


# A family panel: one row of the figure, the axes on the left and the legend beside them
FAMILY_AXES_WIDTH = 0.58  # share of the text width
FAMILY_ROW = 1.9  # inches, at least
LEGEND_LINE = 0.125  # inches per legend entry


LEGEND_WIDTH = 40  # characters of a legend entry's line beside a family panel


def _family_height(labels: Sequence[str]) -> float:
    lines = sum(_wrapped(label, LEGEND_WIDTH).count("\n") + 1 for label in labels)
    return max(FAMILY_ROW, 0.75 + LEGEND_LINE * lines + 0.04 * len(labels))


def _family_pages(panels: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """Panels (one per family) to figures: in order, as many as fit :data:`MAX_HEIGHT`."""
    pages: list[list[int]] = [[]]
    height = 0.0
    for index, panel in enumerate(panels):
        needed = _family_height([label for label, _ in panel["lines"]])
        if pages[-1] and height + needed > MAX_HEIGHT:
            pages.append([])
            height = 0.0
        pages[-1].append(index)
        height += needed
    return pages


def family_lines(panels: Sequence[Mapping[str, Any]], path: Path, *, xlabel: str,
                 ylabel: str, bars: bool = False) -> list[str]:
    """One panel per family of wagers, one line per wager with a legend beside the panel
    (as the Punto Banco notebook draws them), panels split over figures that fit a page.

    Each panel: ``title``, ``x`` (numbers, or labels for categories) and ``lines``, a list
    of ``(label, values)``. ``bars`` marks the zero line (changes, not levels)."""
    panels = _split_families(panels)
    names = []
    pages = _family_pages(panels)
    for number, indices in enumerate(pages, start=1):
        heights = [_family_height([label for label, _ in panels[i]["lines"]])
                   for i in indices]
        total = sum(heights)
        with _style() as plt:
            figure = plt.figure(figsize=(TEXT_WIDTH, total))
            top = total
            for index, height in zip(indices, heights, strict=True):
                panel = panels[index]
                # the axes' box within its row: title above, tick and axis labels below
                box = [MARGINS["left"] / TEXT_WIDTH, (top - height + 0.45) / total,
                       FAMILY_AXES_WIDTH - MARGINS["left"] / TEXT_WIDTH,
                       (height - 0.45 - 0.3) / total]
                axis = figure.add_axes(box)
                categorical = any(isinstance(x, str) for x in panel["x"])
                positions = list(range(len(panel["x"]))) if categorical else list(panel["x"])
                for (label, values), marker in zip(panel["lines"],
                                                   _markers(len(panel["lines"])), strict=True):
                    axis.plot(positions, list(values), marker=marker, markersize=3,
                              linewidth=1.0, label=_wrapped(label, LEGEND_WIDTH))
                axis.set_xticks(positions, [str(x) for x in panel["x"]])
                if bars:
                    axis.axhline(0, color="#555555", linewidth=0.8)
                axis.set_title(panel["title"], loc="left")
                axis.set_xlabel(xlabel)
                axis.set_ylabel(ylabel)
                axis.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0,
                            frameon=False, handlelength=1.6)
                top -= height
            _write_svg(figure, _path(path, number, len(pages)))
            plt.close(figure)
        names.append(_path(path, number, len(pages)).name)
    return names


MAX_LINES = 30  # lines of one family panel; a family of more is drawn in several panels


def _split_families(panels: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Panels of at most :data:`MAX_LINES` lines (so a legend always fits the page).

    >>> [(p["title"], len(p["lines"])) for p in _split_families(
    ...     [{"title": "Big", "x": [1], "lines": [("a", [0])] * 31}])]
    [('Big (1 of 2)', 30), ('Big (2 of 2)', 1)]
    """
    out: list[Mapping[str, Any]] = []
    for panel in panels:
        parts = _pages(len(panel["lines"]), MAX_LINES)
        for number, indices in enumerate(parts, start=1):
            title = panel["title"] + (f" ({number} of {len(parts)})" if len(parts) > 1 else "")
            out.append({**panel, "title": title,
                        "lines": [panel["lines"][i] for i in indices]})
    return out


def _markers(count: int) -> list[str]:
    """Markers that, with the colour cycle (10 colours), tell up to 40 lines apart."""
    return ["osd^v<>p"[(i // 10) % 8] for i in range(count)]


def edge_against_pay(panels: Sequence[Mapping[str, Any]], path: Path) -> list[str]:
    """One panel per paying event: house edge (%) as that event's pay varies.

    Each panel: ``title``, ``pays`` and ``edges`` (x and y, floats), ``current`` (x, y) and
    ``break_even`` (x or None).
    """
    def draw(axis, panel: Mapping[str, Any]) -> None:
        axis.plot(panel["pays"], panel["edges"], color="#1f4e79", linewidth=1.4)
        axis.axhline(0, color="#555555", linewidth=0.8)
        x, y = panel["current"]
        axis.plot([x], [y], "o", color="#c00000", markersize=4, label="current pay")
        if panel.get("break_even") is not None:
            axis.axvline(panel["break_even"], color="#7f7f7f", linestyle="--",
                         linewidth=0.8, label="break-even pay")
        axis.set_title(_wrapped(str(panel["title"])))
        axis.set_xlabel("pay (units won per unit bet)")
        axis.set_ylabel("house edge (%)")

    return _paged_grid(panels, path, draw)


def strategy_map(rows: Sequence[str], columns: Sequence[str],
                 panels: Sequence[Mapping[str, Any]], path: Path) -> str:
    """One heat map per strategy: P(draw) (0 to 1) by hand (rows) and card (columns). Each
    panel: ``title`` and ``values`` (one list of floats per row; NaN where no choice)."""
    with _style() as plt:
        figure, axes = plt.subplots(1, len(panels), squeeze=False, sharey=True,
                                    figsize=(TEXT_WIDTH, min(MAX_HEIGHT, 1.0 + 0.16 * len(rows))))
        image = None
        for axis, panel in zip(axes[0], panels, strict=True):
            image = axis.imshow(panel["values"], cmap="Blues", vmin=0, vmax=1,
                                aspect="auto", interpolation="nearest")
            axis.set_xticks(range(len(columns)), list(columns))
            axis.set_yticks(range(len(rows)), list(rows), fontsize=6)
            axis.grid(False)
            axis.set_title(str(panel["title"]))
        # one label under the middle panel: the panels are too narrow for one each
        axes[0][len(panels) // 2].set_xlabel("dealer's up card (point value)")
        axes[0][0].set_ylabel("player's hand")
        if image is not None:
            bar = figure.colorbar(image, ax=list(axes[0]), fraction=0.03, pad=0.02)
            bar.set_label("P(draw)")
        _write_svg(figure, path, bbox_inches="tight")
        plt.close(figure)
        return path.name


def edge_against_decks_lines(decks: Sequence[int], series: Mapping[str, Sequence[float]],
                             path: Path) -> str:
    """One panel, one line per series: the house edge (%) against the number of decks."""
    with _style() as plt:
        figure, axis = plt.subplots(figsize=(TEXT_WIDTH, 2.6))
        for (label, values), marker in zip(series.items(), "osd^v", strict=False):
            axis.plot(list(decks), list(values), marker=marker, markersize=3.5, linewidth=1.2,
                      label=label)
        axis.set_xticks(list(decks))
        axis.set_xlabel("number of 52-card decks (jokers: one per deck)")
        axis.set_ylabel("house edge (%)")
        axis.legend(fontsize=7)
        return _save(plt, figure, path)


# --- families of wagers -------------------------------------------------------------------------
# A family gathers the bets a reader compares with one another: the Punto Banco reports' charts
# (exact/games/baccarat/report.py, nine_and_nines.py) and notebooks (exact.lab.notebooks) draw
# one panel per family. The first rule that matches a bet names its family (a bet file's own
# bets fall into "Other side bets"); the rules read bet ids and groups, data of the bet files.
FAMILIES: tuple[tuple[str, Callable[[Bet], bool]], ...] = (
    ("Main bets and commission-free Banker", lambda bet: bet.group in ("main", "variant")),
    ("Pairs", lambda bet: "pair" in bet.id),
    ("Egalité (tie on one total)", lambda bet: bet.id.startswith("egalite-")
     and "group" not in bet.id),
    ("Egalité, grouped totals", lambda bet: bet.id.startswith("egalite-group")),
    ("Big and Small (cards dealt)", lambda bet: bet.id in ("big", "small")),
    ("Dragon Bonus", lambda bet: bet.id.startswith("dragon-bonus")),
)
OTHER_FAMILY = "Other side bets"


def bet_family(bet: Bet) -> str:
    """The family a bet is charted with.

    >>> from exact.analysis.bet_analysis import game_bets
    >>> from exact.games import get_game
    >>> bets = {b.id: b for b in game_bets(get_game("punto-banco"))}
    >>> [bet_family(bets[b]) for b in ("tie", "either-pair", "dragon-7")]
    ['Main bets and commission-free Banker', 'Pairs', 'Other side bets']
    >>> bet_family(bets["egalite-3"]), bet_family(bets["egalite-group-0"])
    ('Egalité (tie on one total)', 'Egalité, grouped totals')
    """
    return next((name for name, member in FAMILIES if member(bet)), OTHER_FAMILY)


def families(bets: Sequence[Bet]) -> dict[str, list[Bet]]:
    """``bets`` by family, families in the order of :data:`FAMILIES`, bets in their order."""
    order = [name for name, _ in FAMILIES] + [OTHER_FAMILY]
    grouped: dict[str, list[Bet]] = {name: [] for name in order}
    for bet in bets:
        grouped[bet_family(bet)].append(bet)
    return {name: members for name, members in grouped.items() if members}
