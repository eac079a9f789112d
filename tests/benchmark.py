"""`make bench`: throughput of the exact engine, and its speed-up over the brute force.

Timings are wall-clock medians on this machine; targets come from the issues and are printed
beside each figure (PASS/FAIL), so a regression is visible at a glance.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference import brute_force

from exact.analysis import analyze, game_bets
from exact.cards import Shoe
from exact.games import get_game


def timed(function: Callable[[], object], repeat: int = 1) -> float:
    """Median seconds of ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def line(label: str, seconds: float, target: float | None = None, extra: str = "") -> None:
    verdict = "" if target is None else ("PASS" if seconds <= target else "FAIL")
    goal = "" if target is None else f"(target <= {target * 1000:,.0f} ms) {verdict}"
    print(f"{label:58} {seconds * 1000:12,.2f} ms  {goal} {extra}".rstrip())


def main() -> None:
    game = get_game("punto-banco")
    shoe = Shoe.standard(8)
    main_bets = [b for b in game_bets(game) if b.group == "main"]
    print("Punto Banco, 8 decks, Banker/Player/Tie")
    cold = timed(lambda: analyze(game, shoe, main_bets))
    line("first analysis (compile + bind + evaluate)", cold)
    warm = timed(lambda: analyze(game, shoe, main_bets), repeat=50)
    line("warm analysis (evaluate exact counts and statistics)", warm, 0.030)
    depleted = [shoe.remove(cards) for cards in ("5", "9H KD", "A 2 3 4", "T J Q K 9 9")]
    per_shoe = timed(lambda: [analyze(game, s, main_bets) for s in depleted], repeat=10) / 4
    line("warm analysis of a depleted shoe", per_shoe, 0.030,
         f"= {1 / per_shoe:,.0f} shoes/s")
    direct = timed(lambda: analyze(game, shoe, main_bets, engine="direct"))
    line("direct recursive enumerator (no compilation)", direct)
    brute = timed(lambda: brute_force(shoe, ("winner",), by="value"))
    line("reference brute force, card by card (tests/reference.py)", brute)
    print(f"speed-up of the warm engine over the brute force: {brute / warm:,.0f}x; "
          f"direct enumerator over brute force: {brute / direct:,.1f}x")
    side_bets()


_COLD = """
import sys, time
from exact.analysis import analyze, game_bets
from exact.cards import Shoe
from exact.cli import shown_by_default
from exact.games import get_game
game, shoe = get_game("punto-banco"), Shoe.standard(8)
bets = {{"main": [b for b in game_bets(game) if b.group == "main"],
        "value": [b for b in game_bets(game) if shown_by_default(game, b)],
        "fast": [b for b in game_bets(game) if b.group != "main" and b.id not in {fast_skip}],
        "all": [b for b in game_bets(game) if b.group != "main"]}}[sys.argv[1]]
start = time.perf_counter()
analyze(game, shoe, bets)
print(time.perf_counter() - start, len(bets))
"""


def cold(selection: str, limit: float = 120.0, skip: tuple[str, ...] = ("perfect-pairs",)):
    """Seconds and bet count of a first analysis in a fresh process (compilation included);
    None when it exceeds ``limit`` seconds or 4 GB."""
    import resource
    import subprocess

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    try:
        done = subprocess.run([sys.executable, "-c", _COLD.format(fast_skip=repr(set(skip))),
                               selection], capture_output=True, text=True, timeout=limit,
                              preexec_fn=cap_memory, cwd=Path(__file__).parent.parent)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode:
        return None
    seconds, count = done.stdout.split()
    return float(seconds), int(count)


def side_bets() -> None:
    """Issue 3: all seed side bets at 8 decks within 10 s; value-only bets at most 2x the
    main game. Cold figures run in a fresh process, so every compilation is included."""
    from exact.cli import shown_by_default

    game = get_game("punto-banco")
    shoe = Shoe.standard(8)
    print("Punto Banco side bets, 8 decks (first analysis in a fresh process)")
    every = cold("all", limit=60.0)
    if every is None:
        print(f"{'all seed side bets (incl. perfect-pairs)':58} {'> 60 s or > 4 GB':>15}  "
              "(target <= 10,000 ms) FAIL: perfect-pairs needs rank+suit on both hands")
    else:
        line(f"all {every[1]} seed side bets and variants", every[0], 10.0)
    fast = cold("fast")
    if fast is not None:
        line(f"all {fast[1]} side bets and variants except perfect-pairs", fast[0], 10.0)
    main_cold, value_cold = cold("main"), cold("value")
    if main_cold is not None and value_cold is not None:
        line("main bets", main_cold[0])
        ratio = value_cold[0] / main_cold[0]
        line(f"main + value-only bets ({value_cold[1]} bets)", value_cold[0],
             2 * main_cold[0], f"ratio {ratio:.2f}x (target <= 2x)")
    bets = game_bets(game)
    main_bets = [b for b in bets if b.group == "main"]
    value_bets = [b for b in bets if shown_by_default(game, b)]
    analyze(game, shoe, value_bets)
    main_warm = timed(lambda: analyze(game, shoe, main_bets), repeat=50)
    value_warm = timed(lambda: analyze(game, shoe, value_bets), repeat=50)
    line("warm: main bets", main_warm)
    per_bet = (value_warm - main_warm) / (len(value_bets) - len(main_bets))
    line(f"warm: main + value-only bets ({len(value_bets)} bets)", value_warm, None,
         f"ratio {value_warm / main_warm:.1f}x; {per_bet * 1e6:,.0f} us per extra bet")


if __name__ == "__main__":
    main()
