"""An interactive paytable designer for notebooks (ipywidgets).

Layer: lab, the top (beside the command line); the notebooks of ``analyses/`` import it.

A slider per paying tier of one bet; as the pays move, the exact house edge, hit frequency and
standard deviation are recomputed from the bet's exact event counts (no re-analysis: the edge
is linear in the pays). A "solve" control asks :func:`exact.analysis.designer.solve_pays` for the
pay of one tier that hits a target edge, with the other tiers at their slider values, and moves
that tier's slider to the nearest practical pay. Everything also works without a front end:
set a slider's ``value`` from code and read :attr:`PaytableDesigner.table` or the readout.

A slider holds a float; its pay is read back as the simplest fraction within a millionth
(0.95 is 19/20), so every figure shown stays exact.

The design leaves the notebook as a bet file: :meth:`PaytableDesigner.save` writes the bet at
the sliders' pays (a paytable named ``designed``, the starting one kept as an alternative),
which ``exact analyze GAME --table FILE``, ``--xlsx`` and ``exact report GAME --table FILE``
read back to the same exact edge. :class:`DesignerApp` adds the choice of game, bet, paytable
and shoe in widgets.
"""

from __future__ import annotations

import contextlib
import html
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from exact.analysis.bet_analysis import BetAnalysis, analyze, game_bets
from exact.analysis.designer import Design, practical_step, solve_pays
from exact.analysis.statistics import BetTable
from exact.core.cards import Shoe
from exact.core.files import write_file
from exact.core.parsing import parse_number
from exact.errors import ExactError
from exact.errors import WidgetsError as WidgetsError
from exact.model.bets import Bet, bets_toml, format_pays
from exact.model.plugins import game_ids, get_game

DESIGNED = "designed"
"""The paytable name a saved design carries (``--paytable BET=designed``)."""


def _ipywidgets():
    try:
        import ipywidgets
    except ImportError:
        raise WidgetsError("the paytable designer needs ipywidgets: "
                           "pip install 'exact[notebooks]'") from None
    return ipywidgets


def slider_pays(value: float) -> Fraction:
    """The exact pay a slider's float stands for.

    >>> slider_pays(0.95), slider_pays(40.0), slider_pays(1 / 3)
    (Fraction(19, 20), Fraction(40, 1), Fraction(1, 3))
    """
    return Fraction(value).limit_denominator(1_000_000)


class PaytableDesigner:
    """Sliders for the pays of ``analysis``'s bet (under ``paytable``), with live statistics,
    a target-edge solver and a chart of the return by tier. Show it with ``display(self.widget)``.
    """

    def __init__(self, analysis: BetAnalysis, paytable: str | None = None,
                 game_id: str | None = None) -> None:
        widgets = _ipywidgets()
        self.analysis = analysis
        self.game_id = game_id
        self.bet = analysis.bet.with_paytable(paytable) if paytable else analysis.bet
        *tiers, _losing = self.bet.events
        self.tiers = [event.name for event in tiers]
        self.sliders = {}
        for event in tiers:
            step = float(practical_step(max(event.pays, Fraction(1, 20))))
            top = max(float(event.pays) * 3, float(event.pays) + 10 * step, 1.0)
            self.sliders[event.name] = widgets.FloatSlider(
                value=float(event.pays), min=min(0.0, float(event.pays)), max=top, step=step,
                description=event.name, continuous_update=True, readout_format=".2f",
                style={"description_width": "initial"}, layout={"width": "32em"})
        self.readout = widgets.HTML()
        self.target = widgets.Text(value="5%", description="target edge")
        self.solve_for = widgets.Dropdown(options=self.tiers, description="solve for")
        self.solve_button = widgets.Button(description="Solve")
        self.solution = widgets.HTML()
        self.chart = widgets.Output()
        self.header = widgets.HTML()
        self.file_name = widgets.Text(value=f"{self.bet.id}-{DESIGNED}.toml",
                                      description="table file")
        self.save_button = widgets.Button(description="Save table")
        self.saved = widgets.HTML()
        self.design: Design | None = None
        for slider in self.sliders.values():
            slider.observe(self._changed, names="value")
        self.solve_button.on_click(self._solve_clicked)
        self.save_button.on_click(self._save_clicked)
        self.widget = widgets.VBox([
            self.header, *self.sliders.values(), self.readout,
            widgets.HBox([self.target, self.solve_for, self.solve_button]), self.solution,
            widgets.HBox([self.file_name, self.save_button]), self.saved, self.chart])
        self._changed()

    # --- the exact figures -------------------------------------------------------------------
    def pays(self) -> dict[str, Fraction]:
        """Each tier's pay as the sliders stand, exact."""
        return {tier: slider_pays(slider.value) for tier, slider in self.sliders.items()}

    def current_bet(self) -> Bet:
        pays = self.pays()
        return replace(self.bet, events=tuple(replace(event, pays=pays.get(event.name,
                                                                            event.pays))
                                              for event in self.bet.events))

    def changed_pays(self) -> dict[str, Fraction]:
        """The tiers whose pay differs from the starting paytable's, at their new pays."""
        starting = {event.name: event.pays for event in self.bet.events}
        return {tier: pay for tier, pay in self.pays().items() if pay != starting[tier]}

    def designed_bet(self) -> Bet:
        """The bet at the sliders' pays: the starting paytable unchanged, or a paytable named
        :data:`DESIGNED`, with the starting one kept as an alternative."""
        if not self.changed_pays():
            return self.bet
        current = self.current_bet()
        others = {name: pays for name, pays in self.bet.alternatives.items() if name != DESIGNED}
        starting = {event.name: event.pays for event in self.bet.events[:-1]}
        return replace(current, paytable=DESIGNED,
                       alternatives={self.bet.paytable: starting, **others})

    def header_html(self) -> str:
        changed = self.changed_pays()
        state = (f"paytable <b>{html.escape(self.bet.paytable)}</b>" if not changed else
                 f"paytable <b>{DESIGNED}</b>, from {html.escape(self.bet.paytable)} with "
                 + ", ".join(f"{html.escape(tier)} {format_pays(pay)} to 1"
                             for tier, pay in changed.items()))
        return f"<b>{html.escape(self.bet.name)}</b> [{html.escape(self.bet.id)}], {state}"

    def commands(self, path: str | Path) -> list[str]:
        """The commands that read a saved design back: the analysis with its par sheet, and
        the certification report."""
        game = self.game_id or "GAME"
        name = Path(path).name
        stem = Path(name).stem
        return [f"exact analyze {game} --table {name} --bet {self.bet.id} --xlsx {stem}.xlsx",
                f"exact report {game} --table {name} --bet {self.bet.id} -o {stem}.pdf"]

    def save(self, path: str | Path | None = None) -> Path:
        """Write the design as a bet file (``--table FILE``; a new file or one this replaces
        whole, never half-written) and return its path."""
        target = Path(path if path is not None else self.file_name.value)
        bet = self.designed_bet()
        write_file(target, bets_toml([bet], f"{bet.name}: a paytable from the paytable designer"
                                            f" (exact {_version()})"))
        self.saved.value = (f"Wrote {html.escape(str(target))}. Read it back with:<br>" +
                            "<br>".join(f"<code>{html.escape(c)}</code>"
                                        for c in self.commands(target)))
        return target

    @property
    def table(self) -> BetTable:
        """The bet's return table at the sliders' pays."""
        return BetAnalysis(self.current_bet(), self.analysis.counts,
                           self.analysis.total).table()

    def readout_html(self) -> str:
        table = self.table
        return (f"House edge <b>{float(table.house_edge) * 100:.4f}%</b> = "
                f"<code>{table.house_edge}</code><br>"
                f"Hit frequency {float(table.hit_frequency) * 100:.4f}% &nbsp; "
                f"SD {table.standard_deviation:.4f} &nbsp; "
                f"Return to player {float(table.return_to_player) * 100:.4f}%")

    # --- reactions ---------------------------------------------------------------------------
    def _changed(self, _change: object = None) -> None:
        self.readout.value = self.readout_html()
        self.header.value = self.header_html()
        from IPython import get_ipython

        if get_ipython() is None:  # plain Python: no front end to draw the chart into
            return
        self.chart.clear_output(wait=True)
        with self.chart:
            import matplotlib.pyplot as plt

            figure = self.figure()
            plt.show()
            plt.close(figure)  # shown (inline) or not (no front end): never kept open

    def solve(self, target: str | None = None, tier: str | None = None) -> Design:
        """Solve ``tier``'s pay (default: the dropdown's) for the ``target`` edge (default:
        the text box's), the other tiers as the sliders stand; the tier's slider moves to the
        nearest practical pay."""
        if target is not None:
            self.target.value = target
        if tier is not None:
            self.solve_for.value = tier
        try:
            design = solve_pays(BetAnalysis(self.current_bet(), self.analysis.counts,
                                            self.analysis.total),
                                [self.solve_for.value],
                                parse_number(self.target.value, "target-edge", "target edge"))
        except ExactError as error:  # bad or out-of-range target: one line beside the button
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.solution.value = f"<span style='color:#c00000'>{html.escape(message)}</span>"
            raise
        self.design = design
        chosen = self.solve_for.value
        exact, practical = design.exact_pays[chosen], design.practical_pays[chosen]
        slider = self.sliders[chosen]
        slider.max = max(slider.max, float(practical) * 1.5)  # a slider clips to its range
        slider.value = float(practical)
        self.solution.value = (
            f"{chosen}: exact pay <code>{exact}</code> ({float(exact):.4f}) gives "
            f"{self.target.value}; practical pay {practical} gives "
            f"{float(design.practical_edge) * 100:.4f}% = <code>{design.practical_edge}</code>")
        return design

    def _solve_clicked(self, _button: object) -> None:
        with contextlib.suppress(ExactError):  # the message is shown beside the button
            self.solve()

    def _save_clicked(self, _button: object) -> None:
        try:
            self.save()
        except (ExactError, OSError) as error:  # a bad name or folder: one line, no traceback
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.saved.value = f"<span style='color:#c00000'>{html.escape(message)}</span>"

    def figure(self):
        """Bar chart: each tier's contribution to the return (pays x probability, %), and the
        losing event's."""
        import matplotlib.pyplot as plt

        table = self.table
        figure, axis = plt.subplots(figsize=(7, 3.2))
        names = [o.event for o in table.outcomes]
        values = [float(o.expected_return) * 100 for o in table.outcomes]
        axis.barh(names, values, color=["#1f4e79" if v >= 0 else "#c00000" for v in values])
        axis.axvline(0, color="grey", linewidth=0.8)
        axis.invert_yaxis()
        axis.set_xlabel("return per unit wagered (% of the bet)")
        axis.set_title(f"{table.name}: return by tier, house edge "
                       f"{float(table.house_edge) * 100:.4f}%")
        figure.tight_layout()
        return figure


def _version() -> str:
    from exact import __version__

    return __version__


def designable_games() -> list[str]:
    """The registered games with bets as data to design (the strategy games have none)."""
    return [game_id for game_id in game_ids() if game_bets(get_game(game_id))]


class DesignerApp:
    """The designer with its choices in widgets: game, bet, paytable and number of decks.
    Each choice analyses the chosen bet on a standard shoe and shows a fresh
    :class:`PaytableDesigner` (``self.designer``) below the pickers.
    """

    def __init__(self, game: str | None = None, bet: str | None = None, decks: int = 8,
                 paytable: str | None = None) -> None:
        widgets = _ipywidgets()
        games = designable_games()
        self.game_picker = widgets.Dropdown(options=games, value=game or games[0],
                                            description="game")
        self.bet_picker = widgets.Dropdown(description="bet")
        self.paytable_picker = widgets.Dropdown(description="paytable")
        self.decks_picker = widgets.BoundedIntText(value=decks, min=1, max=8,
                                                   description="decks")
        self.body = widgets.VBox()
        self.widget = widgets.VBox([
            widgets.HBox([self.game_picker, self.bet_picker]),
            widgets.HBox([self.paytable_picker, self.decks_picker]), self.body])
        self._quiet = True  # the pickers are filled in before any of them reacts
        self._fill_bets(bet)
        self._fill_paytables(paytable)
        self._quiet = False
        self.game_picker.observe(self._game_chosen, names="value")
        self.bet_picker.observe(self._bet_chosen, names="value")
        self.paytable_picker.observe(self._rebuild, names="value")
        self.decks_picker.observe(self._rebuild, names="value")
        self.designer: PaytableDesigner
        self._rebuild()

    def _bets(self) -> dict[str, Bet]:
        return {bet.id: bet for bet in game_bets(get_game(self.game_picker.value))
                if len(bet.events) > 1}

    def _fill_bets(self, bet: str | None = None) -> None:
        bets = self._bets()
        self.bet_picker.options = [(f"{b.name} [{b.id}]", b.id) for b in bets.values()]
        self.bet_picker.value = bet if bet is not None else next(iter(bets))

    def _fill_paytables(self, paytable: str | None = None) -> None:
        bet = self._bets()[self.bet_picker.value]
        self.paytable_picker.options = bet.paytables
        self.paytable_picker.value = paytable if paytable is not None else bet.paytable

    def _game_chosen(self, _change: object) -> None:
        self._quiet = True
        self._fill_bets()
        self._fill_paytables()
        self._quiet = False
        self._rebuild()

    def _bet_chosen(self, _change: object) -> None:
        if self._quiet:
            return
        self._quiet = True
        self._fill_paytables()
        self._quiet = False
        self._rebuild()

    def _rebuild(self, _change: object = None) -> None:
        if self._quiet:
            return
        game = get_game(self.game_picker.value)
        bet = self._bets()[self.bet_picker.value]
        analysis = analyze(game, Shoe.standard(self.decks_picker.value), [bet]).bets[bet.id]
        self.designer = PaytableDesigner(analysis, self.paytable_picker.value, game.id)
        self.body.children = (self.designer.widget,)
