"""Regression tests for every example of issue 11 ("What was found"), through the real command
line in a forked child under 1.5 GB and 30 s (tests/support/fuzzing.py).

Silently wrong results assert the correct result; denial of service, tracebacks and output
files assert one line on stderr and exit 2 (or, where the input is legitimate, the correct
result), never a traceback, never a clobbered device, FIFO, symlink or directory. As this
suite runs as root on some machines, no case ever names the machine's own /dev entries: a
device is a copy of its node (mknod) inside the case's directory.
"""

from __future__ import annotations

import io
import os
import pickle
import signal
import subprocess
import sys
import uuid
from fractions import Fraction
from pathlib import Path

import pytest

from tests.support.fuzzing import (
    REPOSITORY,
    SINGLE_THREADED,
    Case,
    ForkServer,
    Result,
    problems,
    strict_json,
)
from tests.support.shipped import data_file

ROOT = os.geteuid() == 0
WARM_UP = (("analyze", "punto-banco", "--decks", "1", "--bet", "tie"),
           ("analyze", "century21"),
           ("eor", "punto-banco", "--decks", "1", "--bet", "tie"))
TINY_SHOE = "A:2,2:2,3:2,5:2,9:2,T:4"


@pytest.fixture(scope="module")
def server():
    with ForkServer(warm_up=WARM_UP) as running:
        yield running


def run(server: ForkServer, *argv: str, files: dict[str, bytes] | None = None,
        stdin: bytes = b"", **special: object) -> tuple[Case, Result]:
    case = Case(list(argv), files=files or {}, stdin=stdin, **special)
    return case, server.run(case)


def assert_clean(case: Case, result: Result) -> None:
    """The contract of every run: exit 0 or 2, one line on 2, no traceback, strict JSON."""
    found = problems(case, result)
    assert not found, f"{case.describe()}\n{found}\nstderr: {result.stderr[-2000:]}"


def assert_refused(case: Case, result: Result) -> None:
    """Exit 2 with exactly one line on stderr (and the general contract)."""
    assert_clean(case, result)
    assert result.status == 2, (f"{case.describe()}\nexit {result.status}, expected 2 (refused)"
                                f"\nstdout: {result.stdout[:300]}")


def toml_bet(when: str, pays: str = "1", extra: str = "") -> bytes:
    """A one-event bet ``mine`` (condition as a TOML literal string, which needs no escapes)."""
    return (f'[[bet]]\nid = "mine"\n{extra}\n[[bet.event]]\nname = "e"\n'
            f"when = '''{when}'''\npays = {pays}\n").encode()


# --- silently wrong -------------------------------------------------------------------------------
def test_century21_remove_keeps_the_jokers(server: ForkServer) -> None:
    """`analyze century21 --remove 9` analyses the 424-card shoe less one card, as eor does."""
    case, result = run(server, "analyze", "century21", "--remove", "9", "--json")
    assert_clean(case, result)
    assert result.status == 0
    assert strict_json(result.stdout)["shoe"]["cards"] == 423


def test_century21_remove_same_shoe_in_analyze_and_eor(server: ForkServer) -> None:
    """With --decks 1 too, analyze and eor take the same shoe before and after --remove."""
    cards = []
    for command in ("analyze", "eor"):
        case, result = run(server, command, "century21", "--decks", "1", "--remove", "9",
                           "--json")
        assert_clean(case, result)
        assert result.status == 0
        report = strict_json(result.stdout)
        cards.append(report["shoe"]["cards"] if command == "analyze" else report["cards"])
    assert cards[0] == cards[1]


@pytest.mark.parametrize("argv", [
    ("analyze", "punto-banco", "--shoe", ""),
    ("analyze", "punto-banco", "--shoe", "", "--decks", "1"),
    ("eor", "punto-banco", "--shoe", "", "--bet", "tie"),
    ("edge", "punto-banco", "--shoe", "", "--seen", "seen.txt"),
    ("design", "punto-banco", "--shoe", "", "--bet", "tie", "--solve-for", "Tie",
     "--target-edge", "5%"),
    ("analyze", "century21", "--shoe", ""),
], ids=lambda argv: " ".join(argv[:2]) + (" +decks" if "--decks" in argv else ""))
def test_empty_shoe_is_refused(server: ForkServer, argv: tuple[str, ...]) -> None:
    """An empty --shoe is neither 8 decks nor a way around the --decks or --shoe check."""
    assert_refused(*run(server, *argv, files={"seen.txt": b""}))


@pytest.mark.parametrize("engine", ["direct", "compiled"])
def test_set_literal_condition_is_a_set_or_refused(server: ForkServer, engine: str) -> None:
    """`{a, b} == {b, a}` is true in every round (sets), or the condition is refused; never
    compared as ordered tuples."""
    files = {"bets.toml": toml_bet("{player_total, banker_total} == {banker_total, player_total}")}
    case, result = run(server, "analyze", "punto-banco", "--shoe", TINY_SHOE, "--engine", engine,
                       "--bets", "bets.toml", "--bet", "mine", "--json", files=files)
    assert_clean(case, result)
    if result.status == 0:
        report = strict_json(result.stdout)
        outcomes = {o["event"]: o for o in report["bets"]["mine"]["outcomes"]}
        assert int(outcomes["e"]["combinations"]) == int(report["total"])


def test_set_literal_condition_in_the_batch_evaluator(server: ForkServer) -> None:
    files = {"bets.toml": toml_bet("{player_total, banker_total} == {banker_total, player_total}")}
    case, result = run(server, "eor", "punto-banco", "--decks", "1", "--bets", "bets.toml",
                       "--bet", "mine", "--json", files=files)
    assert_clean(case, result)
    if result.status == 0:  # the bet always pays 1: its house edge is exactly -1
        assert Fraction(strict_json(result.stdout)["bets"]["mine"]["house_edge"]["exact"]) == -1


@pytest.mark.parametrize("game", ["punto-banco", "century21"])
def test_depth_beyond_the_shoe_is_refused(server: ForkServer, game: str) -> None:
    """`eor --depth 1000000` removes more cards than there are: refused, not an empty table."""
    argv = ["eor", game, "--decks", "1", "--depth", "1000000"]
    assert_refused(*run(server, *(argv + (["--bet", "tie"] if game == "punto-banco" else []))))


@pytest.mark.parametrize("trigger", ["nan", "inf", "-inf", "-nan", "1e999"])
def test_simulate_json_is_strict(server: ForkServer, trigger: str) -> None:
    """`--trigger tie=nan --json`: refused, or strictly valid JSON (no NaN/Infinity)."""
    case, result = run(server, "simulate", "punto-banco", "--decks", "1", "--shoes", "1",
                       "--seed", "1", "--workers", "1", "--bet", "tie", "--trigger",
                       f"tie={trigger}", "--json")
    assert_clean(case, result)
    if result.status == 0:
        strict_json(result.stdout)


# --- denial of service ----------------------------------------------------------------------------
HUGE = "1e999999999"


@pytest.mark.parametrize("pays_line", [
    f'pays = "{HUGE}"', f"pays = {HUGE}", 'pays = 1\ngross = "1e999999999"',
    f'pays = 1\n[bet.paytables.big]\ne = "{HUGE}"'])
def test_huge_pays_are_refused(server: ForkServer, pays_line: str) -> None:
    text = (f'[[bet]]\nid = "mine"\n[[bet.event]]\nname = "e"\nwhen = "winner == \'tie\'"\n'
            f"{pays_line}\n").encode()
    assert_refused(*run(server, "analyze", "punto-banco", "--decks", "1", "--bets", "bets.toml",
                        "--bet", "mine", files={"bets.toml": text}))


@pytest.mark.parametrize("argv", [
    ("design", "punto-banco", "--decks", "1", "--bet", "tie", "--solve-for", "Tie",
     "--target-edge", HUGE),
    ("design", "punto-banco", "--decks", "1", "--bet", "tie", "--solve-for", "Tie",
     "--target-edge", f"{HUGE}%"),
    ("analyze", "century21", "--bet", HUGE),
    ("analyze", "century21", "--collection", HUGE),
    ("simulate", "punto-banco", "--decks", "1", "--shoes", "1000000000", "--seed", "1",
     "--workers", "1", "--bet", "tie"),
], ids=["target-edge", "target-edge-percent", "century21-bet", "century21-collection",
        "simulate-shoes"])
def test_huge_options_are_refused(server: ForkServer, argv: tuple[str, ...]) -> None:
    assert_refused(*run(server, *argv))


@pytest.mark.parametrize("rule", [
    f'[collection]\ntable_tags = [{{ min_bet = 10, max_bet = 100, fee = "{HUGE}" }}]',
    f'win_pays = "{HUGE}"', f'natural_pays = "{HUGE}"', f"win_pays = {HUGE}",
    f'[win_pays_by_total]\n5 = "{HUGE}"'])
def test_huge_rule_numbers_are_refused(server: ForkServer, rule: str) -> None:
    assert_refused(*run(server, "analyze", "century21", "--decks", "1", "--rules", "rules.toml",
                        files={"rules.toml": rule.encode() + b"\n"}))


@pytest.mark.parametrize("when", [
    "'a' * 100000 * 100000 == winner",
    "'%0200000000d' % player_total == winner",
    "(1,) * 100000 * 100000 == (winner,)",
    "[0] * 100000 * 100000 == [player_total]",
])
def test_condition_allocation_is_refused(server: ForkServer, when: str) -> None:
    assert_refused(*run(server, "analyze", "punto-banco", "--shoe", TINY_SHOE, "--engine",
                        "direct", "--bets", "bets.toml", "--bet", "mine",
                        files={"bets.toml": toml_bet(when)}))


# --- tracebacks instead of one line ---------------------------------------------------------------
NOT_UTF8 = b'# \xff\xfe not UTF-8 \xc3\x28\n'
VALID_BETS = toml_bet("winner == 'tie'", "8")
TIE_TABLE = (b'[[bet]]\nid = "tie"\n[[bet.event]]\nname = "Tie"\nwhen = "winner == \'tie\'"\n'
             b"pays = 9\n")


@pytest.mark.parametrize("argv,files,stdin", [
    (("analyze", "punto-banco", "--decks", "1", "--bets", "f.toml", "--bet", "mine"),
     {"f.toml": NOT_UTF8 + VALID_BETS}, b""),
    (("analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--table", "f.toml"),
     {"f.toml": NOT_UTF8 + TIE_TABLE}, b""),
    (("list-bets", "punto-banco", "--bets", "f.toml"), {"f.toml": NOT_UTF8 + VALID_BETS}, b""),
    (("analyze", "century21", "--decks", "1", "--rules", "f.toml"),
     {"f.toml": NOT_UTF8 + b"decks = 1\n"}, b""),
    (("eor", "century21", "--decks", "1", "--rules", "f.toml"),
     {"f.toml": NOT_UTF8 + b"decks = 1\n"}, b""),
    (("simulate", "punto-banco", "--decks", "1", "--shoes", "1", "--seed", "1", "--workers", "1",
      "--bets", "f.toml", "--bet", "mine"), {"f.toml": NOT_UTF8 + VALID_BETS}, b""),
    (("edge", "punto-banco", "--decks", "1", "--seen", "f.txt", "--bet", "tie"),
     {"f.txt": b"9H \xff 5C"}, b""),
    (("edge", "punto-banco", "--decks", "1", "--bet", "tie"), {}, b"9H \xff 5C"),
    (("edge", "century21", "--decks", "1", "--seen", "f.txt"), {"f.txt": b"9H \xff 5C"}, b""),
], ids=["bets", "table", "list-bets", "rules", "eor-rules", "simulate-bets", "seen",
        "seen-stdin", "century21-seen"])
def test_non_utf8_files_are_refused(server: ForkServer, argv, files, stdin) -> None:
    assert_refused(*run(server, *argv, files=files, stdin=stdin))


@pytest.mark.parametrize("argv", [
    ("analyze", "punto-banco", "--shoe", "A:²"),
    ("analyze", "punto-banco", "--shoe", "A:١٠,T:１６"),
    ("analyze", "punto-banco", "--decks", "٣", "--bet", "tie"),
    ("analyze", "punto-banco", "--decks", "１", "--bet", "tie"),
    ("eor", "punto-banco", "--decks", "1", "--bet", "tie", "--tags", "A=²"),
    ("edge", "punto-banco", "--decks", "1", "--bet", "tie", "--known", "²=9H"),
    ("simulate", "punto-banco", "--decks", "1", "--shoes", "1", "--seed", "1", "--workers", "1",
     "--bet", "tie", "--burn", "²"),
    ("simulate", "punto-banco", "--decks", "1", "--shoes", "１", "--seed", "1", "--workers",
     "1", "--bet", "tie"),
], ids=["shoe", "shoe-arabic", "decks-arabic", "decks-fullwidth", "tags", "known", "burn",
        "shoes-fullwidth"])
def test_unicode_digits_are_refused(server: ForkServer, argv: tuple[str, ...]) -> None:
    """Numbers are ASCII digits only (issue 11): a Unicode digit is refused, one line."""
    assert_refused(*run(server, *argv, stdin=b""))


def test_unicode_digit_rule_key_is_refused(server: ForkServer) -> None:
    assert_refused(*run(server, "analyze", "century21", "--decks", "1", "--rules", "r.toml",
                        files={"r.toml": '[win_pays_by_total]\n"²" = 2\n'.encode()}))


@pytest.mark.parametrize("when", [
    "-" * 3_000 + "1 == player_total",
    "+" * 3_000 + "1 == player_total",
    "not " * 3_000 + "winner",
    " + ".join(["1"] * 5_000) + " == player_total",
    "(" * 10_000 + "1" + ")" * 10_000 + " == player_total",
    "[" * 10_000 + "]" * 10_000,
    "player_total == " + "9" * 5_000,
], ids=["3000-minus", "3000-plus", "3000-not", "5000-terms", "10000-parens", "10000-lists",
        "5000-digits"])
def test_deep_or_long_conditions_end_cleanly(server: ForkServer, when: str) -> None:
    """Deep or long conditions: past the documented bounds (docs: Input limits), refused
    with one line naming the bet; never a RecursionError, never a traceback."""
    assert_refused(*run(server, "analyze", "punto-banco", "--shoe", TINY_SHOE, "--engine", "direct",
                      "--bets", "bets.toml", "--bet", "mine", files={"bets.toml": toml_bet(when)}))


@pytest.mark.parametrize("when", ["'%z' % player_total == winner", "'%d' % winner == '1'",
                                  "'%s' % player_total == '5'", "winner < 1",
                                  "player_third + 1 == 2", "player_total // 0 == 1"])
def test_condition_errors_name_the_bet(server: ForkServer, when: str) -> None:
    """Formatting (and every evaluation error) is a bet-file error naming bet and event."""
    case, result = run(server, "analyze", "punto-banco", "--shoe", TINY_SHOE, "--engine",
                       "direct", "--bets", "bets.toml", "--bet", "mine",
                       files={"bets.toml": toml_bet(when)})
    assert_refused(case, result)
    assert "mine" in result.stderr


@pytest.mark.parametrize("pays", ["1e308", "1e400", "1e-400", "-1e400", "nan", "inf",
                                  '"1e308"', '"1e400"', '"1e-400"', "9" * 5000, f'"{"9" * 5000}"',
                                  '"1/0"', '"١"'])
def test_odd_pays_end_cleanly(server: ForkServer, pays: str) -> None:
    assert_refused(*run(server, "analyze", "punto-banco", "--decks", "1", "--bets", "bets.toml",
                      "--bet", "mine", "--json",
                      files={"bets.toml": toml_bet("winner == 'tie'", pays)}))


@pytest.mark.parametrize("paytables", ["5", "[1, 2]", '"abc"', "{ alt = 5 }",
                                       '{ alt = { nope = 1 } }'])
def test_malformed_paytables_are_refused(server: ForkServer, paytables: str) -> None:
    text = (f'[[bet]]\nid = "mine"\npaytables = {paytables}\n[[bet.event]]\nname = "e"\n'
            f"when = \"winner == 'tie'\"\npays = 8\n").encode()
    assert_refused(*run(server, "analyze", "punto-banco", "--decks", "1", "--bets", "bets.toml",
                        "--bet", "mine", files={"bets.toml": text}))


@pytest.mark.parametrize("size", ["1e308", "1e400", "1e-400"])
def test_odd_bet_sizes_end_cleanly(server: ForkServer, size: str) -> None:
    assert_refused(*run(server, "analyze", "century21", "--bet", size, "--json"))


SIMULATE = ("simulate", "punto-banco", "--decks", "1", "--shoes", "1", "--seed", "1",
            "--workers", "1", "--bet", "tie")


@pytest.mark.parametrize("extra", [("--cut", "51"), ("--burn", "50"), ("--burn", "52"),
                                   ("--scheduler", "not a url"), ("--workers", "0"),
                                   ("--shoes", "0")],
                         ids=["cut", "burn", "burn-all", "scheduler", "workers", "shoes"])
def test_simulate_without_a_round_is_refused(server: ForkServer, extra: tuple[str, ...]) -> None:
    assert_refused(*run(server, *SIMULATE, *extra))


def test_simulate_negative_seed_ends_cleanly(server: ForkServer) -> None:
    assert_refused(*run(server, "simulate", "punto-banco", "--decks", "1", "--shoes", "1",
                      "--seed", "-1", "--workers", "1", "--bet", "tie", "--json"))


@pytest.mark.parametrize("argv", [
    ("analyze", "century21", "--decks", "10000000", "--json"),
    ("analyze", "punto-banco", "--decks", "10000000", "--bet", "tie", "--json"),
    ("eor", "punto-banco", "--decks", "10000000", "--bet", "tie", "--json"),
    ("analyze", "punto-banco", "--shoe", "A:99999999999999999999", "--bet", "tie", "--json"),
], ids=["century21", "punto-banco", "eor", "shoe-count"])
def test_huge_shoes_end_cleanly(server: ForkServer, argv: tuple[str, ...]) -> None:
    """Within the largest shoe (10**24 cards): a result (exact: Python integers past int64,
    never a float64 assumption), not an error."""
    case, result = run(server, *argv)
    assert_clean(case, result)
    assert result.status == 0, result.stderr


def test_tier_of_probability_near_one_ends_cleanly(server: ForkServer) -> None:
    """An event of probability 1 - 1e-20 (a float 1.0) in the rarity figures."""
    when = "player_initial_total != 3 or banker_initial_total != 3"
    assert_clean(*run(server, "analyze", "punto-banco", "--shoe", "A:1,2:1,3:1,T:10000000",
                      "--bets", "bets.toml", "--bet", "mine", "--json",
                      files={"bets.toml": toml_bet(when)}))


# --- output files ---------------------------------------------------------------------------------
ANALYZE = ("analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--json")


def test_output_to_a_directory_is_refused(server: ForkServer) -> None:
    assert_refused(*run(server, *ANALYZE, "-o", "dir", directories=["dir"]))


def test_output_into_a_missing_directory_is_refused(server: ForkServer) -> None:
    assert_refused(*run(server, *ANALYZE, "-o", "missing/out.json"))


def test_output_into_a_read_only_directory(server: ForkServer) -> None:
    """Refused with one line; as root (who may write there) the file is written whole."""
    case, result = run(server, *ANALYZE, "-o", "ro/out.json", files={"ro/keep": b""},
                       read_only=["ro"])
    assert_clean(case, result)
    if result.status == 0:
        assert ROOT, "a normal user cannot write into a read-only directory"
        strict_json(result.output("ro/out.json") or b"")
    else:
        assert "ro/out.json" not in result.files_after


@pytest.mark.parametrize("name,numbers", [("null", (1, 3)), ("full", (1, 7))])
def test_output_to_a_device_is_refused(server: ForkServer, name: str,
                                       numbers: tuple[int, int]) -> None:
    """A device is refused and stays a device (a copy of the node in the case directory; as
    a normal user mknod is not allowed and the test is skipped)."""
    if not ROOT:
        pytest.skip("copying a device node needs root")
    case, result = run(server, *ANALYZE, "-o", name, devices={name: numbers})
    assert_refused(case, result)
    assert result.files_after[name][0] == "char"


def test_output_to_a_fifo_is_refused(server: ForkServer) -> None:
    case, result = run(server, *ANALYZE, "-o", "fifo", fifos=["fifo"], timeout=20)
    assert_refused(case, result)
    assert result.files_after["fifo"][0] == "fifo"


@pytest.mark.parametrize("elsewhere", [False, True], ids=["same-filesystem", "dev-shm"])
def test_output_through_a_symlink(server: ForkServer, elsewhere: bool) -> None:
    """A symlink is followed (its target gets the output, the link stays) or refused (both
    unchanged); never replaced by a regular file."""
    if elsewhere and not Path("/dev/shm").is_dir():
        pytest.skip("no /dev/shm")
    target = Path("/dev/shm") / f"exact-fuzz-{uuid.uuid4().hex}" if elsewhere else None
    files = {} if elsewhere else {"target.txt": b"keep\n"}
    if target is not None:
        target.write_bytes(b"keep\n")
    try:
        case, result = run(server, *ANALYZE, "-o", "link", files=files,
                           symlinks={"link": str(target) if target else "target.txt"})
        assert_clean(case, result)
        assert result.files_after["link"][0] == "link"
        content = target.read_bytes() if target else result.output("target.txt")
        if result.status == 0:
            strict_json(content if content is not None else b"")
        else:
            assert content in (b"keep\n", None)
    finally:
        if target is not None:
            target.unlink(missing_ok=True)


def test_output_file_mode_follows_the_umask(server: ForkServer) -> None:
    """A new output file is 0644 under umask 022 (not mkstemp's 0600); written whole."""
    case, result = run(server, *ANALYZE, "-o", "out.json")
    assert_clean(case, result)
    assert result.status == 0
    assert result.files_after["out.json"][2] == 0o644
    assert strict_json(result.output("out.json") or b"")["bets"]["tie"]


# --- the disk cache, end to end -------------------------------------------------------------------
class _Planted:
    """A pickle that, if ever loaded, creates the marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_planted_cache_entries_never_run(tmp_path: Path) -> None:
    """Every cache entry replaced by a malicious pickle: nothing runs, the result is the same,
    and the entries are rebuilt (a third run is silent). A fresh process each time: a forked
    child would not read the disk cache (the server's memory already holds the forms)."""
    import numpy as np

    cache, marker = tmp_path / "cache", tmp_path / "pwned"
    environment = {**os.environ, **SINGLE_THREADED, "EXACT_CACHE_DIR": str(cache),
                   "PYTHONPATH": str(REPOSITORY)}
    # eor keeps both kinds of entry: a compiled deal and the batch evaluator's arrays
    argv = [sys.executable, "-m", "exact", "eor", "punto-banco", "--decks", "1", "--bet", "tie",
            "--json"]

    def once() -> subprocess.CompletedProcess:
        return subprocess.run(argv, env=environment, capture_output=True, timeout=120,
                              cwd=tmp_path)

    first = once()
    assert first.returncode == 0, first.stderr
    entries = [path for path in cache.rglob("*") if path.is_file()]
    assert entries, "the run left nothing in the disk cache"
    payload = pickle.dumps(_Planted(marker))
    for path in entries:
        if path.suffix == ".npy":
            np.save(path, np.array([_Planted(marker)], dtype=object), allow_pickle=True)
        else:
            path.write_bytes(payload)
    second = once()
    assert not marker.exists(), "a planted cache entry ran code"
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout
    assert b"Traceback" not in second.stderr
    third = once()
    assert third.returncode == 0 and third.stdout == first.stdout
    assert third.stderr == b"", "the planted entries were not rebuilt"
    assert not marker.exists()


# --- found by the fuzz suite ----------------------------------------------------------------------
def test_century21_rules_of_one_deck_and_one_joker(server: ForkServer) -> None:
    """A legitimate rule file (one deck, one joker; found by the fuzzer): `eor century21
    --rules` raised KeyError ('player', 'N', 1), the plan of a two-joker hand that this shoe
    cannot deal. It gives the result now, and its expected value is the one `analyze`
    computes from the game table (another path, which never meets that hand)."""
    files = {"rules.toml": b"decks = 1\njokers = 1\n"}
    case, result = run(server, "eor", "century21", "--rules", "rules.toml", "--json",
                       files=files)
    assert_clean(case, result)
    assert result.status == 0
    effects = strict_json(result.stdout)
    assert effects["cards"] == 53
    case, result = run(server, "analyze", "century21", "--rules", "rules.toml", "--json",
                       files=files)
    assert_clean(case, result)
    analysed = strict_json(result.stdout)
    assert analysed["shoe"]["cards"] == 53
    assert effects["bets"]["player"]["house_edge"]["exact"] == analysed["house_edge"]


@pytest.mark.parametrize("argv", [
    ["--bogus", "nope"],
    ["--out"],
    ["--out", "build", "--", "x" * 300],
    ["--", "../victim"],
    ["--out", "build", "--", "../victim"],
    ["punto-banco", "nope"],  # every id is checked before the first report is built
])
def test_reports_usage_and_game_ids_are_one_line(server: ForkServer, argv: list[str]) -> None:
    """`python -m exact.reports`: argparse's usage error was two lines, a 300-character id an
    OSError, and out/<id> was emptied before the id was checked: `../victim` would have
    deleted the folder beside --out. The folder and its file are still there."""
    files = {"victim/keep.txt": b"precious", "build/punto-banco.pdf": b"old"}
    case = Case(argv, files=files, module="exact.reports")
    result = server.run(case)
    assert_refused(case, result)
    assert result.files_after.get("victim/keep.txt") is not None, result.files_after


def test_reports_never_empty_a_folder_outside_out(tmp_path: Path) -> None:
    """An id that names a template through `..` or an absolute path (here `victim.typ` beside
    the templates) used to pass the template check, then out/<id>, the victim, was emptied."""
    from exact.reports import ReportError
    from exact.reports.build import build_report

    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("precious")
    (tmp_path / "victim.typ").write_text("")
    (tmp_path / "templates").mkdir()
    for game_id in (str(victim), "../victim", "..", ".", ""):
        with pytest.raises(ReportError):
            build_report(game_id, tmp_path / "out", templates=tmp_path / "templates")
        assert (victim / "keep.txt").read_text() == "precious", game_id


def test_the_harness_bounds_cpu_time_not_wall_time(server):
    """The fuzz harness's time bound is CPU seconds (RLIMIT_CPU): a case that computes past it
    is killed and reported, while a loaded machine's waiting for a core is not a failure."""
    case, result = run(server, "simulate", "punto-banco", "--shoes", "100000", "--seed", "1",
                       "--workers", "1", timeout=1)
    assert result.status == -signal.SIGXCPU, (result.status, result.stderr[-500:])
    assert problems(case, result) == ["over 1 s of CPU"]


@pytest.mark.parametrize("separator", ["\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028"])
def test_a_line_break_of_any_kind_in_an_argument_stays_on_one_line(server, separator):
    """Found by `make fuzz`: argparse quoted a stray argument holding a vertical tab, which
    ``str.splitlines`` (and a reader) takes as a second line."""
    case, result = run(server, "analyze", "nine-and-nines", "--shoe", "-",
                       f"T:2,3:{separator}ë,T:2", "--bet", "tie")
    assert_refused(case, result)
    assert "unrecognized arguments" in result.stderr


def test_a_refused_run_prints_no_rule_warning_before_its_one_line(tmp_path, capsys,
                                                                   monkeypatch):
    """Found by the fuzz suite: a rule file's RuleWarning (a Natural bonus with one joker
    never pays) printed before the error of the same run gave two lines; the command line
    prints warnings (as ``exact: warning: ...``) only when the run succeeds."""
    from exact.cli import main

    shipped = data_file("century21", "rules.toml").read_text()
    rules = tmp_path / "rules.toml"
    rules.write_text(shipped.replace("jokers = 8", "jokers = 1")
                     .replace("natural_pays = 1", "natural_pays = 3"))
    assert main(["analyze", "century21", "--decks", "1", "--rules", str(rules),
                 "--remove", "X,X"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("exact: error: "), error
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["edge", "century21", "--rules", str(rules), "--json"]) == 0
    warned = capsys.readouterr().err.splitlines()
    assert warned and all(line.startswith("exact: warning: rules ") for line in warned), warned


# --- found by the fuzz campaign after the seams moved (fuzz17) -----------------------------------
HAND = b'dealer = "KH 7C"\ndealer_wager = 300\n[[seat]]\nseat = 3\ncards = "9S KD"\n' \
       b'[[wager]]\nseat = 3\ncircle = 1\namount = 100\n'


@pytest.mark.parametrize("table", [
    b'dealer = "KH 7C"\ndealer_wager = ' + b"9" * 5000 + b"\n",
    b"dealer = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    HAND.replace(b"amount = 100", b"amount = " + b"[" * 3000 + b"1" + b"]" * 3000),
    HAND.replace(b"seat = 3\ncards", b"seat = " + b"1" * 4301 + b"\ncards"),
], ids=["huge-integer", "deep-array", "deep-amount", "huge-seat"])
def test_century21_table_file_past_toml_bounds_is_refused(server: ForkServer, table) -> None:
    """`settle century21 --table` read its file with tomllib itself: an integer past Python's
    4,300-digit limit (ValueError) or nesting too deep (RecursionError) was a traceback. It
    now reads it as every user file is read (exact.core.parsing.load_toml)."""
    case, result = run(server, "settle", "century21", "--table", "hand.toml",
                       files={"hand.toml": table})
    assert_refused(case, result)
    assert "not a TOML table file" in result.stderr


def test_century21_table_file_reads_like_other_user_files(server: ForkServer) -> None:
    """The same hand with a byte-order mark and CRLF line ends settles alike."""
    plain = run(server, "settle", "century21", "--table", "hand.toml", "--json",
                files={"hand.toml": HAND})
    marked = run(server, "settle", "century21", "--table", "hand.toml", "--json",
                 files={"hand.toml": b"\xef\xbb\xbf" + HAND.replace(b"\n", b"\r\n")})
    for case, result in (plain, marked):
        assert_clean(case, result)
        assert result.status == 0
    assert strict_json(plain[1].stdout)["wagers"] == strict_json(marked[1].stdout)["wagers"]


SHEET = ("analyze", "punto-banco", "--decks", "1", "--bet", "tie")


@pytest.mark.parametrize("name, special", [
    ("fifo", {"fifos": ["fifo"]}),
    ("dir", {"directories": ["dir"]}),
    ("dev", {"devices": {"dev": (1, 3)}}),
    ("dangling", {"symlinks": {"dangling": "missing/target.xlsx"}}),
], ids=["fifo", "directory", "device", "dangling-link"])
def test_xlsx_to_a_fifo_directory_or_device_is_refused(server: ForkServer, name, special) -> None:
    """--xlsx had its own writer, which renamed the workbook over whatever the name was (a
    FIFO, a device node: replaced by a regular file). It now writes as -o does."""
    if name == "dev" and not ROOT:
        pytest.skip("a device node is made only as root")
    case, result = run(server, *SHEET, "--xlsx", name, **special)
    assert_refused(case, result)  # (and the FIFO, directory, device are still there)


def test_xlsx_through_a_symlink_writes_its_file(server: ForkServer) -> None:
    case, result = run(server, *SHEET, "--xlsx", "link", symlinks={"link": "target.xlsx"},
                       files={"target.xlsx": b"old"}, keep=True)
    assert_clean(case, result)
    assert result.status == 0 and result.files_after["link"][0] == "link"
    assert result.output("target.xlsx")[:2] == b"PK"  # the workbook, through the link


@pytest.mark.parametrize("argv", [
    (*SHEET, "--xlsx", "sheet.xlsx", "-o", "missing/out.txt"),
    (*SHEET, "--xlsx", "sheet.xlsx", "-o", "dir", "--json"),
    ("analyze", "century21", "--decks", "1", "--xlsx", "sheet.xlsx", "--csv"),
], ids=["output-in-a-missing-directory", "output-a-directory", "century21-csv"])
def test_a_refused_run_leaves_no_workbook(server: ForkServer, argv) -> None:
    """The workbook was written before the run's -o was checked (or, century21, before --csv
    was refused): a refused run left a new sheet.xlsx behind."""
    case, result = run(server, *argv, directories=["dir"])
    assert_refused(case, result)
    assert "sheet.xlsx" not in result.files_after
