"""The heads-up equilibrium of 21st Century Baccarat: found by LP, stated and checked exactly.

The round is a two-player zero-sum game with perfect recall, so its minimax strategies are the
solutions of the sequence-form linear programs (Koller, Megiddo and von Stengel 1996). scipy's
HiGHS solves them in floating point; that only *finds* the strategies. The reported strategies
are rationalised (exact fractions), and they are an equilibrium exactly when the two exact best
responses against them reach the same value: the player cannot gain against the dealer's
strategy, nor the dealer against the player's (:func:`deviation_gaps`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, csr_matrix, hstack

from exact.engines.strategy_games import solve_linear
from exact.errors import SolveError as SolveError
from exact.errors import StrategyError
from exact.games.century21.game import GameTable, InfoSet, Strategy, set_order

DENOMINATOR_LIMITS = (1, 2, 3, 4, 6, 8, 12, 100, 10**4, 10**6, 10**9)


@dataclass(frozen=True)
class Equilibrium:
    """Minimax strategies and the exact value of the game (player's pay per unit bet)."""

    player: Strategy
    dealer: Strategy
    value: Fraction
    lp_value: float
    player_gain: Fraction  # best-response value against ``dealer`` minus ``value`` (0)
    dealer_gain: Fraction  # ``value`` minus the value of the dealer's best response (0)


def _sequences(table: GameTable, side: str) -> dict[tuple[InfoSet, str] | None, int]:
    sets = table.player_sets if side == "player" else table.dealer_sets
    index: dict[tuple[InfoSet, str] | None, int] = {None: 0}
    for infoset in sorted(sets, key=set_order):
        for action in sets[infoset]:
            index[infoset, action] = len(index)
    return index


def _constraints(table: GameTable, side: str, index) -> csr_matrix:
    sets = table.player_sets if side == "player" else table.dealer_sets
    rows, cols, data = [0], [0], [1.0]
    for row, infoset in enumerate(sorted(sets, key=set_order), start=1):
        parent = table.dealer_parent.get(infoset, ()) if side == "dealer" else ()
        rows.append(row)
        cols.append(index[parent[-1]] if parent else 0)
        data.append(-1.0)
        for action in sets[infoset]:
            rows.append(row)
            cols.append(index[infoset, action])
            data.append(1.0)
    return coo_matrix((data, (rows, cols)), shape=(len(sets) + 1, len(index))).tocsr()


def _payoff_matrix(table: GameTable, p_index, d_index) -> csr_matrix:
    rows, cols, data = [], [], []
    for p, d, pay in table.payoffs:
        rows.append(p_index[p[-1]] if p else 0)
        cols.append(d_index[d[-1]] if d else 0)
        data.append(float(pay) / table.total)
    return coo_matrix((data, (rows, cols)), shape=(len(p_index), len(d_index))).tocsr()


def solve_lp(table: GameTable) -> tuple[np.ndarray, np.ndarray, float, dict, dict]:
    """Realisation plans of both sides and the LP value (floats)."""
    p_index, d_index = _sequences(table, "player"), _sequences(table, "dealer")
    e, f = _constraints(table, "player", p_index), _constraints(table, "dealer", d_index)
    a = _payoff_matrix(table, p_index, d_index)
    n_x, n_q = len(p_index), f.shape[0]
    # player: max q0  s.t.  F^T q - A^T x <= 0,  E x = e,  x >= 0
    player = linprog(
        c=np.r_[np.zeros(n_x), -1.0, np.zeros(n_q - 1)],
        A_ub=hstack([-a.T, f.T]).tocsr(), b_ub=np.zeros(len(d_index)),
        A_eq=hstack([e, csr_matrix((e.shape[0], n_q))]).tocsr(),
        b_eq=np.r_[1.0, np.zeros(e.shape[0] - 1)],
        bounds=[(0, None)] * n_x + [(None, None)] * n_q, method="highs")
    n_y, n_p = len(d_index), e.shape[0]
    # dealer: min p0  s.t.  A y - E^T p <= 0,  F y = f,  y >= 0
    dealer = linprog(
        c=np.r_[np.zeros(n_y), 1.0, np.zeros(n_p - 1)],
        A_ub=hstack([a, -e.T]).tocsr(), b_ub=np.zeros(len(p_index)),
        A_eq=hstack([f, csr_matrix((f.shape[0], n_p))]).tocsr(),
        b_eq=np.r_[1.0, np.zeros(f.shape[0] - 1)],
        bounds=[(0, None)] * n_y + [(None, None)] * n_p, method="highs")
    if player.status != 0 or dealer.status != 0:
        raise SolveError(f"the sequence-form LP failed: {player.message}; {dealer.message}")
    return player.x[:n_x], dealer.x[:n_y], float(-player.fun), p_index, d_index


def _behaviour(table: GameTable, side: str, plan: np.ndarray, index, limit: int) -> Strategy:
    sets = table.player_sets if side == "player" else table.dealer_sets
    strategy: Strategy = {}
    for infoset, actions in sets.items():
        reach = [max(plan[index[infoset, a]], 0.0) for a in actions]
        mass = sum(reach)
        if mass < 1e-12:  # never reached under this plan: any choice; keep the first action
            strategy[infoset] = {a: Fraction(int(i == 0)) for i, a in enumerate(actions)}
            continue
        probabilities = [Fraction(r / mass).limit_denominator(limit) for r in reach[:-1]]
        probabilities = [min(max(p, Fraction(0)), Fraction(1)) for p in probabilities]
        last = 1 - sum(probabilities, Fraction(0))
        if last < 0:
            probabilities[-1] += last
            last = Fraction(0)
        strategy[infoset] = dict(zip(actions, [*probabilities, last], strict=True))
    return strategy


def deviation_gaps(table: GameTable, player: Strategy,
                   dealer: Strategy) -> tuple[Fraction, Fraction, Fraction]:
    """(value, player's gain by its best deviation, dealer's gain by its best deviation),
    all exact. Both gains are 0 exactly when the pair is an equilibrium."""
    value = table.value(player, dealer)
    best_player = table.value(table.player_best_response(dealer), dealer)
    best_dealer = table.value(player, table.dealer_best_response(player))
    return value, best_player - value, value - best_dealer


def equilibrium(table: GameTable) -> Equilibrium:
    """Minimax strategies of both sides, as exact fractions, checked exactly.

    The LP gives the supports; on them the exact strategies solve linear equations: each
    side's mixing makes the other side indifferent where the other side mixes. Should that
    fail (degenerate supports), rationalised LP values are tried at growing denominators.
    """
    x, y, lp_value, p_index, d_index = solve_lp(table)
    player = _behaviour(table, "player", x, p_index, 10**6)
    dealer = _behaviour(table, "dealer", y, d_index, 10**6)
    exact_dealer = _indifference(table, "player", player, dealer)
    exact_player = _indifference(table, "dealer", dealer, player)
    if exact_dealer is not None and exact_player is not None:
        value, player_gain, dealer_gain = deviation_gaps(table, exact_player, exact_dealer)
        if player_gain == 0 and dealer_gain == 0:
            return Equilibrium(exact_player, exact_dealer, value, lp_value, player_gain,
                               dealer_gain)
    best: Equilibrium | None = None
    for limit in DENOMINATOR_LIMITS:
        player = _behaviour(table, "player", x, p_index, limit)
        dealer = _behaviour(table, "dealer", y, d_index, limit)
        value, player_gain, dealer_gain = deviation_gaps(table, player, dealer)
        found = Equilibrium(player, dealer, value, lp_value, player_gain, dealer_gain)
        if player_gain == 0 and dealer_gain == 0:
            return found
        if best is None or player_gain + dealer_gain < best.player_gain + best.dealer_gain:
            best = found
    assert best is not None
    return best


def _mixed(strategy: Strategy) -> list[InfoSet]:
    return sorted((h for h, probabilities in strategy.items()
                   if all(0 < p < 1 for p in probabilities.values())), key=set_order)


def _indifference(table: GameTable, side: str, own: Strategy,
                  other: Strategy) -> Strategy | None:
    """The ``other`` side's mixing that makes ``side`` indifferent at its mixed sets.

    Unknowns: P(first action) at each of the other side's mixed sets (two actions each). The
    values are affine in them as long as no two mixed sets of the other side lie on one path.
    """
    equations_at = [h for h in _mixed(own) if len(own[h]) == 2]
    unknowns = [h for h in _mixed(other) if len(other[h]) == 2]
    if not equations_at or not unknowns:
        return None
    column = {h: i for i, h in enumerate(unknowns)}
    width = len(unknowns) + 1
    rows: dict[InfoSet, list[Fraction]] = {h: [Fraction(0)] * width for h in equations_at}
    for p, d, pay in table.payoffs:
        mine, theirs = (p, d) if side == "player" else (d, p)
        # the value of an action at a set: every leaf below it, weighted by the side's own
        # later choices (its earlier choices are common to both actions: perfect recall)
        affine = _affine(theirs, other, column, width)
        if affine is None:
            return None
        for at, (infoset, action) in enumerate(mine):
            if infoset not in rows:
                continue
            later = Fraction(1)
            for h, a in mine[at + 1:]:
                later *= own[h][a]
            if later == 0:
                continue
            sign = 1 if action == table_actions(table, side, infoset)[0] else -1
            if side == "dealer":
                sign = -sign  # the dealer's own value is minus the player's pay
            row = rows[infoset]
            for i in range(width):
                row[i] += sign * later * pay * affine[i]
    solution = _solve([rows[h] for h in equations_at],
                      [other[h][table_actions(table, "dealer" if side == "player" else "player",
                                              h)[0]] for h in unknowns])
    if solution is None or any(not 0 <= q <= 1 for q in solution):
        return None
    result = dict(other)
    for h, q in zip(unknowns, solution, strict=True):
        first, second = table_actions(table, "dealer" if side == "player" else "player", h)
        result[h] = {first: q, second: 1 - q}
    return result


def table_actions(table: GameTable, side: str, infoset: InfoSet) -> tuple[str, ...]:
    return (table.player_sets if side == "player" else table.dealer_sets)[infoset]


def _affine(sequence, strategy: Strategy, column, width: int):
    """The reach of ``sequence`` as coefficients (unknowns..., constant); None if not affine."""
    constant = Fraction(1)
    unknown: tuple[int, Fraction, Fraction] | None = None  # (column, slope, offset)
    for infoset, action in sequence:
        if infoset in column:
            if unknown is not None:
                return None
            first = next(iter(strategy[infoset]))
            # q or 1 - q
            unknown = (column[infoset], Fraction(1) if action == first else Fraction(-1),
                       Fraction(0) if action == first else Fraction(1))
        else:
            constant *= strategy[infoset][action]
    coefficients = [Fraction(0)] * width
    if unknown is None:
        coefficients[-1] = constant
    else:
        index, slope, offset = unknown
        coefficients[index] = constant * slope
        coefficients[-1] = constant * offset
    return coefficients


# the indifference equations are solved by the generic exact solver of the strategy games
_solve = solve_linear


def strategy_by_name(table: GameTable, name: str) -> tuple[Strategy, Strategy]:
    """``house``: House Way both; ``best``: the player's best response to the dealer's House
    Way; ``dealer-best``: the dealer's best response to the player's House Way;
    ``equilibrium``: the minimax strategies."""
    player, dealer = table.house_way()
    if name == "house":
        return player, dealer
    if name == "best":
        return table.player_best_response(dealer), dealer
    if name == "dealer-best":
        return player, table.dealer_best_response(player)
    if name == "equilibrium":
        found = equilibrium(table)
        return found.player, found.dealer
    raise StrategyError(f"unknown strategy {name!r}; known: house, best, dealer-best, "
                        "equilibrium")
