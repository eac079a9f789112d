"""Paytable designer: the house edge of a bet as an exact expression in its pays, solved for a
target edge.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

A bet's expected return is linear in its pays: ``E = sum(pays_i * P_i)`` over its events, with
``P_i`` the exact probability of event ``i`` (from any analysis: it works from event counts, so
any bet-as-data of any game can be designed). Each tier (event other than the final losing
``otherwise``) gets a pay symbol named after it (``Double without tens`` ->
``double_without_tens``); the house edge ``-E`` is then a sympy expression with exact rational
coefficients. Solving for one pay, or for a common scale ``k`` of several (each keeps its ratio
to the others: ``pays_i = k * current_i``), gives the exact rational that hits a target edge,
then the nearest *practical* pay (see :func:`practical_pays`) and the edge it really gives.

>>> from fractions import Fraction
>>> from exact.analysis.bet_analysis import BetAnalysis
>>> from exact.model.bets import Bet, Event
>>> coin = Bet("coin", "Coin", (Event("Heads", None, Fraction(1)), Event("Tails", None, -1)))
>>> design = solve_pays(BetAnalysis(coin, (1, 1), 2), ["heads"], Fraction(1, 20))
>>> design.exact_pays, design.practical_pays, design.practical_edge
({'Heads': Fraction(9, 10)}, {'Heads': Fraction(9, 10)}, Fraction(1, 20))
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import sympy

from exact.analysis.bet_analysis import BetAnalysis
from exact.core.parsing import parse_number, shown, suggestion
from exact.errors import DesignError as DesignError


def tier_id(name: str) -> str:
    """The command-line id of a tier: lower case, words joined by hyphens.

    >>> tier_id("Double without tens"), tier_id("Suited A-8"), tier_id("Suited ten-value 9")
    ('double-without-tens', 'suited-a-8', 'suited-ten-value-9')
    """
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _symbol(name: str) -> sympy.Symbol:
    slug = tier_id(name).replace("-", "_") or "tier"
    return sympy.Symbol(slug if slug[0].isalpha() else f"pays_{slug}")


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def _fraction(value: sympy.Expr) -> Fraction:
    rational = sympy.Rational(value)
    return Fraction(int(rational.p), int(rational.q))


@dataclass(frozen=True)
class EdgeModel:
    """The house edge of one bet as a linear expression in the pays of its tiers."""

    bet_id: str
    bet_name: str
    paytable: str
    tiers: tuple[str, ...]                 # event names that carry a pay symbol
    symbols: Mapping[str, sympy.Symbol]    # tier name -> symbol
    probabilities: Mapping[str, Fraction]  # every event, the losing one included
    current_pays: Mapping[str, Fraction]   # tier name -> pay in the analysed paytable
    losing_event: str

    @classmethod
    def of(cls, analysis: BetAnalysis, paytable: str | None = None) -> EdgeModel:
        table = analysis.table(paytable)
        *tiers, losing = table.outcomes
        return cls(table.bet_id, table.name, table.paytable,
                   tuple(o.event for o in tiers), {o.event: _symbol(o.event) for o in tiers},
                   {o.event: o.probability for o in table.outcomes},
                   {o.event: o.pays for o in tiers}, losing.event)

    @property
    def expression(self) -> sympy.Expr:
        """House edge = P(lose) - sum(pays_tier * P(tier)), exactly."""
        edge = _rational(self.probabilities[self.losing_event])
        for tier in self.tiers:
            edge -= self.symbols[tier] * _rational(self.probabilities[tier])
        return edge

    def edge(self, pays: Mapping[str, Fraction] | None = None) -> Fraction:
        """The exact house edge with ``pays`` (tier name -> pay), other tiers as analysed."""
        chosen = {**self.current_pays, **(pays or {})}
        return self.probabilities[self.losing_event] - sum(
            (chosen[t] * self.probabilities[t] for t in self.tiers), Fraction(0))

    def tier(self, wanted: str) -> str:
        """The tier called ``wanted`` (its name or :func:`tier_id`, any case)."""
        for tier in self.tiers:
            if wanted.strip().lower() in (tier.lower(), tier_id(tier)):
                return tier
        ids = [tier_id(t) for t in self.tiers]
        raise DesignError(f"bet {self.bet_id!r} has no tier {shown(wanted)}"
                          f"{suggestion([tier_id(wanted)], ids)}; tiers: "
                          + ", ".join(tier_id(t) for t in self.tiers))


def practical_step(pays: Fraction) -> Fraction:
    """Resolution of a practical pay: 1/20 below 2 to 1, whole numbers below 100, then 5
    below 1,000, 50 below 10,000 and so on (two significant figures, halved).

    >>> [str(practical_step(Fraction(p))) for p in ("19/20", "18", "250", "30000")]
    ['1/20', '1', '5', '500']
    """
    if pays < 2:
        return Fraction(1, 20)
    if pays < 100:
        return Fraction(1)
    return Fraction(10 ** (len(str(math.floor(pays))) - 2), 2)


def practical_pays(pays: Fraction) -> tuple[Fraction, Fraction]:
    """The practical pays either side of ``pays`` (equal when it is practical already).

    >>> practical_pays(Fraction(37, 2)), practical_pays(Fraction(20))
    ((Fraction(18, 1), Fraction(19, 1)), (Fraction(20, 1), Fraction(20, 1)))
    """
    step = practical_step(pays)
    below = math.floor(pays / step) * step
    above = math.ceil(pays / step) * step
    return Fraction(below), Fraction(above)


@dataclass(frozen=True)
class Design:
    """Pays that hit a target house edge: exact, and rounded to practical pays."""

    model: EdgeModel
    solve_for: tuple[str, ...]
    target_edge: Fraction
    scale: Fraction | None            # the common scale when several tiers are solved for
    exact_pays: Mapping[str, Fraction]
    practical_pays: Mapping[str, Fraction]
    practical_edge: Fraction
    alternatives: tuple[tuple[Mapping[str, Fraction], Fraction], ...]  # (pays, edge) nearby
    equation: str

    @property
    def expression(self) -> sympy.Expr:
        return self.model.expression


def solve_pays(analysis: BetAnalysis, solve_for: Sequence[str], target_edge: Fraction,
               paytable: str | None = None) -> Design:
    """Pays of the tiers ``solve_for`` that give the bet house edge ``target_edge``: one tier's
    pay, or a common scale of several tiers' current pays."""
    model = EdgeModel.of(analysis, paytable)
    if not solve_for:
        raise DesignError("name at least one tier to solve for")
    tiers = tuple(dict.fromkeys(model.tier(name) for name in solve_for))
    target = Fraction(target_edge)
    if not -1 < target < 1:
        raise DesignError(f"target house edge {target} is not between -100% and 100%")
    for tier in tiers:
        if model.probabilities[tier] == 0:
            raise DesignError(f"tier {shown(tier)} of {shown(model.bet_id)} never occurs on this "
                              "shoe: its pay cannot change the edge")
    expression = model.expression
    fixed = {model.symbols[t]: _rational(p) for t, p in model.current_pays.items()
             if t not in tiers}
    scale_symbol = sympy.Symbol("k")
    if len(tiers) == 1:
        unknown = model.symbols[tiers[0]]
        substituted = expression.subs(fixed)
    else:
        unknown = scale_symbol
        if any(model.current_pays[t] <= 0 for t in tiers):
            raise DesignError("a common scale needs every tier to pay something now: "
                              + ", ".join(t for t in tiers if model.current_pays[t] <= 0))
        substituted = expression.subs({**fixed, **{
            model.symbols[t]: scale_symbol * _rational(model.current_pays[t]) for t in tiers}})
    equation = sympy.Eq(substituted, _rational(target))
    solutions = sympy.solve(equation, unknown)
    if len(solutions) != 1:
        raise DesignError(f"no unique solution for {', '.join(tiers)}")
    value = _fraction(solutions[0])
    if len(tiers) == 1:
        exact = {tiers[0]: value}
        scale = None
    else:
        exact = {t: value * model.current_pays[t] for t in tiers}
        scale = value
    if any(pays < 0 for pays in exact.values()):
        raise DesignError(f"target house edge {target} needs a negative pay for "
                          f"{', '.join(tiers)} ({', '.join(str(p) for p in exact.values())}): "
                          "the other tiers already give more than that")
    options = []
    for pick in (0, 1):  # everything rounded down, then everything rounded up
        pays = {t: practical_pays(p)[pick] for t, p in exact.items()}
        options.append((pays, model.edge(pays)))
    nearest = {t: min(practical_pays(p), key=partial(_distance, p)) for t, p in exact.items()}
    return Design(model, tiers, target, scale, exact, nearest, model.edge(nearest),
                  tuple(options), f"{sympy.sstr(equation.lhs)} = {target}")


def _distance(target: Fraction, pays: Fraction) -> tuple[Fraction, Fraction]:
    """How far ``pays`` is from ``target``; the lower pay first on a tie."""
    return abs(pays - target), pays


def design_text(design: Design, shoe_description: str) -> str:
    """A readable account of a design."""
    model = design.model
    lines = [f"{model.bet_name} [{model.bet_id}], paytable {model.paytable}, {shoe_description}",
             "Pay symbols (tier -> symbol, current pay):"]
    lines += [f"  {tier} -> {model.symbols[tier]} (now {model.current_pays[tier]} to 1)"
              for tier in model.tiers]
    lines += [f"House edge = {sympy.sstr(model.expression)}",
              f"  at the current pays: {_percent(model.edge())} = {model.edge()}",
              f"Target house edge {_percent(design.target_edge)} = {design.target_edge}; "
              f"solving for {', '.join(design.solve_for)}"]
    if design.scale is not None:
        lines.append(f"  common scale k = {design.scale} ({float(design.scale):.6f}) "
                     "of the current pays")
    for tier, pays in design.exact_pays.items():
        lines.append(f"  exact pay of {tier}: {pays} ({float(pays):.6f}) to 1")
    for tier, pays in design.practical_pays.items():
        lines.append(f"  practical pay of {tier}: {pays} to 1")
    lines.append(f"  house edge at the practical pay(s): {_percent(design.practical_edge)} = "
                 f"{design.practical_edge}")
    for label, (choice, edge) in zip(("rounded down", "rounded up"), design.alternatives,
                                     strict=True):
        shown = ", ".join(f"{t} {p}" for t, p in choice.items())
        lines.append(f"  {label}: {shown} -> house edge {_percent(edge)} = {edge}")
    return "\n".join(lines) + "\n"


def design_json(design: Design, shoe: Mapping[str, object]) -> dict[str, object]:
    model = design.model
    return {
        "bet": model.bet_id, "name": model.bet_name, "paytable": model.paytable, "shoe": shoe,
        "symbols": {str(model.symbols[t]): t for t in model.tiers},
        "current_pays": {t: str(p) for t, p in model.current_pays.items()},
        "probabilities": {t: str(p) for t, p in model.probabilities.items()},
        "house_edge_expression": sympy.sstr(model.expression),
        "house_edge_now": str(model.edge()),
        "target_edge": str(design.target_edge),
        "solve_for": list(design.solve_for),
        "scale": None if design.scale is None else str(design.scale),
        "exact_pays": {t: str(p) for t, p in design.exact_pays.items()},
        "exact_pays_float": {t: float(p) for t, p in design.exact_pays.items()},
        "practical_pays": {t: str(p) for t, p in design.practical_pays.items()},
        "practical_edge": str(design.practical_edge),
        "practical_edge_float": float(design.practical_edge),
        "rounded_down": {"pays": {t: str(p) for t, p in design.alternatives[0][0].items()},
                         "house_edge": str(design.alternatives[0][1])},
        "rounded_up": {"pays": {t: str(p) for t, p in design.alternatives[1][0].items()},
                       "house_edge": str(design.alternatives[1][1])},
    }


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


def parse_edge(text: str) -> Fraction:
    """A target edge as typed: ``0.05``, ``5%`` or ``1/20``.

    >>> parse_edge("5%"), parse_edge("0.05"), parse_edge("1/20")
    (Fraction(1, 20), Fraction(1, 20), Fraction(1, 20))
    """
    return parse_number(text, "target-edge", "--target-edge")
