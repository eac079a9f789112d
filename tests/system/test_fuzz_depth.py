"""The fuzz suite's depth, without running a command: over a seeded sample of the generated cases
of eor, edge and design (tests/support/fuzz_strategies.py), the share whose every input the
toolkit's own parsers accept — the argument vector, the game's options, the shoe, the cards
removed, seen, known and in removal sets (all held by the shoe), the bet and rule files — must
stay at 40% or more. A generator whose cases mostly stop at the first check tests the parsers
only (it did: one case in ten got past them); tests/system/test_fuzz.py checks the same share
among the cases it runs, by their exit status.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import tomllib

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from exact.cli.app import build_parser
from exact.cli.refusals import game_options, refuse_empty_options, refuse_foreign_options
from exact.core.cards import Card, Shoe, parse_cards
from exact.games import get_game
from exact.model.bets import load_bets

from tests.support.fuzz_strategies import cases
from tests.support.fuzzing import Case

SAMPLE = 60  # cases drawn per command (about 50 distinct: 2-3 s)
LEAST = 0.4


def sample(command: str) -> list[Case]:
    """The distinct cases of a seeded draw (the same on every run)."""
    drawn: dict[str, Case] = {}

    @settings(max_examples=SAMPLE, derandomize=True, database=None, deadline=None,
              phases=(Phase.generate,), suppress_health_check=list(HealthCheck))
    @given(case=cases(command))
    def collect(case: Case) -> None:
        drawn.setdefault(hashlib.sha256(case.to_json().encode("utf-8", "surrogatepass"))
                         .hexdigest(), case)

    collect()
    return list(drawn.values())


def sound(case: Case) -> bool:
    """Whether the toolkit's parsers accept every input of ``case`` (nothing is computed)."""
    argv = list(case.argv)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            parser = build_parser(argv[0])
            args = parser.parse_args(argv)
            refuse_empty_options(args)
            refuse_foreign_options(parser, args)
        game = get_game(args.game)
        if "decks" not in game_options(game, args.command):  # a game the command serves
            return False
        if args.output not in (None, "-") and args.output not in ("out", "out.json", *case.files):
            return False  # a directory, FIFO, link, missing directory...
        shoe = Shoe.parse(args.shoe) if args.shoe else Shoe.standard(
            args.decks or 8, args.decks or 8 if args.game == "century21" else 0)
        shoe = shoe.remove(getattr(args, "remove", None) or "")
        for name in (getattr(args, "bets", None) or []) + [getattr(args, "table", None)]:
            if name is not None:
                load_bets(name, game.features, text=case.files[name].decode())
        if getattr(args, "rules", None):
            tomllib.loads(case.files[args.rules].decode())
        for cards in getattr(args, "removal_set", None) or []:
            shoe.remove(cards)
        if args.command == "edge":
            seen = case.stdin if args.seen in (None, "-") else case.files[args.seen]
            shoe = shoe.remove(parse_cards(seen.decode()))
            known = args.known or []  # (position, card) pairs, the position read already
            if any(not 1 <= int(position) <= 6 for position, _ in known):
                return False
            shoe.remove([Card.parse(card) for _, card in known])
        return shoe.size >= 6
    except Exception:  # refused: by a parser, a shoe, a bet file, a missing file
        return False


@pytest.mark.parametrize("command", ["eor", "edge", "design"])
def test_generated_cases_go_deep(command: str) -> None:
    drawn = sample(command)
    assert len(drawn) >= SAMPLE // 2
    share = sum(map(sound, drawn)) / len(drawn)
    assert share >= LEAST, f"{command}: only {share:.0%} of {len(drawn)} generated cases are valid"


def test_sound_refuses_what_the_command_line_refuses() -> None:
    """The measure can fail: each of these is refused by the command line."""
    for argv, files in (
            (["eor", "punto-banco", "--decks", "1", "--remove", "9H,9H"], {}),
            (["eor", "chemin-de-fer"], {}),
            (["eor", "punto-banco", "--shoe", "A:4,T:8", "--removal-set", "5"], {}),
            (["edge", "punto-banco", "--decks", "1", "--seen", "s", "--known", "1=9H"],
             {"s": b"9H"}),
            (["edge", "punto-banco", "--decks", "1", "--seen", "s", "--known", "7=9H"],
             {"s": b""}),
            (["design", "punto-banco", "--bets", "b", "--bet", "mine", "--solve-for", "e",
              "--target-edge", "5%"], {"b": b"[[bet]]\nid = 'mine'\n"}),
            (["design", "century21", "--bet", "tie", "--solve-for", "Tie", "--target-edge",
              "5%"], {}),
            (["eor", "punto-banco", "--decks", "1", "-o", "dir"], {})):
        assert not sound(Case(argv, files=files)), argv
    assert sound(Case(["edge", "punto-banco", "--decks", "1", "--seen", "s", "--known", "1=9H"],
                      files={"s": b"9D 9C"}))
