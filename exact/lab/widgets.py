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
"""

from __future__ import annotations

import contextlib
import html
from dataclasses import replace
from fractions import Fraction

from exact.analysis.bet_analysis import BetAnalysis
from exact.analysis.designer import Design, practical_step, solve_pays
from exact.analysis.statistics import BetTable
from exact.core.parsing import parse_number
from exact.errors import ExactError
from exact.errors import WidgetsError as WidgetsError


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

    def __init__(self, analysis: BetAnalysis, paytable: str | None = None) -> None:
        widgets = _ipywidgets()
        self.analysis = analysis
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
        self.design: Design | None = None
        for slider in self.sliders.values():
            slider.observe(self._changed, names="value")
        self.solve_button.on_click(self._solve_clicked)
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>{self.bet.name}</b> [{self.bet.id}], starting from paytable "
                         f"{self.bet.paytable}"),
            *self.sliders.values(), self.readout,
            widgets.HBox([self.target, self.solve_for, self.solve_button]), self.solution,
            self.chart])
        self._changed()

    # --- the exact figures -------------------------------------------------------------------
    def pays(self) -> dict[str, Fraction]:
        """Each tier's pay as the sliders stand, exact."""
        return {tier: slider_pays(slider.value) for tier, slider in self.sliders.items()}

    def current_bet(self):
        pays = self.pays()
        return replace(self.bet, events=tuple(replace(event, pays=pays.get(event.name,
                                                                            event.pays))
                                              for event in self.bet.events))

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
