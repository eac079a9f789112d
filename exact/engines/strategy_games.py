"""Two-player strategy games with chance, in sequence form, and exact algorithms over any of them.

Layer: engines, above the model; the engines know no game (the games call them).

A strategy game here is what the algorithms need of it (:class:`StrategyGame`): for each side
(0 and 1) its information sets with their actions and the own sequence leading to each set
(perfect recall), and the *leaves*: for every pair of action sequences, one per side, the summed
payoffs of both sides over the chance outcomes that end there, as exact numbers over one common
denominator ``total``. A game definition builds one (:class:`SequenceForm`); the algorithms know
no game:

* :func:`evaluate`: both sides' exact expected payoffs of a strategy pair (behaviour strategies);
* :func:`best_response`: one side's exact pure best response (backward pass over its sets);
* :func:`deviation_gains`: how much each side gains by its best deviation (0 and 0: equilibrium);
* :func:`zero_sum_equilibrium`: the sequence-form LP (Koller, Megiddo and von Stengel 1996) solved
  by scipy's HiGHS in floating point, only to *find* the supports; the exact strategies solve the
  indifference equations on them in rationals and are accepted only if exact best responses gain
  nothing;
* :func:`bimatrix_equilibria`: every Nash equilibrium of a non-zero-sum game whose sides each make
  at most one binary choice per deal (payoffs bilinear in the choice probabilities, additive in
  each side's choices, as Ethier and Lee exploit), by exact enumeration of the mixing supports,
  and whether it is unique.

>>> game = SequenceForm(total=4, sets=({"h": ("a", "b")}, {"g": ("a", "b")}),
...     parents=({"h": ()}, {"g": ()}), leaves=(
...     Leaf(((("h", "a"),)), (("g", "a"),), 1, -1), Leaf((("h", "a"),), (("g", "b"),), -1, 1),
...     Leaf((("h", "b"),), (("g", "a"),), -1, 1), Leaf((("h", "b"),), (("g", "b"),), 1, -1)))
>>> found = zero_sum_equilibrium(game)  # matching pennies
>>> found.strategies[0]["h"]["a"], found.values[0], found.gains
(Fraction(1, 2), Fraction(0, 1), (Fraction(0, 1), Fraction(0, 1)))
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, product
from math import lcm
from typing import TYPE_CHECKING, Any, Literal

from exact.errors import SolveError as SolveError
from exact.model.strategy_game import Action as Action
from exact.model.strategy_game import InfoSet as InfoSet
from exact.model.strategy_game import Leaf as Leaf
from exact.model.strategy_game import Number as Number
from exact.model.strategy_game import Path as Path
from exact.model.strategy_game import StrategyGame as StrategyGame

if TYPE_CHECKING:  # numpy and scipy load only when the LP is solved
    import numpy as np

Strategy = dict[InfoSet, dict[Action, Fraction]]
Chooser = Callable[[InfoSet, tuple[Action, ...]], Action]  # a set and its actions -> one action
DENOMINATOR_LIMITS = (1, 2, 3, 4, 6, 8, 12, 100, 10**4, 10**6, 10**9)


@dataclass(frozen=True)
class SequenceForm:
    """A plain :class:`StrategyGame`."""

    total: int
    sets: tuple[Mapping[InfoSet, tuple[Action, ...]], Mapping[InfoSet, tuple[Action, ...]]]
    parents: tuple[Mapping[InfoSet, Path], Mapping[InfoSet, Path]]
    leaves: Sequence[Leaf]


@dataclass(frozen=True)
class Equilibrium:
    """Both sides' strategies, their exact values (per unit) and their exact deviation gains."""

    strategies: tuple[Strategy, Strategy]
    values: tuple[Fraction, Fraction]
    gains: tuple[Fraction, Fraction]
    method: str
    lp_value: float | None = None  # the LP's floating-point value of side 0, when LP-found

    @property
    def verified(self) -> bool:
        return self.gains == (Fraction(0), Fraction(0))


@dataclass(frozen=True)
class Equilibria:
    """The Nash equilibria found, and whether the search proves there is no other."""

    found: tuple[Equilibrium, ...]
    exhaustive: bool  # every support was tried and no degenerate tie was met

    @property
    def unique(self) -> bool:
        return self.exhaustive and len(self.found) == 1


def pure(game: StrategyGame, side: int, choose: Chooser) -> Strategy:
    """The pure strategy of ``side`` that plays ``choose(set, actions)`` at every set."""
    return {h: _pure(choose(h, actions), actions) for h, actions in game.sets[side].items()}


def reach(strategy: Mapping[InfoSet, Mapping[Action, Number]], path: Path) -> Number:
    """The probability that ``strategy`` plays the choices of ``path``.

    >>> reach({"h": {"a": Fraction(1, 3), "b": Fraction(2, 3)}}, (("h", "b"),))
    Fraction(2, 3)
    """
    probability: Number = 1
    for infoset, action in path:
        probability *= strategy[infoset][action]
        if not probability:
            return 0
    return probability


def evaluate(game: StrategyGame, first: Strategy, second: Strategy) -> tuple[Fraction, Fraction]:
    """Both sides' exact expected payoffs per deal."""
    totals = [Fraction(0), Fraction(0)]
    for leaf in game.leaves:
        weight = reach(first, leaf.first) * reach(second, leaf.second)
        if weight:
            totals[0] += weight * leaf.first_pay
            totals[1] += weight * leaf.second_pay
    return totals[0] / game.total, totals[1] / game.total


def best_response(game: StrategyGame, side: int, other: Strategy,
                  default: Chooser | None = None,
                  fixed: Mapping[InfoSet, Mapping[Action, Fraction]] | None = None
                  ) -> Strategy:
    """``side``'s exact pure best response to the other side's ``other`` strategy.

    Backward over ``side``'s sets, deepest first: an action is worth the leaves it ends in plus
    the best of the sets it leads to. Ties go to ``default(set, actions)`` (else the first).
    Sets in ``fixed`` are not searched: they keep the given choice (worth its mix), so a search
    can be restricted to some sets (21st Century Baccarat's joker hands under House Way).
    """
    ending: dict[tuple[InfoSet, Action], Fraction] = defaultdict(Fraction)
    for leaf in game.leaves:
        own, theirs, pay = ((leaf.first, leaf.second, leaf.first_pay) if side == 0
                            else (leaf.second, leaf.first, leaf.second_pay))
        if own:
            weight = reach(other, theirs)
            if weight:
                ending[own[-1]] += weight * pay
    sets, parents = game.sets[side], game.parents[side]
    children: dict[tuple[InfoSet, Action], list[InfoSet]] = defaultdict(list)
    for infoset, parent in parents.items():
        if parent:
            children[parent[-1]].append(infoset)
    worth: dict[InfoSet, Fraction] = {}
    result: Strategy = {}
    for infoset in sorted(sets, key=lambda h: -len(parents[h])):
        actions = sets[infoset]
        scores = {a: ending[infoset, a] + sum((worth[c] for c in children[infoset, a]),
                                               Fraction(0)) for a in actions}
        if fixed is not None and infoset in fixed:
            given = fixed[infoset]
            worth[infoset] = sum((given[a] * scores[a] for a in actions if given[a]),
                                 Fraction(0))
            result[infoset] = dict(given)
            continue
        preferred = default(infoset, actions) if default else actions[0]
        best = max(actions, key=lambda a: (scores[a], a == preferred))
        worth[infoset] = scores[best]
        result[infoset] = _pure(best, actions)
    return result


def deviation_gains(game: StrategyGame, first: Strategy, second: Strategy,
                    defaults: tuple[Chooser | None, Chooser | None] = (None, None)
                    ) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """(both values, both sides' gains by their best deviation), exact. Gains are never
    negative; both are 0 exactly when the pair is a Nash equilibrium."""
    values = evaluate(game, first, second)
    first_best = evaluate(game, best_response(game, 0, second, defaults[0]), second)[0]
    second_best = evaluate(game, first, best_response(game, 1, first, defaults[1]))[1]
    return values, (first_best - values[0], second_best - values[1])


def _pure(action: Action, actions: Sequence[Action]) -> dict[Action, Fraction]:
    return {a: Fraction(int(a == action)) for a in actions}


# --- zero-sum: the sequence-form LP, made exact --------------------------------------------------
def is_zero_sum(game: StrategyGame) -> bool:
    return all(leaf.first_pay + leaf.second_pay == 0 for leaf in game.leaves)


def _sequences(game: StrategyGame, side: int) -> dict[tuple[InfoSet, Action] | None, int]:
    index: dict[tuple[InfoSet, Action] | None, int] = {None: 0}
    for infoset in sorted(game.sets[side], key=repr):
        for action in game.sets[side][infoset]:
            index[infoset, action] = len(index)
    return index


Sequences = dict[tuple[InfoSet, Action] | None, int]  # a side's sequences -> LP column


def solve_lp(game: StrategyGame
             ) -> tuple[tuple[np.ndarray, np.ndarray], float, tuple[Sequences, Sequences]]:
    """Both sides' realisation plans (floats) and the LP value of side 0, by scipy's HiGHS."""
    import numpy as np  # (loaded here, on first use: the module imports fast without it)
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix, csr_matrix, hstack

    indexes = (_sequences(game, 0), _sequences(game, 1))

    def constraints(side: int) -> Any:  # a scipy sparse matrix
        rows, cols, data = [0], [0], [1.0]
        for row, infoset in enumerate(sorted(game.sets[side], key=repr), start=1):
            parent = game.parents[side][infoset]
            rows.append(row)
            cols.append(indexes[side][parent[-1]] if parent else 0)
            data.append(-1.0)
            for action in game.sets[side][infoset]:
                rows.append(row)
                cols.append(indexes[side][infoset, action])
                data.append(1.0)
        return coo_matrix((data, (rows, cols)),
                          shape=(len(game.sets[side]) + 1, len(indexes[side]))).tocsr()

    rows, cols, data = [], [], []
    for leaf in game.leaves:
        rows.append(indexes[0][leaf.first[-1]] if leaf.first else 0)
        cols.append(indexes[1][leaf.second[-1]] if leaf.second else 0)
        data.append(float(Fraction(leaf.first_pay) / game.total))
    a = coo_matrix((data, (rows, cols)), shape=(len(indexes[0]), len(indexes[1]))).tocsr()
    e, f = constraints(0), constraints(1)
    n_x, n_q, n_y, n_p = len(indexes[0]), f.shape[0], len(indexes[1]), e.shape[0]
    # side 0: max q0  s.t.  F^T q - A^T x <= 0,  E x = e,  x >= 0
    first = linprog(c=np.r_[np.zeros(n_x), -1.0, np.zeros(n_q - 1)],
                    A_ub=hstack([-a.T, f.T]).tocsr(), b_ub=np.zeros(n_y),
                    A_eq=hstack([e, csr_matrix((n_p, n_q))]).tocsr(),
                    b_eq=np.r_[1.0, np.zeros(n_p - 1)],
                    bounds=[(0, None)] * n_x + [(None, None)] * n_q, method="highs")
    # side 1: min p0  s.t.  A y - E^T p <= 0,  F y = f,  y >= 0
    second = linprog(c=np.r_[np.zeros(n_y), 1.0, np.zeros(n_p - 1)],
                     A_ub=hstack([a, -e.T]).tocsr(), b_ub=np.zeros(n_x),
                     A_eq=hstack([f, csr_matrix((n_q, n_p))]).tocsr(),
                     b_eq=np.r_[1.0, np.zeros(n_q - 1)],
                     bounds=[(0, None)] * n_y + [(None, None)] * n_p, method="highs")
    if first.status != 0 or second.status != 0:
        raise SolveError(f"the sequence-form LP failed: {first.message}; {second.message}")
    return (first.x[:n_x], second.x[:n_y]), float(-first.fun), indexes


def _behaviour(game: StrategyGame, side: int, plan: np.ndarray, index: Sequences, limit: int
               ) -> Strategy:
    strategy: Strategy = {}
    for infoset, actions in game.sets[side].items():
        weights = [max(float(plan[index[infoset, a]]), 0.0) for a in actions]
        mass = sum(weights)
        if mass < 1e-12:  # never reached under this plan: any choice; keep the first action
            strategy[infoset] = _pure(actions[0], actions)
            continue
        probabilities = [min(max(Fraction(w / mass).limit_denominator(limit), Fraction(0)),
                             Fraction(1)) for w in weights[:-1]]
        last = 1 - sum(probabilities, Fraction(0))
        if last < 0:
            probabilities[-1] += last
            last = Fraction(0)
        strategy[infoset] = dict(zip(actions, [*probabilities, last], strict=True))
    return strategy


def zero_sum_equilibrium(game: StrategyGame) -> Equilibrium:
    """Minimax strategies of a zero-sum game, exact, verified by exact best responses.

    The LP gives the supports; on them each side's mixing solves, in rationals, the equations
    that make the other side indifferent where the other side mixes. Should that fail
    (degenerate supports), rationalised LP values are tried at growing denominators; the best
    candidate is returned with its (then nonzero) gains, never presented as verified.
    """
    if not is_zero_sum(game):
        raise SolveError("the game is not zero-sum: use bimatrix_equilibria")
    plans, lp_value, indexes = solve_lp(game)
    rounded = tuple(_behaviour(game, s, plans[s], indexes[s], 10**6) for s in (0, 1))
    second = _indifference(game, 0, rounded[0], rounded[1])
    first = _indifference(game, 1, rounded[1], rounded[0])
    best: Equilibrium | None = None
    if first is not None and second is not None:
        values, gains = deviation_gains(game, first, second)
        best = Equilibrium((first, second), values, gains, "LP supports, exact indifference",
                           lp_value)
        if best.verified:
            return best
    for limit in DENOMINATOR_LIMITS:
        pair = (_behaviour(game, 0, plans[0], indexes[0], limit),
                _behaviour(game, 1, plans[1], indexes[1], limit))
        values, gains = deviation_gains(game, *pair)
        found = Equilibrium(pair, values, gains, f"LP rationalised (denominators <= {limit})",
                            lp_value)
        if found.verified:
            return found
        if best is None or sum(gains) < sum(best.gains):
            best = found
    assert best is not None
    return best


def _mixed(strategy: Strategy) -> list[InfoSet]:
    return sorted((h for h, p in strategy.items() if len(p) == 2 and all(0 < q < 1
                                                                          for q in p.values())),
                  key=repr)


def _indifference(game: StrategyGame, side: int, own: Strategy,
                  other: Strategy) -> Strategy | None:
    """The other side's mixing that makes ``side`` indifferent at its own mixed sets.

    Unknowns: P(first action) at each of the other side's mixed (binary) sets. A set's action
    values are affine in them while no other-side path crosses two mixed sets (else None).
    """
    equations_at = _mixed(own)
    unknowns = _mixed(other)
    if not unknowns:
        return dict(other)
    if not equations_at:
        return None
    column = {h: i for i, h in enumerate(unknowns)}
    width = len(unknowns) + 1
    rows = {h: [Fraction(0)] * width for h in equations_at}
    for leaf in game.leaves:
        mine, theirs, pay = ((leaf.first, leaf.second, leaf.first_pay) if side == 0
                             else (leaf.second, leaf.first, leaf.second_pay))
        affine = _affine(theirs, other, column, width)
        if affine is None:
            return None
        for at, (infoset, action) in enumerate(mine):
            if infoset not in rows:
                continue
            later = reach(own, mine[at + 1:])
            if later == 0:
                continue
            sign = 1 if action == game.sets[side][infoset][0] else -1
            row = rows[infoset]
            for i in range(width):
                row[i] += sign * later * pay * affine[i]
    other_side = 1 - side
    solution = solve_linear([rows[h] for h in equations_at],
                            [other[h][game.sets[other_side][h][0]] for h in unknowns])
    if solution is None or any(not 0 <= q <= 1 for q in solution):
        return None
    result = dict(other)
    for h, q in zip(unknowns, solution, strict=True):
        first, second = game.sets[other_side][h]
        result[h] = {first: q, second: 1 - q}
    return result


def _affine(path: Path, strategy: Strategy, column: Mapping[InfoSet, int],
            width: int) -> list[Fraction] | None:
    """The reach of ``path`` as coefficients (unknowns..., constant); None if not affine."""
    constant = Fraction(1)
    unknown: tuple[int, int, int] | None = None  # (column, slope, offset): q or 1 - q
    for infoset, action in path:
        if infoset in column:
            if unknown is not None:
                return None
            first = next(iter(strategy[infoset]))
            unknown = (column[infoset], 1, 0) if action == first else (column[infoset], -1, 1)
        else:
            constant *= strategy[infoset][action]
    coefficients = [Fraction(0)] * width
    if unknown is None:
        coefficients[-1] = constant
    else:
        coefficients[unknown[0]] = constant * unknown[1]
        coefficients[-1] = constant * unknown[2]
    return coefficients


def solve_linear(rows: Sequence[Sequence[Fraction]], guess: Sequence[Fraction]
                 ) -> list[Fraction] | None:
    """Solve sum_j a_ij q_j + c_i = 0 (rows ``[a_i1.., c_i]``) exactly by Gauss-Jordan; free
    unknowns keep their ``guess``; None when inconsistent.

    >>> solve_linear([[Fraction(2), Fraction(-1)]], [Fraction(0)])
    [Fraction(1, 2)]
    """
    n = len(guess)
    matrix = [[Fraction(v) for v in row[:n]] + [-Fraction(row[n])] for row in rows]
    pivots: list[int] = []
    rank = 0
    for col in range(n):
        pivot = next((r for r in range(rank, len(matrix)) if matrix[r][col] != 0), None)
        if pivot is None:
            continue
        matrix[rank], matrix[pivot] = matrix[pivot], matrix[rank]
        lead = matrix[rank][col]
        matrix[rank] = [v / lead for v in matrix[rank]]
        for r in range(len(matrix)):
            if r != rank and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [v - factor * w for v, w in zip(matrix[r], matrix[rank], strict=True)]
        pivots.append(col)
        rank += 1
    if any(all(v == 0 for v in row[:n]) and row[n] != 0 for row in matrix[rank:]):
        return None
    solution = list(guess)
    free = [c for c in range(n) if c not in pivots]
    for r, col in enumerate(pivots):
        solution[col] = matrix[r][n] - sum((matrix[r][c] * guess[c] for c in free), Fraction(0))
    return solution


# --- bimatrix games with one binary choice per side and deal -------------------------------------
@dataclass(frozen=True)
class _Bilinear:
    """Each side's gain from its first action over its second at each set, affine in the other
    side's probabilities of their first actions: ``constant[h] + sum_g slope[h][g] * p_g``."""

    constant: tuple[dict[InfoSet, int], dict[InfoSet, int]]
    slope: tuple[dict[InfoSet, dict[InfoSet, int]], dict[InfoSet, dict[InfoSet, int]]]
    # terms of the gains evaluated so far (one item, mutable): the enumeration's cost, which a
    # count of supports tried does not bound (a try costs more the more sets there are)
    work: list[int] = field(default_factory=lambda: [0], compare=False, repr=False)

    def gain(self, side: int, infoset: InfoSet, other: Mapping[InfoSet, Number]) -> Number:
        row = self.slope[side][infoset]
        self.work[0] += len(row) + 1
        total: Number = self.constant[side][infoset]
        for g, s in row.items():
            total += s * other[g]
        return total


def _bilinear(game: StrategyGame) -> _Bilinear:
    for side in (0, 1):
        if any(len(actions) != 2 for actions in game.sets[side].values()) or any(
                game.parents[side].values()):
            raise SolveError("bimatrix_equilibria needs one binary choice per side and deal")
    constant: tuple[dict[InfoSet, int], dict[InfoSet, int]] = (
        {h: 0 for h in game.sets[0]}, {h: 0 for h in game.sets[1]})
    slope: tuple[dict[InfoSet, dict[InfoSet, int]], dict[InfoSet, dict[InfoSet, int]]] = (
        {h: defaultdict(int) for h in game.sets[0]},
                                {h: defaultdict(int) for h in game.sets[1]})

    def linear(side: int, path: Path) -> tuple[InfoSet | None, int, int]:
        """(set, offset, slope) of the reach: 1, p or 1 - p."""
        if len(path) > 1:
            raise SolveError("bimatrix_equilibria needs one binary choice per side and deal")
        if not path:
            return None, 1, 0
        infoset, action = path[0]
        return (infoset, 0, 1) if action == game.sets[side][infoset][0] else (infoset, 1, -1)

    # each side's pays times one positive integer: the gains keep their signs and zeros, and
    # the enumeration's many corner evaluations stay in integers (Fractions are 10x slower)
    scales = [lcm(*(Fraction(getattr(leaf, pay)).denominator for leaf in game.leaves))
              for pay in ("first_pay", "second_pay")]
    for leaf in game.leaves:
        mine = linear(0, leaf.first), linear(1, leaf.second)
        pays = (int(leaf.first_pay * scales[0]), int(leaf.second_pay * scales[1]))
        for side in (0, 1):
            own, other = mine[side], mine[1 - side]
            if own[0] is None or own[2] == 0:
                continue
            constant[side][own[0]] += own[2] * pays[side] * other[1]
            if other[0] is not None:
                slope[side][own[0]][other[0]] += own[2] * pays[side] * other[2]
    return _Bilinear(constant, ({h: {g: s for g, s in row.items() if s}
                                 for h, row in slope[0].items()},
                                {h: {g: s for g, s in row.items() if s}
                                 for h, row in slope[1].items()}))


def bimatrix_equilibria(game: StrategyGame, max_candidates: int = 5_000,
                        max_work: int = 5_000_000) -> Equilibria:
    """Every Nash equilibrium of a game where each side makes at most one binary choice per
    deal (the payoffs are bilinear in the two sides' probabilities of their first actions).

    For r = 0, 1, ... side 0 mixes at r sets M (the rest pure, every assignment) and side 1 at
    r sets J: side 1's indifference at J fixes side 0's mixing at M, side 1's strict best
    response fixes the rest of side 1, side 0's indifference at M fixes side 1's mixing at J,
    and side 0's pure choices must be best responses. A tie met outside the supports
    (a possible continuum), an underdetermined system, or a search cut at ``max_candidates``
    supports tried or ``max_work`` terms of gains evaluated (seconds: what bounds the time of
    a game with many sets, e.g. a rule file's Player choosing on every total) makes the
    answer not ``exhaustive`` (so not provably unique). The search is complete for
    equilibria where side 1 is indifferent at exactly as many sets as side 0 mixes at (the
    generic case; with one side-0 set, as in chemin de fer's Models 1 and 2, a degenerate
    continuum also shows, as a tie or as several equilibria); a degenerate game where side 0
    mixes at more sets than side 1 is indifferent at is not searched further.
    """
    form = _bilinear(game)
    first_sets, second_sets = sorted(game.sets[0], key=repr), sorted(game.sets[1], key=repr)
    found: dict[PairKey, tuple[Strategy, Strategy]] = {}
    exhaustive = True
    tried = 0
    for size in range(len(first_sets) + 1):
        for mixed in combinations(first_sets, size):
            pure_sets = [h for h in first_sets if h not in mixed]
            for assignment in product((1, 0), repeat=len(pure_sets)):
                if form.work[0] > max_work:
                    return Equilibria(_equilibria(game, found), False)
                fixed = dict(zip(pure_sets, assignment, strict=True))
                # side 1's sets whose gain can vanish for some mixing of ``mixed``
                candidates = [g for g in second_sets
                              if any(h in form.slope[1][g] for h in mixed)
                              and _may_vanish(form, g, fixed, mixed)] if size else []
                for indifferent in combinations(candidates, size):
                    tried += 1
                    if tried > max_candidates or form.work[0] > max_work:
                        return Equilibria(_equilibria(game, found), False)
                    outcome = _try_support(form, game, fixed, mixed, indifferent, second_sets)
                    if outcome is None:
                        continue
                    pair, clean = outcome
                    exhaustive &= clean
                    if pair is not None:
                        found[_key(pair)] = pair
    return Equilibria(_equilibria(game, found), exhaustive)


def _may_vanish(form: _Bilinear, infoset: InfoSet, fixed: Mapping[InfoSet, int],
                mixed: Sequence[InfoSet]) -> bool:
    """Whether side 1's gain at ``infoset`` is 0 somewhere in the box of ``mixed`` (it is affine:
    check the signs at the corners)."""
    values = set()
    for corner in product((0, 1), repeat=len(mixed)):
        point = {**fixed, **dict(zip(mixed, corner, strict=True))}
        gain = form.gain(1, infoset, point)
        values.add((gain > 0) - (gain < 0))
    return 0 in values or values == {-1, 1}


def _try_support(form: _Bilinear, game: StrategyGame, fixed: Mapping[InfoSet, int],
                 mixed: Sequence[InfoSet], indifferent: Sequence[InfoSet],
                 second_sets: Sequence[InfoSet]
                 ) -> tuple[tuple[Strategy, Strategy] | None, bool] | None:
    """(equilibrium or None, whether no degeneracy was met); None if the support is empty."""
    clean = True
    first: dict[InfoSet, Number] = dict(fixed)
    if mixed:
        rows = [[Fraction(form.slope[1][g].get(h, 0)) for h in mixed]
                + [Fraction(form.gain(1, g, {**fixed, **{h: 0 for h in mixed}}))]
                for g in indifferent]
        solution = _unique_solution(rows, len(mixed))
        if solution is False:
            return None
        if solution is None:
            return None, False
        if any(not 0 < p < 1 for p in solution):
            return None
        first.update(zip(mixed, solution, strict=True))
    second: dict[InfoSet, Number] = {}
    for g in second_sets:
        if g in indifferent:
            continue
        gain = form.gain(1, g, first)
        if gain == 0:
            clean = False  # side 1 indifferent off its support: a continuum may exist
        second[g] = int(gain > 0)
    if mixed:
        rows = [[Fraction(form.slope[0][h].get(g, 0)) for g in indifferent]
                + [Fraction(form.gain(0, h, {**second, **{g: 0 for g in indifferent}}))]
                for h in mixed]
        solution = _unique_solution(rows, len(indifferent))
        if solution is False:
            return None, clean
        if solution is None:
            return None, False
        if any(not 0 <= q <= 1 for q in solution):
            return None, clean
        second.update(zip(indifferent, solution, strict=True))
    for h, p in fixed.items():
        gain = form.gain(0, h, second)
        if (p == 1 and gain < 0) or (p == 0 and gain > 0):
            return None, clean
        if gain == 0:
            clean = False
    return (_behaviours(game, 0, first), _behaviours(game, 1, second)), clean


def _unique_solution(rows: list[list[Fraction]], n: int
                     ) -> list[Fraction] | Literal[False] | None:
    """The one solution; False if there is none (the support is simply impossible); None if
    there are many (a possible continuum of equilibria: the search is then not exhaustive)."""
    solution = solve_linear(rows, [Fraction(0)] * n)
    if solution is None:
        return False
    if solve_linear(rows, [Fraction(1)] * n) != solution:
        return None
    return solution


def _behaviours(game: StrategyGame, side: int, first_action: Mapping[InfoSet, Number]
                ) -> Strategy:
    result: Strategy = {}
    for h, (a, b) in game.sets[side].items():
        probability = Fraction(first_action[h])
        result[h] = {a: probability, b: 1 - probability}
    return result


PairKey = tuple[tuple[tuple[str, tuple[Fraction, ...]], ...], ...]  # a pair, by reprs of sets


def _key(pair: tuple[Strategy, Strategy]) -> PairKey:
    return tuple(tuple(sorted(((repr(h), tuple(p.values())) for h, p in s.items())))
                 for s in pair)


def _equilibria(game: StrategyGame, found: Mapping[PairKey, tuple[Strategy, Strategy]]
                ) -> tuple[Equilibrium, ...]:
    result = []
    for key in sorted(found):
        pair = found[key]
        values, gains = deviation_gains(game, *pair)
        result.append(Equilibrium(pair, values, gains, "exact support enumeration"))
    return tuple(result)
