"""The generic walkers of a round with decisions (exact.engines.decisions): the sequence form
against a plain tree walk, templates against no templates, and the fixed-strategy deal against
the sequence form, on a toy game and on 21st Century Baccarat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.core.cards import VALUE_VIEW, Label, Shoe
from exact.core.enumerator import Draw, State, enumerate_rounds
from exact.engines import decisions
from exact.engines.decisions import decision_table
from exact.engines.fixed_strategy import StrategyDeal, choices
from exact.engines.strategy_games import (
    SequenceForm,
    best_response,
    evaluate,
    pure,
    zero_sum_equilibrium,
)
from exact.errors import StrategyError
from exact.games.century21.game import DEFAULT_RULES, OVER, Century21Round, game_table
from exact.model.strategy_game import Action, Decision, InfoSet, Step


@dataclass(frozen=True)
class HighCard:
    """A toy poker: each side gets one card (values); side 0 bets or checks; a bet is
    called or folded by side 1, who sees its own card only; then a third card, dealt after
    the decisions, decides a tie between equal values. Sets are (side, own value)."""

    round_cards: int = 3
    accepts_jokers: bool = False
    keyed: bool = True  # give future keys (templates) or not

    def start(self) -> State:
        return ((), ())

    def step(self, state: State) -> Step:
        cards, actions = state
        if len(cards) < 2:
            return Draw(VALUE_VIEW, 1)
        if not actions:
            return Decision(0, (0, cards[0]), ("bet", "check"))
        if actions == ("bet",):
            return Decision(1, (1, cards[1]), ("call", "fold"))
        if cards[0] == cards[1] and len(cards) == 2 and actions != ("bet", "fold"):
            return Draw(VALUE_VIEW, 1)
        return None

    def advance(self, state: State, labels: tuple[Label, ...]) -> State:
        cards, actions = state
        return ((*cards, *(label.value for label in labels)), actions)

    def act(self, state: State, action: Action) -> State:
        cards, actions = state
        return (cards, (*actions, action))

    def record(self, state: State) -> tuple[tuple[int, ...], tuple[str, ...]]:
        return state  # type: ignore[no-any-return]

    def outcome(self, state: State) -> Hashable:
        cards, actions = state
        if actions == ("bet", "fold"):
            return 1
        stake = 2 if actions == ("bet", "call") else 1
        first, second = cards[0], cards[1]
        if first == second:
            first, second = cards[2] % 2, 1 - cards[2] % 2  # the tie-break card: odd wins
        return stake if first > second else -stake if first < second else 0

    def future(self, state: State) -> Hashable | None:
        cards, actions = state
        return (cards, actions) if self.keyed and len(cards) == 2 and actions else None

    def fallback(self, decision: Decision) -> Action:
        return decision.actions[-1]


def _pays(outcome: Hashable) -> tuple[Fraction, Fraction]:
    return Fraction(outcome), -Fraction(outcome)  # type: ignore[arg-type]


def _brute_force(game: HighCard, cards: list[int]) -> dict:
    """Sequence pair -> outcome -> count over every ordered triple of physical cards."""
    out: dict = {}
    for dealt in permutations(cards, 3):
        def walk(state, sequences, used, dealt=dealt):
            step = game.step(state)
            if step is None:
                entry = out.setdefault(sequences, Counter())
                entry[game.outcome(state)] += 1  # every round is weighed over 3 cards
                return
            if isinstance(step, Decision):
                for action in step.actions:
                    seq = list(sequences)
                    seq[step.actor] = (*seq[step.actor], (step.infoset, action))
                    walk(game.act(state, action), tuple(seq), used, dealt)
                return
            label = next(lb for lb in VALUE_VIEW.labels if lb.value == dealt[used])
            walk(game.advance(state, (label,)), sequences, used + 1, dealt)
        walk(game.start(), ((), ()), 0)
    return {k: dict(v) for k, v in out.items()}


SMALL = "A:2,2:1,3:2,K:1"  # values 1, 1, 2, 3, 3, 0


def _values(shoe_text: str) -> list[int]:
    values = {"A": 1, "2": 2, "3": 3, "K": 0}
    return [values[name] for part in shoe_text.split(",")
            for name, count in [part.split(":")] for _ in range(int(count))]


@pytest.mark.parametrize("keyed", [True, False])
def test_the_sequence_form_counts_every_card_sequence_of_a_plain_tree_walk(keyed) -> None:
    game = HighCard(keyed=keyed)
    table = decision_table(game, Shoe.parse(SMALL))
    assert table.total == 6 * 5 * 4
    expected = _brute_force(game, _values(SMALL))
    # the brute force lists zero counts never: nor does the walk
    assert table.entries == expected
    assert table.sets[0] == {(0, v): ("bet", "check") for v in (0, 1, 2, 3)}
    assert table.parents[1] == {(1, v): () for v in (0, 1, 2, 3)}


@pytest.mark.parametrize("keyed", [True, False])
def test_with_replacement_the_walk_counts_every_sequence_of_the_shoe_s_proportions(keyed
                                                                                   ) -> None:
    """With replacement every card comes from the whole shoe: the N**3 sequences of the
    brute force (each card any of the shoe's), with templates and without."""
    game = HighCard(keyed=keyed)
    table = decision_table(game, Shoe.parse(SMALL), replacement=True)
    assert table.total == 6**3
    out: dict = {}
    for dealt in product(_values(SMALL), repeat=3):
        for sequences, outcome in _played(game, dealt):
            entry = out.setdefault(sequences, Counter())
            entry[outcome] += 1
    assert table.entries == {k: dict(v) for k, v in out.items()}


def _played(game: HighCard, dealt: tuple[int, ...]) -> list:
    """(sequence pair, outcome) of every way the sides may play the cards ``dealt``."""
    found = []

    def walk(state, sequences, used):
        step = game.step(state)
        if step is None:
            found.append((sequences, game.outcome(state)))
            return
        if isinstance(step, Decision):
            for action in step.actions:
                seq = list(sequences)
                seq[step.actor] = (*seq[step.actor], (step.infoset, action))
                walk(game.act(state, action), tuple(seq), used)
            return
        label = next(lb for lb in VALUE_VIEW.labels if lb.value == dealt[used])
        walk(game.advance(state, (label,)), sequences, used + 1)

    walk(game.start(), ((), ()), 0)
    return found


def test_templates_give_the_walk_without_templates() -> None:
    shoe = Shoe.parse("A:3,2:2,3:3,K:2")
    assert decision_table(HighCard(), shoe) == decision_table(HighCard(keyed=False), shoe)


@dataclass(frozen=True)
class Thirds(HighCard):
    """A toy whose rests differ only in the names of their sets: side 0 sees a card and says
    high or low; side 1, seeing that card, the word and the parity of a second card, calls or
    folds; the pay reads the first card modulo 3 only. The rest after the word is keyed by
    the first card and the word; :class:`SharedThirds` gives its shape (the first card
    modulo 3 and the word), side 1's sets named by the first card. It deals and acts as
    :class:`HighCard` does."""

    round_cards: int = 2

    def step(self, state: State) -> Step:
        cards, actions = state
        if len(cards) == min(len(actions), 1):  # the first card, and the second after the word
            return Draw(VALUE_VIEW, 1)
        if not actions:
            return Decision(0, (0, cards[0] % 2), ("high", "low"))
        if len(actions) == 1:
            return Decision(1, (1, cards[0], actions[0], cards[1] % 2), ("call", "fold"))
        return None

    def outcome(self, state: State) -> Hashable:
        cards, actions = state
        if actions[1] == "fold":
            return 1
        return 2 if ((cards[0] % 3 + cards[1]) % 3 == 2) == (actions[0] == "high") else -2

    def future(self, state: State) -> Hashable | None:
        cards, actions = state
        return (cards[0], actions[0]) if len(cards) == 1 and actions else None


@dataclass(frozen=True)
class SharedThirds(Thirds):
    joins: bool = False  # rename badly: side 1's sets lose the parity (two sets made one)

    def rest_shape(self, state: State) -> tuple[Hashable, Hashable]:
        cards, actions = state
        return (cards[0] % 3, actions[0]), cards[0]

    def renamed(self, infoset: InfoSet, names: Hashable) -> InfoSet:
        if infoset[0] != 1:  # type: ignore[index]
            return infoset
        return (1, names, *infoset[2:3 if self.joins else 4])  # type: ignore[index]


@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("shoe_text", [SMALL, "A:1,2:3,3:1,K:2"])
def test_rests_of_one_shape_built_once_and_renamed_give_the_rests_built_apart(
        monkeypatch, shoe_text, replacement) -> None:
    """The toy's rests after the first card 0 and 3 (one shape) built once and renamed: the
    same table, in the same order, as each rest built apart and as the brute force; fewer
    rests built."""
    shoe = Shoe.parse(shoe_text)
    built: list[object] = []
    original = decisions._Walk.built

    def counted(walk: decisions._Walk, state: State, view: object) -> object:
        built.append(state)
        return original(walk, state, view)  # type: ignore[arg-type]

    monkeypatch.setattr(decisions._Walk, "built", counted)
    shared = decision_table(SharedThirds(), shoe, replacement)
    shared_built, built[:] = len(built), []
    apart = decision_table(Thirds(), shoe, replacement)
    assert shared_built < len(built)
    assert list(shared.entries.items()) == list(apart.entries.items())
    assert [list(s.items()) for s in shared.sets] == [list(s.items()) for s in apart.sets]
    assert shared == apart
    brute: dict = {}
    dealt_all = product(_values(shoe_text), repeat=2) if replacement else permutations(
        _values(shoe_text), 2)
    for dealt in dealt_all:
        for sequences, outcome in _played(Thirds(), dealt):  # type: ignore[arg-type]
            entry = brute.setdefault(sequences, Counter())
            entry[outcome] += 1
    assert shared.entries == {k: dict(v) for k, v in brute.items()}
    monkeypatch.setattr(decisions, "_SHARE", False)
    assert decision_table(SharedThirds(), shoe, replacement) == shared


def _in_order(table: decisions.DecisionTable) -> tuple:
    """Everything of a table with the order of every mapping it holds."""
    return (table.total, [list(s.items()) for s in table.sets],
            [list(p.items()) for p in table.parents],
            [(pair, list(entry.items())) for pair, entry in table.entries.items()],
            table.outcomes)


@pytest.mark.parametrize("game", [HighCard(), Thirds(), SharedThirds(),
                                  Century21Round(DEFAULT_RULES),
                                  Century21Round(DEFAULT_RULES.replace(
                                      third_cards_face_up=True), "cards")],
                         ids=["high-card", "thirds", "shared-thirds", "century21",
                              "century21-face-up"])
@pytest.mark.parametrize("shoe_text", [SMALL, "A:1,2:3,3:1,K:2", "A:2,2:2,5:3,9:3,T:5,X:2"])
def test_with_replacement_templates_summed_once_give_each_weighing_summed(
        monkeypatch, game, shoe_text) -> None:
    """With replacement each template is summed once and its weighings after the same
    sequences added up before they are entered: the table of every weighing summed and
    entered as it comes, entries, outcomes and sets in the same order."""
    shoe = Shoe.parse(shoe_text)
    if not game.accepts_jokers and "X" in shoe_text:
        shoe = Shoe.parse(shoe_text.replace(",X:2", ""))
    once = decision_table(game, shoe, replacement=True)
    monkeypatch.setattr(decisions, "_CONSTANT", False)
    each = decision_table(game, shoe, replacement=True)
    assert _in_order(once) == _in_order(each)
    # and against the one-by-one weighings of the walk without replacement's batches
    monkeypatch.setattr(decisions, "_BATCH", False)
    assert _in_order(decision_table(game, shoe, replacement=True)) == _in_order(once)


def test_a_renaming_that_joins_two_sets_is_refused() -> None:
    with pytest.raises(StrategyError, match="one-to-one"):
        decision_table(SharedThirds(joins=True), Shoe.parse(SMALL))


def test_the_solvers_read_the_walk_and_the_fixed_deal_deals_their_strategies() -> None:
    game, shoe = HighCard(), Shoe.parse(SMALL)
    table = decision_table(game, shoe)
    form = SequenceForm(table.total, table.sets, table.parents, table.leaves(_pays))
    found = zero_sum_equilibrium(form)
    assert found.verified
    first = best_response(form, 0, pure(form, 1, lambda h, a: a[0]))
    second = pure(form, 1, lambda h, a: a[0])
    value = evaluate(form, first, second)[0]
    deal = StrategyDeal(game, (choices(first), choices(second)))
    rounds = enumerate_rounds(deal, shoe)
    assert sum(Fraction(game.outcome(r)) * c  # type: ignore[arg-type]
               for r, c in rounds.counts.items()) / rounds.total == value


def test_a_mixed_strategy_is_no_deal_and_bad_games_are_refused() -> None:
    with pytest.raises(StrategyError, match="pure strategies"):
        choices({"h": {"a": Fraction(1, 2), "b": Fraction(1, 2)}})

    @dataclass(frozen=True)
    class ThreeSides(HighCard):
        def step(self, state: State) -> Step:
            found = super().step(state)
            return Decision(2, "x", ("a", "b")) if isinstance(found, Decision) else found

    with pytest.raises(StrategyError, match="two sides"):
        decision_table(ThreeSides(), Shoe.parse(SMALL))

    @dataclass(frozen=True)
    class Forgetful(HighCard):
        """Side 0 decides again after side 1's call, without remembering its bet."""

        def step(self, state: State) -> Step:
            if state[1] in (("check",), ("bet", "call")):
                return Decision(0, "again", ("yes", "no"))
            return super().step(state)

        def act(self, state: State, action: Action) -> State:
            cards, actions = state
            return (cards, (*actions, action)) if action not in ("yes", "no") else (
                cards, (*actions, "done"))

    with pytest.raises(StrategyError, match="no perfect recall"):
        decision_table(Forgetful(), Shoe.parse(SMALL))


def _century21_tables(shoe: Shoe, face_up: bool, mode: str) -> tuple:
    rules = DEFAULT_RULES.replace(third_cards_face_up=face_up)
    game = Century21Round(rules, mode)  # type: ignore[arg-type]

    @dataclass(frozen=True)
    class Unkeyed(Century21Round):
        def future(self, state: State) -> None:
            return None

    plain = Unkeyed(rules, mode)  # type: ignore[arg-type]
    return game, decision_table(game, shoe), plain, decision_table(plain, shoe)


@settings(max_examples=10, deadline=None)
@given(counts=st.lists(st.integers(0, 2), min_size=11, max_size=11).filter(
    lambda c: 6 <= sum(c) <= 9), face_up=st.booleans(), mode=st.sampled_from(["total", "cards"]))
def test_century21_templates_give_the_plain_walk(counts, face_up, mode) -> None:
    names = ["K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "X"]
    shoe = Shoe.parse(",".join(f"{n}:{c}" for n, c in zip(names, counts, strict=True)))
    game, keyed, plain, unkeyed = _century21_tables(shoe, face_up, mode)
    assert keyed.sets == unkeyed.sets and keyed.parents == unkeyed.parents
    named = ({pair: {game.outcomes[o]: c for o, c in e.items()}
              for pair, e in keyed.entries.items()})
    assert named == {pair: {plain.outcomes[o]: c for o, c in e.items()}
                     for pair, e in unkeyed.entries.items()}


@pytest.mark.parametrize("shoe", [Shoe.parse("A:2,2:2,5:3,9:3,T:5,X:2"),
                                  Shoe.standard(1, jokers=2)])  # eleven classes: matrices
def test_century21_int64_sums_and_python_integers_agree(monkeypatch, shoe) -> None:
    fast = decision_table(Century21Round(DEFAULT_RULES), shoe)
    monkeypatch.setattr(decisions, "_INT64_SAFE", 0)
    exact = decision_table(Century21Round(DEFAULT_RULES), shoe)
    assert exact == fast


@pytest.mark.parametrize("face_up", [False, True])
def test_century21_one_card_templates_summed_directly_give_the_path_weights(
        monkeypatch, face_up) -> None:
    rules = DEFAULT_RULES.replace(third_cards_face_up=face_up)
    for shoe in (Shoe.parse("A:2,2:2,5:3,9:3,T:5,X:2"), Shoe.standard(8, jokers=8)):
        fast = decision_table(Century21Round(rules), shoe)
        monkeypatch.setattr(decisions, "_SINGLES", False)
        slow = decision_table(Century21Round(rules), shoe)
        monkeypatch.setattr(decisions, "_SINGLES", True)
        assert fast == slow
        # a one-card rest summed and entered in one pass writes in the walk's order
        assert list(fast.entries) == list(slow.entries) and fast.outcomes == slow.outcomes


@pytest.mark.parametrize("face_up", [False, True])
@pytest.mark.parametrize("mode", ["total", "cards"])
def test_century21_batched_weighings_give_the_one_by_one_sums(monkeypatch, face_up,
                                                               mode) -> None:
    """Weighings summed per template in one product (and flushed in small chunks) against
    each summed alone: the same counts, and the entries and outcomes in the same order."""
    rules = DEFAULT_RULES.replace(third_cards_face_up=face_up)
    for shoe in (Shoe.parse("A:2,2:2,5:3,9:3,T:5,X:2"), Shoe.standard(2, jokers=2)):
        batched = decision_table(Century21Round(rules, mode), shoe)
        monkeypatch.setattr(decisions, "_PENDING_CELLS", 500)
        chunked = decision_table(Century21Round(rules, mode), shoe)
        monkeypatch.setattr(decisions, "_BATCH", False)
        alone = decision_table(Century21Round(rules, mode), shoe)
        monkeypatch.undo()
        for table in (batched, chunked):
            assert table == alone
            assert list(table.entries) == list(alone.entries)
            assert [list(e) for e in table.entries.values()] == \
                [list(e) for e in alone.entries.values()]
            assert table.outcomes == alone.outcomes


@settings(max_examples=200, deadline=None)
@given(first=st.lists(st.integers(0, 4), max_size=3), second=st.lists(st.integers(0, 4),
                                                                       max_size=3),
       counts=st.lists(st.integers(0, 5), min_size=5, max_size=5))
def test_a_joined_path_weighs_as_the_path_drawn_in_order(first, second, counts) -> None:
    """The spliced path by class (decisions._joined) against the cards drawn one by one in
    their order, each taken from what the ones before left."""
    def in_order(classes: list[int]) -> tuple[tuple[int, int], ...]:
        return tuple((c, classes[:k].count(c)) for k, c in enumerate(classes))

    def drawn(classes: list[int]) -> int:
        left, weight = list(counts), 1
        for c in classes:
            weight *= max(left[c], 0)
            left[c] -= 1
        return weight

    joined = decisions._joined(in_order(first), in_order(second))
    assert sorted(c for c, _b in joined) == sorted(first + second)
    assert decisions._weight(joined, counts) == drawn(first + second)
    assert joined == decisions._joined(in_order(second), in_order(first))


@pytest.mark.parametrize("face_up", [False, True])
def test_century21_one_card_draws_inline_give_the_dealt_groups(monkeypatch, face_up) -> None:
    """The walk's one-card draws dealt inline against core.enumerator.dealt_groups: the same
    table, entries in the same order."""
    rules = DEFAULT_RULES.replace(third_cards_face_up=face_up)
    for shoe in (Shoe.parse("A:2,2:2,5:3,9:3,T:5,X:2"), Shoe.standard(1, jokers=2)):
        inline = decision_table(Century21Round(rules, "cards"), shoe)
        monkeypatch.setattr(decisions, "_ONE_CARD", False)
        grouped = decision_table(Century21Round(rules, "cards"), shoe)
        monkeypatch.undo()
        assert inline == grouped and list(inline.entries) == list(grouped.entries)
        assert inline.outcomes == grouped.outcomes


@pytest.mark.parametrize("face_up", [False, True])
@pytest.mark.parametrize("mode", ["total", "cards"])
def test_century21_decisions_looked_up_are_the_ones_made(face_up, mode) -> None:
    """Century21Round.step keys its decisions by what they read: at every decision node of
    every card sequence (values 0, 1, 5, 9 and the joker), the one looked up is the one
    made from the whole state."""
    game = Century21Round(DEFAULT_RULES.replace(third_cards_face_up=face_up), mode)
    labels = [label for label in VALUE_VIEW.labels if label.value in (0, 1, 5, 9, None)]
    met = 0

    def visit(state: State) -> None:
        nonlocal met
        step = game.step(state)
        if isinstance(step, Decision):
            assert step == game._decision(state)
            met += 1
            for action in step.actions:
                visit(game.act(state, action))
        elif step is not None:
            for group in product(range(len(labels)), repeat=step.count):
                visit(game.advance(state, tuple(labels[i] for i in sorted(group))))

    visit(game.start())
    assert met > 1000


def test_century21_fixed_deal_is_the_table_under_every_pure_pair() -> None:
    shoe = Shoe.parse("A:2,5:2,6:2,9:1,K:2,X:2")
    table = game_table(DEFAULT_RULES, shoe)
    player, dealer = table.house_way()
    round_ = Century21Round(DEFAULT_RULES)
    for first, second in product((player, table.player_best_response(dealer)),
                                 (dealer, table.dealer_best_response(player))):
        rounds = enumerate_rounds(StrategyDeal(round_, (choices(first), choices(second))), shoe)
        pays = [round_.outcomes[round_.outcome((r[0], r[1], OVER, r[2], False, False))][1] * c
                for r, c in rounds.counts.items()]
        assert sum(pays) / rounds.total == table.value(first, second)


def test_the_example_of_the_decisions_page_runs() -> None:
    """docs/explanation/decisions.md's example is what the full-table work starts from."""
    import re
    from pathlib import Path

    page = Path(__file__).parents[2] / "docs" / "explanation" / "decisions.md"
    code = "\n".join(re.findall(r"```python\n(.*?)```", page.read_text(), re.S))
    namespace: dict = {}
    exec(compile(code, str(page), "exec"), namespace)  # our own page
    assert namespace["found"].verified
    assert namespace["rounds"].total == 52 * 51
