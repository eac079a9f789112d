"""The NINE & NINES report's data: the Punto Banco main wagers and the two side wagers of the
game (``game_bets``), in every standard section, plus what is particular to the side wagers:
the paytable designer (the edge as an exact expression in the pays, and the pay that solves a
target edge), the rarity of every tier, and checks of NINE and NINES against the tests'
independent references (``exact/games/nine_and_nines/reference.py``).

Layer: games, the top: the game's own reports code, which may import every generic layer.

The NINE and NINES tables are ILLUSTRATIVE (the seed prints none); the template says so.
The template is ``exact/reports/templates/nine-and-nines.typ``; the published and asserted
figures it is checked against are in ``exact/data/nine_and_nines/published.toml``.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from types import ModuleType

from exact.analysis.bet_analysis import BetAnalysis, analyze, game_bets
from exact.analysis.designer import EdgeModel, solve_pays
from exact.analysis.rarity import tier_frequencies
from exact.core.cards import Shoe
from exact.games.baccarat import reference as reference
from exact.games.baccarat.coup import PuntoBanco
from exact.games.baccarat.report import coup_report_data
from exact.games.nine_and_nines import reference as nine_reference
from exact.games.nine_and_nines.game import DATA as NINE_DATA
from exact.render.numbers import decimal, fixed, grouped, percent
from exact.reports import checks
from exact.reports.charts import bet_family
from exact.reports.config import ReportConfig
from exact.reports.cover import Context

DECKS = 8
SIDE_BETS = ("nine-player", "nine-banker", "nines")
# Rounds of the seed's example game, cards in dealing order (Player, Banker, Player, Banker,
# third cards): round 2 (Player 9 alone), 4 (both two-card 9s), 8 (Banker suited A-8),
# 10 (both 9s, Banker suited 2-7) and 11 (no 9, both hands draw).
EXAMPLES = ("4H 3D 5C 3S", "3H 4S 6C 5S", "6C AH KD 8H", "JC 2D 9D 7D", "5C 5H 5D 5S 9C KH")
# Small shoes for the side wagers' brute force (first four cards only): every NINES tier can
# happen on the first (twins need two of each card); the second is odd-sized. The main wagers'
# brute force deals whole rounds, so it uses Punto Banco's smaller shoes.
BRUTE_FORCE_SHOES = ("9D:2,KD:2,9S:2,QS:2,4H:1,5H:1,AC:1,8C:1,3S:1,6D:1,7D:1,2C:1",
                     "9D:2,KD:2,4H:2,5H:2,9C:1,TC:1,8S:1,AS:1,5D:1,6S:1")
SIMULATION_SEED = 20261130
# The designer's examples: one tier of each side wager solved for this edge (NINES: the
# issue's own example, `design nine-and-nines --bet nines --solve-for double`).
TARGET_EDGE = Fraction(5, 100)
DESIGNED_TIERS = {"nine-player": "Unsuited 9 without a ten", "nines": "Double"}
RARITY_ROUNDS = 100_000_000


def report_data(config: ReportConfig, context: Context) -> dict[str, object]:
    """The standard sections of the configuration; the side wagers' own sections (designer,
    rarity, reference checks) for its side wagers that are the shipped ones, on its shoe."""
    data, shoe = coup_report_data(config, context, examples=EXAMPLES,
                                  published=NINE_DATA / "published.toml", seed=SIMULATION_SEED,
                                  family=family)
    game = config.game
    assert isinstance(game, PuntoBanco)  # NINE & NINES is Punto Banco with two side wagers
    shipped = {b.id: b for b in game_bets(game)}
    bets = [b for b in (config.bets or game_bets(game))
            if b.id in SIDE_BETS and b.source == shipped[b.id].source]
    data["designer"], data["rarity"] = [], []
    if not bets:
        return data
    analysis = analyze(game, shoe, bets)
    data["designer"] = [designer(analysis.bets[bet_id], tier)
                        for bet_id, tier in DESIGNED_TIERS.items() if bet_id in analysis.bets]
    data["rarity"] = rarity(analysis.bets.values())
    if sorted(b.id for b in bets) == sorted(SIDE_BETS) and shoe == Shoe.standard(DECKS) and all(
            b.paytable == shipped[b.id].paytable for b in bets):  # the references' own
        data["side_checks"] = side_checks(game, bets, analysis, nine_reference)
    return data


def family(bet) -> str:
    """The side wagers of the game in one family of the charts, the rest as Punto Banco's."""
    return "NINE and NINES" if bet.id in SIDE_BETS else bet_family(bet)


# --- paytable designer and rarity ---------------------------------------------------------------
def designer(bet_analysis: BetAnalysis, tier: str) -> dict[str, object]:
    """The house edge as an exact expression in the pay symbols, and the pay of ``tier`` that
    gives the target edge (exact, then practical)."""
    model = EdgeModel.of(bet_analysis)
    design = solve_pays(bet_analysis, [tier], TARGET_EDGE)
    terms = [{"tier": t, "symbol": str(model.symbols[t]), "pays": str(model.current_pays[t]),
              "probability": str(model.probabilities[t]),
              "probability_decimal": decimal(model.probabilities[t])} for t in model.tiers]
    (solved, exact_pays), = design.exact_pays.items()
    return {
        "bet": model.bet_name, "paytable": model.paytable,
        "losing_event": model.losing_event,
        "losing_probability": str(model.probabilities[model.losing_event]),
        "terms": terms,
        "edge_now": str(model.edge()), "edge_now_percent": percent(model.edge(), 6),
        "target": str(TARGET_EDGE), "target_percent": percent(TARGET_EDGE, 2),
        "tier": solved, "symbol": str(model.symbols[solved]),
        "exact_pays": str(exact_pays), "exact_pays_decimal": decimal(exact_pays, 6),
        "practical_pays": str(design.practical_pays[solved]),
        "practical_edge": str(design.practical_edge),
        "practical_edge_percent": percent(design.practical_edge, 6),
        "alternatives": [{"pays": str(pays[solved]), "edge": str(edge),
                          "edge_percent": percent(edge, 6)}
                         for pays, edge in design.alternatives],
    }


def rarity(bet_analyses) -> list[dict[str, object]]:
    """Every paying tier of every side wager: hit frequency, 1 in X, occurrences expected in
    ``RARITY_ROUNDS`` rounds and the probability of at least one."""
    out = []
    for bet_analysis in bet_analyses:
        table = bet_analysis.table()
        out.append({"bet": table.name, "rounds": grouped(RARITY_ROUNDS), "rows": [
            {"event": tier.event, "pays": f"{tier.pays} to 1",
             "hit": decimal(tier.probability),
             "one_in": "never" if tier.one_in is None else grouped(tier.one_in, 1),
             "expected": grouped(tier.expected, 2),
             "at_least_once": fixed(tier.at_least_once, 6)}
            for tier in tier_frequencies(table, RARITY_ROUNDS)]})
    return out


# --- checks against exact/games/nine_and_nines/reference.py --------------------------------
def side_checks(game, bets, analysis, reference: ModuleType) -> dict[str, object]:
    """NINE and NINES against the tests' independent references: a card-by-card brute force
    on small shoes and a plain count of NINES on the full shoe (the verification simulation
    deals them with every other wager)."""
    brute = []
    for text in BRUTE_FORCE_SHOES:
        shoe = Shoe.parse(text)
        counts = reference.brute_force_first_four(shoe)
        direct = analyze(game, shoe, bets, engine="direct")
        for position, bet_id in enumerate(SIDE_BETS):
            expected = _events(counts, position, analysis.bets[bet_id], reference)
            brute.append({"shoe": f"{shoe.size} cards: {checks.composition(shoe)}",
                          "bet": analysis.bets[bet_id].bet.name,
                          "brute_force": " / ".join(grouped(c) for c in expected),
                          "agrees": list(direct.bets[bet_id].counts) == expected})
    counted = reference.nines_by_counting(Shoe.standard(DECKS))
    nines = analysis.bets["nines"]
    expected = _events(Counter({(None, None, k): v for k, v in counted.items()}), 2, nines,
                       reference)
    rows = [{"event": e.name, "counted": grouped(c), "engine": grouped(n), "agrees": c == n}
            for e, c, n in zip(nines.bet.events, expected, nines.counts, strict=True)]
    full = {"shoe": Shoe.standard(DECKS).describe(), "rows": rows,
            "all_agree": all(r["agrees"] for r in rows)}
    return {"brute_force": brute, "full_count": full,
            "all_agree": all(r["agrees"] for r in brute) and full["all_agree"]}


def _events(tiers: Counter, position: int, bet_analysis: BetAnalysis,
            reference: ModuleType) -> list[int]:
    """Counts per event of the bet from the reference's tier counts (its ``position``-th
    tier), named as the reference maps its tiers to the shipped tables' events; other tiers
    ("lose") go to the losing event.

    >>> from types import SimpleNamespace
    >>> from exact.analysis.bet_analysis import BetAnalysis, game_bets
    >>> from exact.games import get_game
    >>> nines = next(b for b in game_bets(get_game("nine-and-nines")) if b.id == "nines")
    >>> reference = SimpleNamespace(NINES_EVENTS={"single": "Single"})
    >>> _events(Counter({("lose", "lose", "single"): 5, ("x", "y", "lose"): 7}), 2,
    ...         BetAnalysis(nines, (0,) * 6, 12), reference)
    [0, 0, 0, 0, 5, 7]
    """
    names = [e.name for e in bet_analysis.bet.events]
    mapping = reference.NINES_EVENTS if bet_analysis.bet.id == "nines" else reference.NINE_EVENTS
    out = [0] * len(names)
    for key, count in tiers.items():
        event = mapping.get(key[position], names[-1])
        out[names.index(event)] += count
    return out

