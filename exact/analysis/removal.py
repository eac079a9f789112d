"""Effects of removal and card-counting systems derived from them.

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

The effect of removal (EOR) of a rank is the exact change in a bet's expected value per unit
when one card of that rank is taken out of the shoe (the suit with most cards left goes). The
multi-card version removes ``k`` cards of the rank and divides the change by ``k``; removal
sets give the exact change for any multiset of cards, beside its linear estimate (the sum of
the single-card effects), which is what a count assumes.

A count system gives every rank an integer tag; the running count is the sum of the tags of
the cards seen, the true count the running count per deck left unseen. Tags derived from the
EOR are the EOR scaled so that the largest has magnitude ``level``, rounded, then balanced
(tags over a full deck sum to zero) by moving the tags with the largest rounding error. The
betting correlation is the correlation of the tags with the EOR over the 52 cards of a deck.

>>> from exact.core.cards import Shoe
>>> from exact.games import get_game
>>> from exact.analysis.bet_analysis import game_bets
>>> game = get_game("punto-banco")
>>> table = effects_of_removal(game, Shoe.standard(8), [b for b in game_bets(game)
...                            if b.id == "tie"])
>>> table.effects["tie"]["T"] > 0 > table.effects["tie"]["6"]
True
>>> balanced(derive_tags(table.effects["tie"], level=2))
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact.core.cards import RANKS, Card, Shoe, parse_cards
from exact.core.parsing import expect, parse_integer, shown
from exact.engines.batch import BetEvaluator, Evaluator
from exact.errors import CountError as CountError
from exact.errors import CountInputError as CountInputError
from exact.model.bets import Bet, checked_bets
from exact.model.contracts import check_dealable
from exact.model.game import Game


@dataclass(frozen=True)
class RemovalTable:
    """Exact effects of removal of every rank on every bet of a set."""

    shoe: Shoe
    depth: int  # cards of the rank removed (the effect is per card)
    base: Mapping[str, Fraction]  # expected value per bet for the shoe itself
    effects: Mapping[str, Mapping[str, Fraction]]  # bet -> rank -> change per card
    names: Mapping[str, str]
    removals: Mapping[str, Mapping[str, tuple[Fraction, Fraction]]]  # bet -> set -> (exact, linear)


def effects_of_removal(game: Game, shoe: Shoe, bets: Sequence[Bet], depth: int = 1,
                       removal_sets: Sequence[str] = (),
                       evaluator: Evaluator | None = None) -> RemovalTable:
    """Exact change of each bet's expected value per card of each rank removed from ``shoe``
    (``depth`` cards of the rank at a time), and for each removal set (e.g. ``"5 5 9"``)."""
    expect(game, Game, "effects_of_removal: game must be a game")
    expect(shoe, Shoe, "effects_of_removal: shoe must be a Shoe")
    bets = checked_bets(bets, "effects_of_removal")
    check_dealable(game, shoe, bets)  # before the evaluator's plan (seconds on some bets)
    evaluator = evaluator or BetEvaluator(game, bets)
    return removal_table(shoe, removable_keys(RANKS, shoe.count, depth),
                         lambda cards, rank: cards.remove([rank] * depth),
                         lambda card: card.rank, evaluator,
                         {b.id: b.name for b in bets}, depth, removal_sets)


def removable_keys(keys: Sequence[str], count: Callable[[str], int], depth: int
                   ) -> list[str]:
    """The card classes (ranks, or a game's classes) present in the shoe; a ``depth`` above
    the cards of any of them is refused (its effect could not be computed, and a table and a
    derived count without it would say nothing of it).

    >>> removable_keys(["A", "K"], {"A": 3, "K": 0}.get, 2)
    ['A']
    >>> removable_keys(["A", "K"], {"A": 3, "K": 0}.get, 4)
    Traceback (most recent call last):
    ...
    exact.errors.CountError: --depth 4: the shoe has only 3 card(s) of A (at most 3)
    """
    if not isinstance(depth, int) or depth < 1:
        raise CountError(f"--depth must be at least 1, got {depth}")
    present = [key for key in keys if count(key) > 0]
    if not present:
        raise CountError("the shoe has no card to remove")
    fewest = min(present, key=count)
    if count(fewest) < depth:
        raise CountError(f"--depth {depth}: the shoe has only {count(fewest)} card(s) of "
                         f"{fewest} (at most {count(fewest)})")
    return present


def removal_table(shoe: Shoe, keys: Sequence[str], remove: Callable[[Shoe, str], Shoe],
                  key_of: Callable[[Card], str],
                  evaluator: Evaluator, names: Mapping[str, str], depth: int = 1,
                  removal_sets: Sequence[str] = ()) -> RemovalTable:
    """Effects of removal of any game: ``keys`` name the card classes (ranks, or a game's own
    classes), ``remove(shoe, key)`` takes ``depth`` cards of a class out, ``key_of`` classes a
    card of a removal set, and ``evaluator`` gives each bet's exact expected values for a list
    of shoes (one batch: the shoe, each class removed, each removal set removed)."""
    if depth < 1:
        raise CountError(f"removal depth must be at least 1, got {depth}")
    sets = [parse_cards(text) for text in removal_sets]
    if any(not cards for cards in sets):
        raise CountError("a --removal-set names no card; e.g. --removal-set '5 5 9'")
    shoes = [shoe, *(remove(shoe, key) for key in keys), *(shoe.remove(cards) for cards in sets)]
    values_of = evaluator.expected_values(shoes)
    base = {bet_id: values_of[bet_id][0] for bet_id in names}
    effects = {bet_id: {key: (values_of[bet_id][1 + i] - base[bet_id]) / depth
                        for i, key in enumerate(keys)} for bet_id in names}
    removals: dict[str, dict[str, tuple[Fraction, Fraction]]] = {}
    for bet_id in names:
        per_set = {}
        for position, (text, cards) in enumerate(zip(removal_sets, sets, strict=True)):
            exact = values_of[bet_id][1 + len(keys) + position] - base[bet_id]
            linear = sum((effects[bet_id].get(key_of(card), Fraction(0)) for card in cards),
                         Fraction(0))
            per_set[" ".join(text.replace(",", " ").split())] = (exact, linear)
        removals[bet_id] = per_set
    return RemovalTable(shoe, depth, base, effects, dict(names), removals)


# --- count systems -----------------------------------------------------------------------------
RANK_WEIGHTS: Mapping[str, int] = {rank: 4 for rank in RANKS}
"""Cards of each rank in a deck: the default weights of the count functions. A game that
counts other classes (21st Century Baccarat: A-9, ten-values, jokers) passes its own."""


def derive_tags(effects: Mapping[str, Fraction], level: int = 1,
                weights: Mapping[str, int] = RANK_WEIGHTS) -> dict[str, int]:
    """Balanced integer tags proportional to the effects of removal, largest ``level``.

    >>> tags = derive_tags({r: Fraction(0) for r in RANKS} | {"9": Fraction(-3), "5": Fraction(2)})
    >>> {rank: tag for rank, tag in tags.items() if tag}
    {'5': 1, '9': -1}
    """
    if level < 1:
        raise CountError(f"count level must be at least 1, got {level}")
    keys = list(weights)
    largest = max((abs(effects.get(key, Fraction(0))) for key in keys), default=Fraction(0))
    if largest == 0:
        return {key: 0 for key in keys}
    scale = Fraction(level) / largest
    exact = {key: effects.get(key, Fraction(0)) * scale for key in keys}
    if len(set(weights.values())) > 1:
        return _nearest_balanced(exact, level, weights)
    tags = {key: round(value) for key, value in exact.items()}
    # Balance: every rank has as many cards a deck, so the tags must sum to zero. Move the tags
    # whose rounding erred most towards the needed side, one unit each (ties in rank order).
    excess = sum(tags.values())
    while excess:
        step = -1 if excess > 0 else 1
        candidates = [k for k in keys if abs(tags[k] + step) <= level]
        key = max(candidates, key=lambda k: ((exact[k] - tags[k]) * step, -keys.index(k)))
        tags[key] += step
        excess += step
    return tags


def _nearest_balanced(exact: Mapping[str, Fraction], level: int,
                      weights: Mapping[str, int]) -> dict[str, int]:
    """The balanced tags within ``level`` nearest to ``exact`` (least card-weighted squared
    error). With unequal weights (16 ten-values, 1 joker a deck) unit moves cannot always
    balance, so this is an exact search over the weighted running sum, a few hundred states.

    >>> _nearest_balanced({"a": Fraction(3, 2), "b": Fraction(-1, 2)}, 2, {"a": 1, "b": 2})
    {'a': 2, 'b': -1}
    """
    best: dict[int, tuple[Fraction, tuple[int, ...]]] = {0: (Fraction(0), ())}
    for key, weight in weights.items():
        following: dict[int, tuple[Fraction, tuple[int, ...]]] = {}
        # a class the shoe lacks costs nothing whatever its tag: it is tagged 0
        for total, (cost, tags) in best.items():
            for tag in range(-level, level + 1) if weight else (0,):
                entry = (cost + weight * (exact[key] - tag) ** 2, (*tags, tag))
                found = following.get(total + weight * tag)
                if found is None or entry < found:
                    following[total + weight * tag] = entry
        best = following
    return dict(zip(weights, best[0][1], strict=True))


def balanced(tags: Mapping[str, int], weights: Mapping[str, int] = RANK_WEIGHTS) -> bool:
    """Tags sum to zero over a full deck (52 cards by default)."""
    return sum(count * tags.get(key, 0) for key, count in weights.items()) == 0


def _reduced(weights: Mapping[str, int]) -> list[int]:
    """Weights over their common divisor: equal weights count 1 each, so the float sums below
    are the plain per-rank sums."""
    divisor = math.gcd(*weights.values())
    if not divisor:
        raise CountError("a count needs cards to weigh its tags: every weight is zero")
    return [count // divisor for count in weights.values()]


def betting_correlation(tags: Mapping[str, int], effects: Mapping[str, Fraction],
                        weights: Mapping[str, int] = RANK_WEIGHTS) -> float:
    """Correlation of tags and effects of removal over the cards of a deck (each key weighs
    its cards: four a rank by default).

    >>> betting_correlation({"A": 1, "2": -1}, {"A": Fraction(2), "2": Fraction(-2)})
    1.0
    """
    ws = _reduced(weights)
    xs = [tags.get(key, 0) for key in weights]
    ys = [float(effects.get(key, Fraction(0))) for key in weights]
    cards = sum(ws)
    mean_x = sum(w * x for w, x in zip(ws, xs, strict=True)) / cards
    mean_y = sum(w * y for w, y in zip(ws, ys, strict=True)) / cards
    covariance = sum(w * (x - mean_x) * (y - mean_y) for w, x, y in zip(ws, xs, ys, strict=True))
    spread = math.sqrt(sum(w * (x - mean_x) ** 2 for w, x in zip(ws, xs, strict=True))
                       * sum(w * (y - mean_y) ** 2 for w, y in zip(ws, ys, strict=True)))
    return covariance / spread if spread else 0.0


COUNT_LEVELS = (1, 2, 3)
"""The levels of the derived counts tried (the largest tag's size)."""


def best_tags(effects: Mapping[str, Fraction], weights: Mapping[str, int] = RANK_WEIGHTS
              ) -> tuple[dict[str, int], int, float]:
    """The derived balanced tags of the level (1-3) with the best betting correlation
    (the lower level on a tie to 3 decimals)."""
    best: tuple[dict[str, int], int, float] | None = None
    for level in COUNT_LEVELS:
        tags = derive_tags(effects, level, weights)
        correlation = betting_correlation(tags, effects, weights)
        if best is None or round(correlation, 3) > round(best[2], 3):
            best = (tags, level, correlation)
    assert best is not None
    return best


def _rank_of(card: Card) -> str | None:
    return None if card.is_joker else card.rank


def parse_tags(text: str, keys: Sequence[str] = RANKS,
               key_of: Callable[[Card], str | None] = _rank_of) -> dict[str, int]:
    """User tags ``"A=1,2=1,9=-2"``; keys not named tag 0; ``10`` means T. A game counting
    other classes passes its ``keys`` and ``key_of`` (a card's key, None if it has none).

    >>> parse_tags("a=1, 10=-1")["T"], parse_tags("a=1, 10=-1")["K"]
    (-1, 0)
    """
    tags = {key: 0 for key in keys}
    named: dict[str, str] = {}
    # each entry's parts stripped, not every space dropped: "5=1 0" is not a tag of 10
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, sep, number = item.partition("=")
        name = name.strip()
        if not sep:
            raise CountError(f"bad tag {shown(item)}: expected RANK=INTEGER, e.g. 5=1 or 9=-2")
        card = Card.parse(name)
        key = None if card.suit is not None else key_of(card)
        if key not in tags:
            raise CountError(f"bad tag {shown(item)}: tag one of {', '.join(keys)}")
        if key in named:
            raise CountError(f"bad tag {shown(item)}: {key} is tagged twice "
                             f"({shown(named[key])} too)")
        named[key] = item
        tags[key] = parse_integer(number, "tag", f"tag {shown(item)}: value",
                                  CountInputError)
    if not named:  # "," would silently be the all-zero count
        raise CountError(f"--tags {shown(text)} names no card to tag, e.g. 5=1,9=-2")
    return tags


def break_even_true_count(base: Fraction, tags: Mapping[str, int],
                          effects: Mapping[str, Fraction], decks: int,
                          weights: Mapping[str, int] = RANK_WEIGHTS) -> float:
    """True count at which the linear estimate of the edge crosses zero.

    Linearised, removing cards ``R`` from a ``decks``-deck shoe that has ``d`` decks unseen
    changes the value by about ``(decks/d) * sum(EOR)``; with tags ``t = s * EOR`` on average
    (``s`` the least-squares scale over the cards of a deck, ``weights``) that is
    ``decks * TC / s``. Zero when ``TC = -base*s/decks``.
    """
    ws = _reduced(weights)
    pairs = list(zip(ws, weights, strict=True))
    numerator = sum(w * tags.get(k, 0) * float(effects.get(k, 0)) for w, k in pairs)
    denominator = sum(w * float(effects.get(k, 0)) ** 2 for w, k in pairs)
    if numerator <= 0 or denominator == 0:
        return math.inf
    scale = numerator / denominator
    return -float(base) * scale / decks
