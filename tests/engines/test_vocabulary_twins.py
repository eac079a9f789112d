"""Every engine against the card-by-card twin, on bets generated from the feature vocabulary.

The bets come from tests/support/vocabulary.py: comparisons of the features a game publishes
(counts, cards by position, colours, suits, ranks, totals, winners) with the values they take
or with each other, joined with and, or and not; the shoes are small and odd (a few ranks of
a few suits, missing cards, one suit only). The twin (exact.games.baccarat.reference.brute_force)
deals every ordered sequence of physical cards and reads each feature off the cards by hand;
its counts are exact integers, compared exactly with:

* one shoe: every engine ``--engine`` offers (:func:`~exact.engines.plan.command_engines`),
  each run by ``analyze`` as the command runs it; an engine that refuses a bet is recorded,
  not failed, but ``auto`` must serve every bet;
* batches of shoes: the batch evaluator behind ``eor``, ``simulate`` and ``edge``
  (:class:`~exact.engines.batch.BetEvaluator`), counts and exact expected values;
* known positions: ``edge --known`` (:func:`~exact.engines.live.next_round`), the twin with the
  same cards forced at the same positions;
* effects of removal: ``eor`` (:func:`~exact.analysis.removal.effects_of_removal`), against
  the twin's expected values of the shoe and of the shoe less one card.

Then :func:`test_no_generated_bet_is_refused_on_one_to_eight_decks` lists the generated bets
no engine serves on full shoes (planned, the factorised engine's pattern bound, which refuses
before any walk, and class-by-class counting's bounds checked as it compiles): none may be.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exact.analysis.bet_analysis import analyze
from exact.analysis.removal import effects_of_removal
from exact.core import work
from exact.core.cards import CARDS, Card, Shoe
from exact.core.enumerator import falling
from exact.engines import classes
from exact.engines.batch import BetEvaluator
from exact.engines.batch_numbers import counts_matrix
from exact.engines.live import next_round
from exact.engines.plan import AUTO, choose, command_engines
from exact.errors import EngineError, ExactError, TooFine
from exact.games import get_game
from exact.games.baccarat.reference import FEATURES, brute_force
from exact.games.nine_and_nines.reference import NINE_READERS
from exact.model.bets import Bet, load_bets
from exact.model.game import Game

from tests.support.shoes import card_shoes, pool_shoes
from tests.support.vocabulary import bet_text, bets

GAME = get_game("punto-banco")
ENGINES = tuple(name for name in command_engines() if name != AUTO)
# What each scope refused, by engine: (engine, bet's conditions, reason). Refusals are not
# failures (the staged evaluator serves no bet on the third cards, say): kept for a look in
# a debugger or a session; the refusals that matter, on full shoes, are listed by
# test_no_generated_bet_is_refused_on_one_to_eight_decks.
REFUSED: list[tuple[str, tuple[str, ...], str]] = []

# Small, odd shoes: a few ranks of one or two suits (many repeats of a class), or a handful of
# any cards; 6-9 cards, so that the twin walks at most 60,480 ordered deals.
FEW_RANKS = [rank * 4 + suit for rank in (0, 4, 8, 9, 12) for suit in (0, 2)]
shoes = st.one_of(card_shoes(copies=2, kinds=(3, 6), largest=9),
                  pool_shoes(FEW_RANKS, largest=9))
generated = bets(GAME.features)
# The twin walks every ordered deal in Python and the engines compile each new bet: a few
# dozen bets per test keeps the file within a minute on two cores.
SETTINGS = settings(max_examples=10, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def conditions(bet: Bet) -> tuple[str, ...]:
    return tuple(event.condition.text for event in bet.events if event.condition is not None)


def written_bet(texts: Sequence[str], bet_id: str) -> Bet:
    """The bet of the conditions ``texts`` in order, paying 10, 9, ... (its id ``bet_id``)."""
    bet, = load_bets(f"{bet_id}.toml", GAME.features, text=bet_text(
        [(text, 10 - n) for n, text in enumerate(texts)], bet_id))
    return bet


def twin_counts(bet: Bet, shoe: Shoe, known: dict | None = None,
                readers: dict = FEATURES) -> list[int]:
    """The bet's event counts read off the twin's ordered deals of physical cards."""
    names = sorted(bet.features)
    counts = [0] * len(bet.events)
    for values, count in brute_force(shoe, names, known=known, features=readers).items():
        counts[bet.settle(dict(zip(names, values, strict=True)))] += count
    return counts


def expected_value(bet: Bet, counts: list[int]) -> Fraction:
    return sum((Fraction(count) * event.pays for count, event in zip(counts, bet.events,
                                                                      strict=True)),
               Fraction(0)) / sum(counts)


def slow_walk(bet: Bet, engine: str, game: Game = GAME) -> bool:
    """Whether ``engine`` would count ``bet`` by the compiled walk of ranks or suits with the
    third cards: shoe-independent, it walks every class of a deck (seconds to a minute a bet),
    which :func:`test_the_compiled_walk_of_ranks_with_third_cards_counts_as_the_twin` checks
    on a few bets, marked slow."""
    if engine != "compiled":
        return False
    try:
        return "third cards" in choose(game, bet, "shoe", engine).reason
    except EngineError:
        return False


def check_engines(bet: Bet, shoe: Shoe, engines: tuple[str, ...], game: Game = GAME,
                  readers: dict = FEATURES) -> list[str]:
    """Run ``bet`` of ``game`` on ``shoe`` by each of ``engines`` as ``analyze --engine``
    does; every count must be the twin's (reading the features with ``readers``); the
    engines that served it."""
    expected = twin_counts(bet, shoe, readers=readers)
    assert sum(expected) == falling(shoe.size, 6)
    served = []
    for engine in engines:
        try:
            counts = list(analyze(game, shoe, [bet], engine=engine).bets[bet.id].counts)
        except EngineError as error:
            assert engine != AUTO, f"no engine serves {conditions(bet)}: {error}"
            # refused by name, never silently counted by another engine
            assert str(error).startswith(f"engine {engine} cannot serve bet {bet.id}: ")
            REFUSED.append((engine, conditions(bet), str(error)))
            continue
        assert counts == expected, (engine, conditions(bet), shoe.describe())
        served.append(engine)
    return served


@SETTINGS
@given(generated, shoes)
def test_every_engine_that_serves_a_generated_bet_counts_as_the_twin(bet, shoe):
    engines = tuple(name for name in ENGINES if not slow_walk(bet, name))
    assert len(check_engines(bet, shoe, (AUTO, *engines))) >= 2  # auto, and its choice


# The bets of issue 30, written as a new user writes them with `exact features punto-banco`.
ISSUE_BETS = {
    "four-hearts": ["dealt_hearts >= 4"],
    "all-hearts": ["player_hearts == player_cards and banker_hearts == banker_cards"],
    "one-colour-hands-tie": ["winner == 'tie' and player_reds in (0, player_cards) and "
                             "banker_reds in (0, banker_cards)", "winner == 'tie'"],
    "super-tie-colours": ["winner == 'tie' and player_card3_colour != None and "
                          "player_card3_colour == banker_card3_colour", "winner == 'tie'"],
    "third-card-nine-of-spades": ["player_card3_rank == '9' and player_card3_suit == 'S'"],
}
# hearts and another suit of a few ranks, ties and third cards possible; a shoe of one suit
ISSUE_SHOES = (Shoe.from_counts({"9H": 2, "9S": 1, "KH": 2, "4H": 1, "4C": 1, "5D": 1, "AH": 1}),
               Shoe.from_counts({"3H": 2, "6H": 1, "TH": 2, "9H": 1, "2H": 1, "7H": 1}))


@pytest.mark.parametrize("bet_id", sorted(ISSUE_BETS))
def test_the_bets_of_issue_30_count_as_the_twin(bet_id):
    """Four hearts dealt, every card a heart, a tie with one-colour hands, Super Tie's
    colours with the third cards, the Player's third card the nine of spades: every engine
    that serves them, on one shoe, a batch and with a card known."""
    bet = written_bet(ISSUE_BETS[bet_id], bet_id)
    engines = tuple(name for name in ENGINES if not slow_walk(bet, name))
    for shoe in ISSUE_SHOES:
        check_engines(bet, shoe, (AUTO, *engines))
    batch = [ISSUE_SHOES[1], ISSUE_SHOES[1].remove(["TH"])]
    counts = BetEvaluator(GAME, [bet]).counts(batch)[bet.id]
    assert [[int(c) for c in row] for row in counts] == [twin_counts(bet, s) for s in batch]
    known = {5: CARDS[CARDS.index(Card("9", "S"))]}
    assert list(next_round(GAME, ISSUE_SHOES[0], [bet], known=known)[bet.id].counts) == \
        twin_counts(bet, ISSUE_SHOES[0], known)


NINE = get_game("nine-and-nines")
NINE_TWIN = {**FEATURES, **NINE_READERS}


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(bets(NINE.features), shoes)
def test_nine_and_nines_vocabulary_counts_as_the_twin(bet, shoe):
    """NINE & NINES deals Punto Banco's rounds and reads them with Punto Banco's features and
    its own (two-card nines, the first two cards as an order-free pair, suited nines): a bet
    in that vocabulary counts as the twin, by every engine that serves it."""
    engines = tuple(name for name in ENGINES if not slow_walk(bet, name, NINE))
    assert len(check_engines(bet, shoe, (AUTO, *engines), NINE, NINE_TWIN)) >= 2


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(generated.filter(lambda bet: slow_walk(bet, "compiled")), shoes)
def test_the_compiled_walk_of_ranks_with_third_cards_counts_as_the_twin(bet, shoe):
    assert check_engines(bet, shoe, ("compiled",)) == ["compiled"]


@st.composite
def batches(draw) -> list[Shoe]:
    """A shoe and the same shoe less one or two of its cards, as ``eor`` and ``simulate``
    batch them (all in one batch: at most 16 distinct cards, which the factorised engine
    compiles for alone; more cards compile for a whole deck, seconds a bet)."""
    shoe = draw(shoes.filter(lambda shoe: shoe.size >= 8))
    cards = [CARDS[i] for i, count in enumerate(shoe.counts) for _ in range(count)]
    picked = draw(st.lists(st.integers(0, len(cards) - 1), min_size=1, max_size=2, unique=True))
    taken = [cards[i] for i in picked]  # one or two physical cards of the shoe
    return [shoe, shoe.remove(taken[:1]), shoe.remove(taken)]


@SETTINGS
@given(generated, batches())
def test_batches_of_shoes_count_as_the_twin(bet, batch):
    try:
        evaluator = BetEvaluator(GAME, [bet])
    except EngineError as error:  # (BatchError derives from it too)
        REFUSED.append(("batch", conditions(bet), str(error)))
        pytest.skip("the batch evaluator serves no engine for this bet")
    counts = evaluator.counts(batch)[bet.id]
    values = evaluator.expected_values(batch)[bet.id]
    for row, value, shoe in zip(counts, values, batch, strict=True):
        expected = twin_counts(bet, shoe)
        assert [int(c) for c in row] == expected, (conditions(bet), shoe.describe())
        assert value == expected_value(bet, expected)


@st.composite
def known_cards(draw, shoe: Shoe) -> dict:
    """One or two positions of the round (1-6) and cards of ``shoe`` known there."""
    cards = [CARDS[i] for i, count in enumerate(shoe.counts) for _ in range(count)]
    positions = draw(st.lists(st.integers(1, 6), min_size=1, max_size=2, unique=True))
    chosen = draw(st.permutations(range(len(cards))))[:len(positions)]
    return {position: cards[i] for position, i in zip(positions, chosen, strict=True)}


@SETTINGS
@given(generated, shoes.flatmap(lambda shoe: st.tuples(st.just(shoe), known_cards(shoe))))
def test_known_positions_count_as_the_twin_with_the_same_cards_forced(bet, shoe_and_known):
    shoe, known = shoe_and_known
    result = next_round(GAME, shoe, [bet], known=known)[bet.id]
    expected = twin_counts(bet, shoe, known)
    assert result.total == sum(expected) == falling(shoe.size - len(known), 6 - len(known))
    assert list(result.counts) == expected, (conditions(bet), shoe.describe(), known)


@SETTINGS
@given(generated, shoes.filter(lambda shoe: shoe.size >= 7))
def test_effects_of_removal_are_the_twins_differences(bet, shoe):
    try:
        table = effects_of_removal(GAME, shoe, [bet])
    except EngineError as error:
        REFUSED.append(("eor", conditions(bet), str(error)))
        pytest.skip("the batch evaluator serves no engine for this bet")
    base = expected_value(bet, twin_counts(bet, shoe))
    assert table.base[bet.id] == base
    # two ranks (each a walk of the twin): the table holds every rank the shoe has
    for rank in sorted(table.effects[bet.id])[:2]:
        less = expected_value(bet, twin_counts(bet, shoe.remove([rank])))
        assert table.effects[bet.id][rank] == less - base, (conditions(bet), rank)


# --- refusals on full shoes ---------------------------------------------------------------------
def refusal(bet: Bet, scope: str, shoe: Shoe) -> str | None:
    """Why ``bet`` is refused on ``shoe`` in ``scope``, or None: the plan's refusal, or the
    factorised engine's, which it makes before any walk (its pattern bound, its counted
    patterns against the work bound)."""
    try:
        choice = choose(GAME, bet, scope)  # type: ignore[arg-type]
    except EngineError as error:
        return str(error)
    if choice.engine != "factorised":
        return None
    from exact.engines import factorised

    patterns = pattern_count(bet, present(shoe))
    if patterns > factorised.PATTERN_LIMIT:
        return f"{patterns:,} patterns of card classes (at most {factorised.PATTERN_LIMIT:,})"
    try:
        work.check(factorised.counted_work(GAME, [bet], shoe), "the bet")
    except ExactError as error:
        return str(error)
    return None


@cache
def pattern_count(bet: Bet, cards: frozenset) -> int:
    """The factorised engine's patterns of ``bet`` over ``cards`` (counted without a walk, or
    by the value walk for a bet on the third cards: seconds at a full deck): one count for
    both scopes, which compile the same form."""
    from exact.engines import factorised

    return factorised.FactorisedBet(GAME, (bet,), cards, compile=False).patterns(GAME)


def present(shoe: Shoe) -> frozenset:
    return frozenset(CARDS[i] for i, count in enumerate(shoe.counts) if count)


# Each refusal probe of a bet on the third cards may count its patterns by a value walk of a
# full deck (2-10 s; a bet classes serves for less than that walk counts none): a dozen bets
# keep the test within its share of the file's time. tests/refusal_sample.py probes more
# (with --run: seeds 7 and 30 none refused, seed 11 6 of 58, one family;
# docs/explanation/attribute-counting.md).
REFUSAL_EXAMPLES = 12


def test_no_generated_bet_is_refused_on_one_to_eight_decks():
    """Every generated bet is served on 1 to 8 decks by ``auto``, on one shoe and in batches:
    the plan refuses none (the factorised engine's pattern bound included). Any refusal fails,
    listed (conditions, scope, reason). Class-by-class counting checks its memory and work
    bounds again as it compiles, once its states are known: :func:`test_no_generated_bet_is_
    refused_as_it_compiles` compiles the same bets (slow), and ``tests/refusal_sample.py
    --run`` more (seeds 7 and 30: none refused; seed 11: 6 of 58 before, one family of bets
    docs/explanation/attribute-counting.md names, served since, measured one by one). A
    full shoe of 1 to 8 decks holds every card of a deck, and the plan, the factorised
    engine's patterns and the compiled forms depend on the cards present and the bet only (not
    on how many of each): one probe per bet and scope answers for every deck count, the shoe of
    8 decks standing for them."""
    found = sampled_bets()
    assert len(found) >= 2
    assert len({present(Shoe.standard(decks)) for decks in range(1, 9)}) == 1
    refused = []
    for bet in found:
        for scope in ("shoe", "batch"):
            reason = refusal(bet, scope, Shoe.standard(8))
            if reason is not None:
                refused.append((conditions(bet), scope, reason))
    assert not refused, "\n".join(f"{c} ({s}): {r}" for c, s, r in refused)


def sampled_bets() -> list[Bet]:
    """The generated bets the refusal tests probe (:data:`REFUSAL_EXAMPLES` examples; the
    same every run: the tests' hypothesis profile is derandomised), each once."""
    found: list[Bet] = []

    @settings(max_examples=REFUSAL_EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(generated)
    def collect(bet):
        found.append(bet)

    collect()
    return list(dict.fromkeys(found))


@pytest.mark.slow
def test_no_generated_bet_is_refused_as_it_compiles():
    """The bets of :func:`test_no_generated_bet_is_refused_on_one_to_eight_decks` that
    class-by-class counting serves, analysed on 8 decks: none is refused as it compiles (its
    memory bound checked once its states are known and as its trie grows, the run's work
    bound as it goes). Seconds to a minute a bet the first time: slow."""
    shoe = Shoe.standard(8)
    refused = []
    for bet in sampled_bets():
        if "classes" in {choose(GAME, bet, scope).engine for scope in ("shoe", "batch")}:
            try:
                analyze(GAME, shoe, [bet])
            except ExactError as error:
                refused.append((conditions(bet), str(error)))
    assert not refused, "\n".join(f"{c}: {r}" for c, r in refused)


# Generated bets that were refused on 8 decks (tests/refusal_sample.py): seed 11's six, two
# third cards' suits compared with six tallies (refused by the work bound as they compiled,
# or served in 86 CPU s), and seed 2's pairs of first cards the bet names (NAMED_PAIRS,
# refused by the plan). docs/explanation/attribute-counting.md, "What is still refused".
_CLUBS = "(dealt_blacks + first_four_clubs <= 5)"
_SUITS = "(banker_card3_suit != player_card3_suit)"
ONCE_REFUSED = [
    *([f"({_SUITS} and (winner == 'banker')) and (not ((dealt_queens >= dealt_jacks) and "
       f"{_CLUBS}))", f"not ((banker_jacks == 2) or ({twos}))"]
      for twos in ("dealt_twos not in (4, 5, 0,)", "dealt_twos != 0")),
    *([f"({_SUITS} and (dealt_twos != 0)) and (not ((dealt_queens >= dealt_jacks) and "
       f"({sums})))", f"not ((banker_jacks == 2) or ({last}))"]
      for sums, last in ((_CLUBS[1:-1], "dealt_twos != 0"), (_CLUBS[1:-1], "banker_twos != 0"),
                         (_CLUBS[1:-1], "banker_jacks != 0"),
                         ("dealt_queens + dealt_jacks <= 5", "banker_jacks != 0"))),
]


def once_refused() -> list[Bet]:
    return [written_bet(texts, f"once{k}")
            for k, texts in enumerate([*ONCE_REFUSED, *NAMED_PAIRS.values()])]


def test_the_generated_bets_once_refused_are_admitted_on_eight_decks():
    """The plan admits each (one shoe and batches, 8 decks standing for 1 to 8: see
    :func:`test_no_generated_bet_is_refused_on_one_to_eight_decks`), by class-by-class
    counting; compiled and run: the slow test below."""
    refused = [(conditions(bet), scope, reason) for bet in once_refused()
               for scope in ("shoe", "batch")
               if (reason := refusal(bet, scope, Shoe.standard(8))) is not None or
               choose(GAME, bet, scope).engine != "classes"]
    assert not refused, refused


@pytest.mark.slow
def test_the_generated_bets_once_refused_are_served_on_eight_decks():
    """Each compiled and run on 8 decks within the run's work bound and the compile's
    memory bound (20 to 90 CPU s a bet the first time: minutes in all)."""
    refused = []
    for bet in once_refused():
        try:
            analyze(GAME, Shoe.standard(8), [bet])
        except ExactError as error:
            refused.append((conditions(bet), str(error)))
    assert not refused, refused


def named_limit(bet: Bet) -> bool:
    """Whether ``bet`` is past the limit the documentation names: the trie of its first cards
    read one by one past class-by-class counting's memory bound, or its states' bound (the
    first cards read one by one by rank or suit) past the work bound (or a feature
    class-by-class counting cannot read)."""
    from exact.core.work import WORK_LIMIT
    from exact.engines.engine import classes_refusal
    from exact.engines.shipped import CLASSES_STATE_UNITS

    if classes_refusal(GAME, bet) is not None:
        return True
    states = classes.estimate(GAME, [bet])
    return states is not None and (
        states * CLASSES_STATE_UNITS > WORK_LIMIT or
        classes.trie_nodes(GAME, [bet]) * classes.NODE_BYTES > classes.MEMORY_LIMIT)


# A bet that meets the limit (four first cards read together by suit, no two of them apart
# from the others, with a tally of jacks and a third card's suit: 2,700 states); a generated
# bet that met it before (two of the four cards compared, 900 states: 252 since the two are
# one dimension), and bets served now: a pair with tallies of the third cards (served before
# too), three first cards by suit with a third card, a generated pair with two cards by suit
# (refused by the states' bound before: 1,169,294 with the whole view at every position,
# 101,150 by what each position's features read; 60 after the reductions, 400,859 nodes, 16
# CPU s and 524 MB on 8 decks), and first cards alone past factorised counting's pattern bound
# (7,311,616 patterns)
SUITS_COMPARED = ["not (not (player_card3_suit in ['D', None, 'S']))",
                  "((player_card1_suit == banker_card2_suit) and (banker_jacks in (0, 3,))) "
                  "and (banker_card1_rank != 'K')"]
LIMIT = [SUITS_COMPARED[0], "({player_card1_suit, banker_card2_suit} == "
         "{banker_card1_suit, player_card2_suit}) and (banker_jacks in (0, 3,))"]
RANKS = "not (not ((dealt_tens != 0) and (player_card2_rank != banker_card2_rank)))"
# the four cards compared read by colour: served (525,848 nodes of 144 states, a peak of 758
# MB measured)
COLOURS = [SUITS_COMPARED[0], SUITS_COMPARED[1].replace("_suit", "_colour")]
SERVED = {
    "colours": COLOURS,
    "pair": ["((first_four_tens + banker_total >= 4) and (player_initial_ranks in "
             "('QK',))) or (not (player_diamonds + player_cards > 3))"],
    "three-first-suits": ["player_card1_suit == banker_card1_suit and banker_card2_suit == 'H' "
                          "and player_card3_suit == 'S'"],
    "pair-and-suits": ["not (not ({player_card2_suit, banker_card2_suit} == {'D', 'D'}))",
                       "not ((banker_initial_ranks == 'A2') or (banker_card3_rank == '5'))"],
    "first-cards-only": ["player_card1_rank == banker_card1_rank and player_card2_suit == 'H' "
                         "and first_four_hearts >= 2"],
    # generated (tests/refusal_sample.py, seed 7), refused before by the states' bound: both
    # hands' first cards read by pairs, with suits by position, colours by position and
    # tallies, or the third cards' suits
    "pairs-and-suits": ["not ((banker_pair in {'perfect', 'mixed'}) or (cards_dealt <= 4))",
                        "not ((player_initial_ranks == '9K') or "
                        "(player_card1_suit == banker_card2_suit))"],
    "pair-colours-tallies": ["not ((banker_card2_colour == player_card2_colour) or "
                             "(banker_pair not in ['mixed', 'perfect', 'none']))",
                             "not ((first_four_hearts + dealt_diamonds >= 4) and "
                             "(banker_card3_colour == 'red'))"],
    "two-pairs-third-suits": ["not ({banker_card3_suit, player_card3_suit} == {'D', 'C'})",
                              "not (not ({player_pair, banker_pair} == {'colored', 'none'}))"],
    # (seed 30) a pair whose first card is kept by its suit, whatever its value
    "suited-tallies": ["not ((player_kings != banker_sevens) or (banker_fours < 3))",
                       "not ({banker_suited, player_natural} == {False, True})"],
    # (seed 30, --run) refused as they compiled, past the memory bound (526,070 nodes of
    # 14,000, 800 and 2,000 states): two second cards' ranks compared, one dimension of the
    # state since (classes_states.Pair.joint: 192, 96 and 240 states)
    "suits-compared": SUITS_COMPARED,
    "ranks-compared-tallies": [RANKS, "not ((first_four_clubs >= banker_reds) or "
                               "(player_jacks < 1))"],
    "ranks-compared-twice": [RANKS, "not ((first_four_clubs >= banker_reds) or "
                             "(player_card2_rank != banker_card2_rank))"],
    "ranks-compared-third-value": ["not ((first_four_clubs >= banker_reds) or "
                                   "(player_card2_rank != banker_card2_rank))",
                                   "not ((first_four_clubs > banker_aces) and "
                                   "(banker_card3_value in (3,)))"],
}


# the pairs of both hands' first cards served since a pair is one dimension of the state, and
# two cards compared by position since they are one too
PAIRS = ("pairs-and-suits", "pair-colours-tallies", "two-pairs-third-suits", "suited-tallies")
JOINED = ("suits-compared", "ranks-compared-tallies", "ranks-compared-twice",
          "ranks-compared-third-value")


def served_bet(name: str) -> Bet:
    return written_bet(SERVED[name], name)


@pytest.mark.slow
def test_the_named_limit_is_what_refuses():
    """The limit is real, met by a bet written in the vocabulary (four first cards read
    together by suit, with a tally of jacks and a third card's suit): the plan admits it,
    class-by-class counting refuses it by name as it compiles, once the slots its trie
    reaches are known (2,700 states on 525,848 nodes: past the run's work bound, the reach
    and one shoe's products, 154 million; before, every node's every state, refused before
    the pieces; past its memory bound while the states' moves were held whole). 45 s of CPU
    (the plan's value walk, then the compile's): slow; the bets served since are checked
    below."""
    bet = written_bet(LIMIT, "positions")
    assert refusal(bet, "shoe", Shoe.standard(8)) is None  # the plan cannot tell
    with pytest.raises(TooFine, match="products of per-class polynomials"):
        classes._compiled(GAME, (bet,), classes.DECK)


def test_the_bets_past_the_limits_of_before_are_admitted():
    """The bets of :data:`SERVED`, each past a limit of before, are within class-by-class
    counting's bounds on 8 decks, and chosen for it in every scope (their counts against the
    twin: :func:`test_bets_refused_before_count_as_the_twin`)."""
    for name in SERVED:
        bet = served_bet(name)
        assert not named_limit(bet), name
        if name in PAIRS + JOINED:  # the plan's choice costs a value walk a bet (seconds):
            continue  # these are admitted by the same rule (not named_limit), the others chosen
        assert {choose(GAME, bet, scope).engine for scope in ("shoe", "batch")} == \
            {"classes"}, name


@pytest.mark.parametrize("name", ["three-first-suits", "pair-and-suits", "first-cards-only",
                                  *PAIRS, "suits-compared"])
def test_bets_refused_before_count_as_the_twin(name):
    """Bets the plan refused before (three first cards by suit with a third card; a pair
    with two cards by suit and a third card's rank, generated; first cards alone past
    factorised counting's pattern bound) are counted by class-by-class counting as
    the twin counts them, on one shoe, a batch and with a card known, on small odd shoes."""
    bet = served_bet(name)
    for shoe in ISSUE_SHOES:
        assert "classes" in check_engines(bet, shoe, ("classes",))
    batch = [ISSUE_SHOES[0], ISSUE_SHOES[0].remove(["KH"])]
    counts = BetEvaluator(GAME, [bet]).counts(batch)[bet.id]
    assert [[int(c) for c in row] for row in counts] == [twin_counts(bet, s) for s in batch]
    known = {1: CARDS[CARDS.index(Card("9", "H"))]}
    assert list(next_round(GAME, ISSUE_SHOES[0], [bet], known=known)[bet.id].counts) == \
        twin_counts(bet, ISSUE_SHOES[0], known)


# Two cards compared by position, each read by position only: one dimension of the state
# where that takes fewer digits than the two positions' classes (classes_states.Pair.joint),
# with the positions (1 = the first card dealt) a card is known at; colours are tallies of one
# position each (no joint)
JOINT = {
    "ranks": (["dealt_tens != 0 and player_card2_rank != banker_card2_rank",
               "first_four_clubs >= banker_reds"], (3, 4)),
    "suits": (["player_card1_suit == banker_card2_suit and player_hearts >= 1"], (1, 4)),
    "rank-order": (["player_card2_rank < banker_card2_rank or banker_reds == 2"], (3, 4)),
    "ranks-and-suits": (["player_card1_rank == banker_card1_rank and "
                         "player_card1_suit != banker_card1_suit"], (1, 2)),
    "colours": (["banker_card2_colour == player_card2_colour and dealt_tens > 0"], (3, 4)),
    # both pairs of cards compared counted alike and read alike swapped: one type each
    "shared": (["player_card2_rank != banker_card2_rank and dealt_tens > 0",
                "player_card1_suit == banker_card1_suit"], (1, 4)),
    # one hand's two cards: one type, their stage dealt as a set of values
    "one-hand": (["player_card1_suit == player_card2_suit and dealt_tens > 0"], (1, 3)),
}
# the joints whose two positions the value walk holds as one type (classes_states.Shape.shares)
SHARED = {"ranks-and-suits": 1, "shared": 2, "one-hand": 1}


# four ranks of value 0 and a few of others, of every suit
JOINT_SHOE = Shoe.from_counts({"KH": 1, "KS": 1, "QH": 1, "JD": 1, "TC": 1, "9H": 1, "9S": 1,
                               "4C": 1, "5D": 1})


def joint_bet(name: str) -> Bet:
    return written_bet(JOINT[name][0], name)


def joints(bet: Bet, shoe: Shoe) -> list[tuple[str, ...]]:
    """The features class-by-class counting reads jointly, per joint of two positions."""
    compiled = classes._compiled(GAME, (bet,), present(shoe))
    if compiled.form != classes.DENSE:
        return []
    return [pair.names for pair in compiled.states.pairs if pair.names is not None]


@pytest.mark.parametrize("name", sorted(JOINT))
def test_two_cards_compared_by_position_count_as_the_twin(name):
    """Ranks unequal, suits equal, ranks in order, rank and suit at once, colours equal:
    class-by-class counting counts them as the twin on one shoe, a batch and with a card
    known at either position compared, and holds each pair of positions but the colours'
    as one dimension."""
    bet = joint_bet(name)
    shoe = JOINT_SHOE
    assert bool(joints(bet, shoe)) == (name != "colours")
    assert len(classes.ClassesBet(GAME, (bet,), present(shoe)).shape.shared) == \
        SHARED.get(name, 0)
    for one in (shoe, ISSUE_SHOES[0]):
        assert classes.evaluate(GAME, [bet], one) == [twin_counts(bet, one)]
    batch = [shoe, shoe.remove(["KH"]), shoe.remove(["9S", "QH"])]
    counts, = classes.batch(GAME, [bet])(counts_matrix(batch))
    assert [[int(c) for c in row] for row in counts] == [twin_counts(bet, s) for s in batch]
    for position in JOINT[name][1]:
        for card in (Card("K", "H"), Card("9", "S")):
            known = {position: CARDS[CARDS.index(card)]}
            assert bool(classes._compiled(GAME, (bet,), present(shoe),
                                          tuple(known.items())).states.pairs) == \
                (name != "colours")
            assert classes.evaluate(GAME, [bet], shoe.remove([card]), known) == \
                [twin_counts(bet, shoe, known)], (position, card)


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(JOINT)), shoes)
def test_two_cards_compared_by_position_count_as_the_twin_on_odd_shoes(name, shoe):
    bet = joint_bet(name)
    assert classes.evaluate(GAME, [bet], shoe) == [twin_counts(bet, shoe)]


# Two third cards compared (or a first card with a third): one dimension too, a card not dealt
# a class of its own, read as the features read it (None). Equal ranks hold where neither
# third card is dealt (None == None), unequal suits where one only is: the rounds that leave
# them undealt decide these bets. Colours are tallies of one position each (no joint).
THIRD = {
    "suits-unequal": ["banker_card3_suit != player_card3_suit and dealt_tens > 0",
                      "banker_card3_suit != player_card3_suit"],
    "ranks-equal": ["player_card3_rank == banker_card3_rank and player_hearts < 2"],
    "values-and-suits": ["player_card3_value == banker_card3_value and "
                         "player_card3_suit != banker_card3_suit or banker_reds == 2"],
    "first-and-third": ["player_card1_suit == banker_card3_suit and player_hearts >= 1"],
    "colours-equal": ["banker_card3_colour == player_card3_colour and dealt_tens > 0"],
}
# the positions (1 = the first card dealt) a card is known at: the fifth and sixth cards are
# the third cards where dealt
THIRD_KNOWN = (1, 5, 6)


def third_bet(name: str) -> Bet:
    return written_bet(THIRD[name], name)


@pytest.mark.parametrize("name", sorted(THIRD))
def test_two_third_cards_compared_count_as_the_twin(name):
    """Third cards compared by suit, rank, value and suit, colour, and a first card with a
    third: class-by-class counting counts them as the twin on one shoe, a batch, with a card
    known at a first or a third position, and holds the two positions (but the colours') as
    one dimension that may leave either card undealt."""
    bet = third_bet(name)
    shoe = JOINT_SHOE
    compiled = classes._compiled(GAME, (bet,), present(shoe))
    optional = [pair.optional for pair in compiled.states.pairs] \
        if compiled.form == classes.DENSE else []
    assert optional == ([] if name == "colours-equal" else
                        [(False, True)] if name == "first-and-third" else [(True, True)])
    for one in (shoe, ISSUE_SHOES[0]):
        assert classes.evaluate(GAME, [bet], one) == [twin_counts(bet, one)]
    batch = [shoe, shoe.remove(["KH"]), shoe.remove(["9S", "QH"])]
    counts, = classes.batch(GAME, [bet])(counts_matrix(batch))
    assert [[int(c) for c in row] for row in counts] == [twin_counts(bet, s) for s in batch]
    for position in THIRD_KNOWN:
        for card in (Card("K", "H"), Card("5", "D")):
            known = {position: CARDS[CARDS.index(card)]}
            assert classes.evaluate(GAME, [bet], shoe.remove([card]), known) == \
                [twin_counts(bet, shoe, known)], (position, card)


def test_an_undealt_third_card_read_otherwise_does_not_count_as_the_twin(monkeypatch):
    """The twin tells the undealt card's reading apart: a joint reading a card it does not
    deal as a dealt one (the suit of the card before it) counts otherwise."""
    from exact.engines import classes_states

    def dealt_instead(position, filler):
        return classes_states.placed_record(position, filler)

    for name in ("suits-unequal", "ranks-equal"):
        bet = third_bet(name)
        expected = [twin_counts(bet, JOINT_SHOE)]
        # compiled anew, not read from the caches
        assert classes._compiled(GAME, (bet,), present(JOINT_SHOE)).counts(JOINT_SHOE) == \
            expected
        with monkeypatch.context() as patched:
            patched.setattr(classes_states, "unplaced_record", dealt_instead)
            assert classes._compiled(GAME, (bet,), present(JOINT_SHOE)).counts(
                JOINT_SHOE) != expected, name


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(THIRD)), shoes)
def test_two_third_cards_compared_count_as_the_twin_on_odd_shoes(name, shoe):
    bet = third_bet(name)
    assert classes.evaluate(GAME, [bet], shoe) == [twin_counts(bet, shoe)]


# A pair of first cards the bet names (its ranks '3Q', or 'AJ', 'AT', 'AA') with the third
# cards' colours compared as a set, a third card's rank and tallies of ranks: generated
# (tests/refusal_sample.py, seed 2), refused by the states' bound (3,028,200 and 2,018,800:
# the pair's ranks 103 digits) before the pair was held by what the bet reads of it (4: the
# name or not, and a queen, or a ten or a jack, waiting for its other card)
NAMED_PAIRS = {
    "three-queen": ["not ((({banker_card3_colour, player_card3_colour} == {'black', 'red'}) "
                    "and (dealt_queens + dealt_aces != 1)) or (player_initial_ranks == '3Q'))",
                    "not (((margin + dealt_fives <= 14) and (first_four_clubs > player_cards)) "
                    "and (player_card3_rank in ('J', 'T', 'A',)))"],
    "ace-ten-or-jack": ["not ((({banker_card3_colour, player_card3_colour} == "
                        "{'black', 'red'}) and (dealt_queens + dealt_aces != 1)) or "
                        "(player_initial_ranks in ('AJ', 'AT', 'AA',)))",
                        "not (((margin + dealt_fives != 1) and (dealt_queens <= player_cards)) "
                        "and (player_card3_rank in ('J', 'T', 'A',)))"],
}
# the ranks the bets name, of both colours, and a nine (naturals: no third card) and a five
NAMED_SHOE = Shoe.from_counts({"3H": 1, "3C": 1, "QC": 2, "QH": 1, "AD": 1, "JS": 1, "TH": 1,
                               "5C": 1})


def named_pair_bet(name: str) -> Bet:
    return written_bet(NAMED_PAIRS[name], name)


def test_a_pair_the_bet_names_counts_as_the_twin():
    """The pair's values are merged by what the bet reads of them: within the states' bound
    (before: 103 digits for the pair, past it), 4 digits in the plan's estimate and at most
    4 in the compile, and the counts the twin's on one shoe (the rounds leaving either third
    card undealt, or both, among them), a batch, and with a third card known (the other
    shoes, known positions and the second bet: slow below; a compile costs seconds)."""
    bet = named_pair_bet("three-queen")
    assert not named_limit(bet)
    feature = GAME.features["player_initial_ranks"]
    assert classes._pair_size(feature, feature.cards, classes.View(("rank",)), (bet,)) == 4
    shoe = NAMED_SHOE
    compiled = classes._compiled(GAME, (bet,), present(shoe))
    assert [pair.size for pair in compiled.states.pairs] <= [4]
    batch = [shoe, shoe.remove(["QC"])]  # the same cards present: one compile
    assert classes.evaluate(GAME, [bet], shoe) == [twin_counts(bet, shoe)]
    counts, = classes.batch(GAME, [bet])(counts_matrix(batch))
    assert [[int(c) for c in row] for row in counts] == [twin_counts(bet, s) for s in batch]
    known = {5: CARDS[CARDS.index(Card("Q", "C"))]}
    assert classes.evaluate(GAME, [bet], shoe.remove(["QC"]), known) == \
        [twin_counts(bet, shoe, known)]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(NAMED_PAIRS))
def test_a_pair_the_bet_names_counts_as_the_twin_everywhere(name):
    """Both bets, on shoes missing a named rank, and with a card known at a first or a
    third position (a compile each: a minute or two)."""
    bet = named_pair_bet(name)
    shoe = NAMED_SHOE
    for one in (shoe, shoe.remove(["3H"]), shoe.remove(["QC", "AD"])):
        assert classes.evaluate(GAME, [bet], one) == [twin_counts(bet, one)]
    for position, card in ((1, Card("Q", "C")), (5, Card("J", "S")), (6, Card("3", "H"))):
        known = {position: CARDS[CARDS.index(card)]}
        assert classes.evaluate(GAME, [bet], shoe.remove([card]), known) == \
            [twin_counts(bet, shoe, known)], (position, card)
