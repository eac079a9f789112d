"""How many bets generated from Punto Banco's vocabulary are refused on 1 to 8 decks.

Draws ``--bets`` bets (default 60) from tests/support/vocabulary.py with a fixed seed and asks,
for each and for one shoe and a batch, what the refusal test asks
(tests/engines/test_vocabulary_twins.py, :func:`refusal`): the plan's refusal and the
factorised engine's pattern bound, on 8 decks (which stands for 1 to 8: the plan and the
patterns depend only on the cards present). With ``--run`` each bet class-by-class counting
serves is also analysed on 8 decks (one shoe), so that a refusal at compile time (a dense
trie past its bound) counts too; this takes minutes.

    .venv/bin/python tests/refusal_sample.py [--bets 60] [--seed 30] [--run]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, given, seed, settings

from exact.analysis.bet_analysis import analyze
from exact.core.cards import Shoe
from exact.engines.plan import choose
from exact.errors import ExactError

from tests.engines.test_vocabulary_twins import (
    GAME,
    conditions,
    generated,
    refusal,
)


def sample(count: int, at: int) -> list:
    found: list = []

    @seed(at)
    @settings(max_examples=count, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(generated)
    def collect(bet):
        found.append(bet)

    collect()
    return list(dict.fromkeys(found))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bets", type=int, default=60)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--run", action="store_true")
    args = parser.parse_args()
    bets = sample(args.bets, args.seed)
    shoe = Shoe.standard(8)
    refused = 0
    for bet in bets:
        reasons = [f"{scope}: {reason}" for scope in ("shoe", "batch")
                   if (reason := refusal(bet, scope, shoe)) is not None]
        if not reasons and args.run and choose(GAME, bet, "shoe").engine == "classes":
            start = time.process_time()
            try:
                analyze(GAME, shoe, [bet])
            except ExactError as error:
                reasons.append(f"run: {error}")
            print(f"  ran {conditions(bet)} in {time.process_time() - start:.1f} CPU s",
                  flush=True)
        if reasons:
            refused += 1
            print(f"REFUSED {conditions(bet)}\n    " + "\n    ".join(reasons), flush=True)
    print(f"{refused} of {len(bets)} generated bets refused on 1 to 8 decks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
