"""Disk-cache keys are unambiguous (issue 26): two bets that differ never share an entry.

The keys once joined each event's name and condition text with ``|``. An event name may hold
``|``, and a condition may hold it in a comment or in a string literal, so the pairs below
gave one key to two different bets, and whichever ran first decided the other's counts on
every later run. Each pair is checked to collide under that old scheme (rebuilt here, as text),
to have different counts, and then to give each bet its own counts, equal to a cold run of
that bet alone, whatever the order: cold and warm, A then B and B then A, each in fresh cache
directories and in one shared directory, in one process (the command line's ``main``, the
in-memory forms forgotten so that the disk answers) and through fresh processes
(``python -m exact``; a fresh ``analyze`` reads the light form, without numpy). The value-level
pairs go through the compiled deal's bet-event matrices and light forms, the card-level pairs
through the factorised counter's entries.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from exact.analysis.bet_analysis import game_bets
from exact.core.cards import Shoe
from exact.errors import CacheWarning

# name -> (event of bet A, event of bet B): (event name, condition). Every pair collides under
# the old key: A's "name|condition" is B's, character for character.
PAIRS = {
    # B's condition holds the "|" in a comment: it reads winner == 'tie'; A's name holds it
    "name-and-comment": (("Win|winner == 'tie' #", "winner == 'banker'"),
                         ("Win", "winner == 'tie' #|winner == 'banker'")),
    # A's condition holds the "|" in a string literal (then a comment in B's reading)
    "string-literal": (("Win", "'|winner == \"tie\" #' != '' and winner == 'banker'"),
                       ("Win|'", "winner == \"tie\" #' != '' and winner == 'banker'")),
    # the same on card-level conditions (the factorised counter's entries)
    "card-name-and-comment": (
        ("Red|player_card1_suit == 'H' #", "player_card1_colour == 'red'"),
        ("Red", "player_card1_suit == 'H' #|player_card1_colour == 'red'")),
    "card-string-literal": (
        ("Red", "'|player_card1_suit == \"H\" #' != '' and player_card1_colour == 'red'"),
        ("Red|'", "player_card1_suit == \"H\" #' != '' and player_card1_colour == 'red'")),
}
SEEN = "9H KS 3D 3C"
CHECKOUT = Path(__file__).resolve().parents[2]


def bet_file(pair: str) -> str:
    """A bet file holding both bets of ``pair``: ids ``a`` and ``b``."""
    lines = []
    for bet_id, (name, when) in zip("ab", PAIRS[pair], strict=True):
        lines += ["[[bet]]", f"id = {json.dumps(bet_id)}", "[[bet.event]]",
                  f"name = {json.dumps(name)}", f"when = {json.dumps(when)}", "pays = 3", ""]
    return "\n".join(lines)


def old_key(name: str, condition: str) -> str:
    """The old key of a one-event bet, as every kind of entry built it: the bet's events as
    ``name|condition`` joined by ``|`` (the ``otherwise`` event last, with no condition)."""
    return "bet:2|" + "|".join([f"{name}|{condition.strip()}", "Loses|"])


@pytest.mark.parametrize("pair", list(PAIRS))
def test_each_pair_collides_under_the_old_key_yet_counts_differently(pair, punto_banco,
                                                                      tmp_path,
                                                                      monkeypatch) -> None:
    """The pairs are real collisions of the old scheme, and of bets that count differently
    (so that a test giving one bet the other's counts fails)."""
    (first, second) = PAIRS[pair]
    assert old_key(*first) == old_key(*second)
    path = tmp_path / "bets.toml"
    path.write_text(bet_file(pair))
    bets = {b.id: b for b in game_bets(punto_banco, [path]) if b.id in "ab"}
    assert [e.condition.text for e in bets["a"].events[:1]] == [first[1]]
    from exact.analysis.bet_analysis import analyze

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    analysis = analyze(punto_banco, Shoe.standard(1), [bets["a"], bets["b"]])
    assert analysis.bets["a"].counts != analysis.bets["b"].counts


def _pair_bets(punto_banco, pair: str, directory: Path) -> tuple:
    path = directory / f"{pair}.toml"
    path.write_text(bet_file(pair))
    bets = {b.id: b for b in game_bets(punto_banco, [path]) if b.id in "ab"}
    return bets["a"], bets["b"]


@pytest.mark.parametrize("pair", list(PAIRS))
def test_every_kind_of_key_tells_the_pair_apart(pair, punto_banco, tmp_path) -> None:
    """The keys of the bet-event matrix, the light form and the factorised entry differ for
    the two bets of each pair (their old keys were one), and a key is the same text for the
    same bet loaded twice (an entry is found again)."""
    from exact.core.cards import CARDS
    from exact.engines import batch, compiled_python, factorised
    from exact.model.game import compiled_key

    first, second = _pair_bets(punto_banco, pair, tmp_path)
    again, _ = _pair_bets(punto_banco, pair, tmp_path / "..")
    needs = punto_banco.needs(first.features | second.features)
    parts, cards = compiled_key(punto_banco, needs), frozenset(CARDS[:52])
    makers = [lambda bet: batch.event_matrix_key(punto_banco, needs, bet),
              lambda bet: compiled_python.light_key(parts, [bet]),
              lambda bet: factorised.entry_key(punto_banco, (bet,), cards)]
    for make in makers:
        assert make(first) != make(second)
        assert make(first).text != make(second).text and \
            make(first).digest != make(second).digest
        assert make(first) == make(again)
    light_key = compiled_python.light_key
    assert light_key(parts, [first, second]) != light_key(parts, [second, first])


def _one_event_key(punto_banco, when: str, name: str = "Win") -> str:
    from exact.engines import batch
    from exact.model.bets import LOSE, Bet, Event
    from exact.model.expressions import Expression

    bet = Bet("x", "x", (Event(name, Expression.parse(when), LOSE), Event("Loses", None, LOSE)))
    return batch.event_matrix_key(punto_banco, punto_banco.needs(bet.features), bet).text


def test_a_key_holds_the_parsed_condition_not_its_text(punto_banco) -> None:
    """Conditions differing only in comments, spacing or brackets share a key (one tree);
    a string literal, a name, a number's type or an event's name do not."""
    key = _one_event_key(punto_banco, "winner == 'tie'")
    for same in ("winner=='tie'", "(winner == 'tie')  # the Tie", "winner == \"tie\" #|x"):
        assert _one_event_key(punto_banco, same) == key
    for other in ("winner == 'tie|'", "winner == 'banker'", "'tie' == winner",
                  "winner != 'tie'", "winner == 'tie' and True", "winner == 'tie' and 1"):
        assert _one_event_key(punto_banco, other) != key
    assert _one_event_key(punto_banco, "winner == 'tie'", name="Win|") != key
    assert _one_event_key(punto_banco, "winner == 'tie' and True") != \
        _one_event_key(punto_banco, "winner == 'tie' and 1")


def test_a_key_holds_plain_values_only() -> None:
    """Text, integers, booleans, None and lists: a float or an object (whose text would not be
    canonical) is refused, and values of different types never share a text."""
    from fractions import Fraction

    from exact.engines import cache

    for bad in (1.5, Fraction(1, 2), {"a": 1}, object(), b"x", {1}):
        with pytest.raises(TypeError):
            cache.cache_key("test", [bad])
    with pytest.raises(ValueError):
        cache.cache_key("Test.kind", [])
    values = [1, True, "1", "true", None, "null", [1], [[1]], ["1"], 0, False, "", []]
    assert len({cache.cache_key("test", [v]).text for v in values}) == len(values)
    assert cache.cache_key("test", ["a|b", "c"]) != cache.cache_key("test", ["a", "b|c"])
    assert cache.cache_key("test", ["a\nb"]) != cache.cache_key("test", ["a", "b"])
    assert cache.cache_key("one", ["x"]) != cache.cache_key("two", ["x"])


def test_an_entry_is_checked_against_its_full_key(punto_banco, tmp_path,
                                                  monkeypatch, capsys) -> None:
    """Were two keys' digests one (every key given one file name here), the second bet would
    meet the first's entry: its full key tells them apart, so it is treated as corrupt (one
    warning line), rebuilt, and each bet gets its own counts; an entry hashed for the right
    key but holding another key's text (a forger's) is refused by the full key it holds."""
    from exact.analysis.bet_analysis import analyze
    from exact.engines import batch, cache

    monkeypatch.setattr(cache.Key, "digest", property(lambda key: "0" * 64))
    first, second = _pair_bets(punto_banco, "name-and-comment", tmp_path)
    shoe = Shoe.standard(1)
    expected = {}
    for bet in (first, second):
        monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / f"alone-{bet.id}"))
        _forget()
        expected[bet.id] = analyze(punto_banco, shoe, [bet]).bets[bet.id].counts
    assert expected["a"] != expected["b"]
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "shared"))
    cache._WARNED.clear()
    for number, bet in enumerate((first, second, first)):
        _forget()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert analyze(punto_banco, shoe, [bet]).bets[bet.id].counts == expected[bet.id]
        messages = [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]
        if number == 0:  # nothing on disk yet
            assert messages == []
        else:  # the other bet's entry, under the one name: its content hash, which covers
            # the key's full text, fails (a forger's would pass it: see below)
            assert messages and all("content hash does not match" in message and
                                    message.endswith("; rebuilt") for message in messages)
        cache._WARNED.clear()
    # the entry of the first bet forged for the second: hashed for the second's key, the
    # first's key text kept in its metadata
    from tests.engines.test_cache import forge

    needs = punto_banco.needs(first.features)
    keys = [batch.event_matrix_key(punto_banco, needs, bet) for bet in (first, second)]
    path = cache.entry_path(keys[0])
    fields, arrays = cache.read_entry(path, keys[0])
    with io.BytesIO() as blob:
        np.save(blob, arrays["matrix"])
        path.write_bytes(forge(keys[0], fields, {"matrix": blob.getvalue()}, hash_key=keys[1]))
    with pytest.raises(cache.CorruptEntry, match="entry of another key"):
        cache.read_entry(path, keys[1])
    _forget()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert analyze(punto_banco, shoe, [second]).bets["b"].counts == expected["b"]
    assert any("entry of another key" in str(w.message) for w in caught)


# --- in one process ------------------------------------------------------------------------------
def _forget() -> None:
    """The in-memory forms of bets a process keeps in front of the disk, forgotten (the
    compiled deal, keyed by the game and needs alone, stays)."""
    from exact.engines import compiled_python, factorised

    compiled_python.forget()
    factorised._compiled_bet.cache_clear()


def _argv(command: str, bets: Path, *ids: str, seen: Path) -> list[str]:
    argv = [command, "punto-banco", "--decks", "1", "--bets", str(bets)]
    for bet_id in ids:
        argv += ["--bet", bet_id]
    if command == "edge":
        argv += ["--seen", str(seen)]
    return [*argv, "--json"]


COMMANDS = ("analyze", "eor", "edge")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("pair", list(PAIRS))
def test_cold_warm_and_mixed_orders_in_one_process(pair, command, tmp_path, monkeypatch,
                                                   capsys) -> None:
    from exact.cli.app import main

    bets, seen = tmp_path / "bets.toml", tmp_path / "seen.txt"
    bets.write_text(bet_file(pair))
    seen.write_text(SEEN)

    def run(directory: str, *ids: str) -> dict:
        monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / directory))
        _forget()
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheWarning)  # no entry of another key is met
            assert main(_argv(command, bets, *ids, seen=seen)) == 0
        out, err = capsys.readouterr()
        assert err == ""
        return json.loads(out)["bets"]

    cold = {bet_id: run(f"cold-{bet_id}", bet_id) for bet_id in "ab"}
    # A then B and B then A in one directory (each bet in the directory the other warmed),
    # then warm again after the other; both together in one run, cold and warm (the entries
    # of both bets read in one run)
    assert run("cold-a", "b") == cold["b"] and run("cold-b", "a") == cold["a"]
    assert run("cold-a", "a") == cold["a"] and run("cold-b", "b") == cold["b"]
    for _ in range(2):
        assert run("both", "a", "b") == {**cold["a"], **cold["b"]}
    if command == "analyze":  # the entries the pair's bets went through: of the right kind
        kinds = {path.suffix for path in (tmp_path / "cold-a").iterdir()}
        assert (".factorised" in kinds) == pair.startswith("card"), kinds


# --- through the command line, in fresh processes -------------------------------------------------
@pytest.fixture(scope="module")
def compiled_entries(tmp_path_factory) -> list[Path]:
    """The compiled deals' entries (keyed by the game and needs alone, no bet), made once: each
    fresh directory below starts with them, so a cold run of a bet compiles no deal (seconds)
    and builds only the entries of its bet."""
    directory = tmp_path_factory.mktemp("compiled")
    subprocess.run([sys.executable, "-m", "exact", "analyze", "punto-banco", "--decks", "1",
                    "--bet", "tie"], check=True, capture_output=True, timeout=300,
                   env={**os.environ, "EXACT_CACHE_DIR": str(directory),
                        "PYTHONPATH": str(Path(__file__).parents[2])})
    found = sorted(directory.glob("*.compiled"))
    assert found
    return found


def _fresh(command: str, bets: Path, directory: Path, bet_id: str, seen: Path,
           compiled: list[Path]) -> dict:
    if not directory.exists():
        directory.mkdir()
        for entry in compiled:
            shutil.copy(entry, directory / entry.name)
    ran = subprocess.run([sys.executable, "-m", "exact", *_argv(command, bets, bet_id,
                                                                   seen=seen)],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "EXACT_CACHE_DIR": str(directory),
                              "PYTHONPATH": str(Path(__file__).parents[2])})
    assert ran.returncode == 0 and ran.stderr == "", ran.stderr[-2000:]
    return json.loads(ran.stdout)["bets"]


# Every pair through a fresh `analyze` (the light form); eor and edge each on one value-level
# and one card-level pair, the others `slow` (the in-process test covers them)
FAST = {("analyze", "name-and-comment"), ("analyze", "string-literal"),
        ("analyze", "card-string-literal"), ("eor", "card-string-literal"),
        ("eor", "name-and-comment"), ("edge", "card-name-and-comment"),
        ("edge", "string-literal")}
FRESH = [pytest.param(pair, command, marks=[] if (command, pair) in FAST else [pytest.mark.slow])
         for pair in PAIRS for command in COMMANDS]


@pytest.mark.parametrize(("pair", "command"), FRESH)
def test_cold_warm_and_mixed_orders_through_the_command_line(pair, command, tmp_path,
                                                             compiled_entries) -> None:
    """Fresh processes: A and B cold in fresh directories, then each in the directory the
    other warmed (A then B, B then A)."""
    bets, seen = tmp_path / "bets.toml", tmp_path / "seen.txt"
    bets.write_text(bet_file(pair))
    seen.write_text(SEEN)
    def fresh(directory: str, bet_id: str) -> dict:
        return _fresh(command, bets, tmp_path / directory, bet_id, seen, compiled_entries)

    cold = {bet_id: fresh(bet_id, bet_id) for bet_id in "ab"}
    assert fresh("a", "b") == cold["b"] and fresh("b", "a") == cold["a"]


def test_the_code_stamp_follows_every_file_of_the_package_but_its_bytecode(
        tmp_path, monkeypatch) -> None:
    """The stamp changes when a module or a data file is edited, even to the same size with
    its modification time set back, or when a file is added; it does not when bytecode is
    written, and it is the same when read twice, and for a copy of the same files (another
    status: its bytes are read again, then kept under the copy's status)."""
    from exact.engines.cache_keys import code_stamp

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    stamp = code_stamp.__wrapped__  # unmemoised: each call reads the folder
    package = tmp_path / "exact"
    (package / "engines" / "__pycache__").mkdir(parents=True)
    module, data = package / "engines" / "walk.py", package / "rules.toml"
    module.write_text("LIMIT = 1\n")
    data.write_text("decks = 8\n")
    first = stamp(package)
    assert stamp(package) == first
    kept = list((tmp_path / "cache" / "code").iterdir())
    assert [path.read_text() for path in kept] == [first]
    kept[0].write_text("not a digest")  # a damaged file is read past, and written anew
    assert stamp(package) == first and kept[0].read_text() == first
    (package / "engines" / "__pycache__" / "walk.cpython-311.pyc").write_bytes(b"\0" * 16)
    assert stamp(package) == first
    time.sleep(0.05)
    copy = shutil.copytree(package, tmp_path / "copy" / "exact")
    assert stamp(copy) == first
    assert len(list((tmp_path / "cache" / "code").iterdir())) == 2
    seen = {first}
    for path, text in ((module, "LIMIT = 2\n"), (data, "decks = 6\n")):
        time.sleep(0.05)  # past the kernel clock's tick, which stamps a file's times
        status = path.stat()
        path.write_text(text)
        os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
        assert path.stat().st_size == status.st_size
        seen.add(stamp(package))
    (package / "engines" / "new.py").write_text("")
    seen.add(stamp(package))
    assert len(seen) == 4


def test_a_killed_code_stamp_writers_temporary_file_is_removed_once_stale(
        tmp_path, monkeypatch) -> None:
    """A writer of a kept code digest killed before its rename leaves its temporary file in
    ``code/`` (the entries' sweep scans only the cache folder itself): the next digest written
    removes it once stale, and leaves a fresh one (a live writer) and any other file."""
    from exact.engines.cache_keys import STALE_TEMPORARY_SECONDS, code_stamp

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    package = tmp_path / "exact"
    package.mkdir()
    (package / "walk.py").write_text("LIMIT = 1\n")
    code = tmp_path / "cache" / "code"
    code.mkdir(parents=True)
    stale = time.time() - STALE_TEMPORARY_SECONDS - 60
    killed, live, foreign = (code / f".{'ab' * 16}.0f1e2d3c.tmp", code / f".{'cd' * 16}.1a2b.tmp",
                             code / ".notes.txt.1a2b.tmp")
    for planted in (killed, live, foreign):
        planted.write_bytes(b"")
    for planted in (killed, foreign):
        os.utime(planted, (stale, stale))
    code_stamp.__wrapped__(package)
    left = {path.name for path in code.iterdir()}
    assert killed.name not in left and {live.name, foreign.name} <= left and len(left) == 3


def test_edited_code_never_reads_the_entries_of_the_code_before(tmp_path) -> None:
    """A copy of the package run twice reads its entries the second time (no new file); after
    one of its modules is edited it writes its own (the version is the same: before the stamp
    was in the key, the edited code read what the code before it wrote)."""
    copy = tmp_path / "checkout"
    shutil.copytree(CHECKOUT / "exact", copy / "exact",
                    ignore=shutil.ignore_patterns("__pycache__"))
    entries = tmp_path / "cache"
    environment = {**os.environ, "PYTHONPATH": str(copy), "EXACT_CACHE_DIR": str(entries)}

    def run() -> set[str]:
        code = "import exact; print(exact.__file__, flush=True); import exact.__main__"
        done = subprocess.run([sys.executable, "-c", code, "analyze", "punto-banco", "--decks",
                               "1", "--bet", "tie"], capture_output=True, text=True,
                              env=environment, cwd=tmp_path, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(str(copy / "exact")), done.stdout[:200]  # the copy ran
        return {path.name for path in entries.iterdir()}

    first = run()
    assert first and run() == first
    time.sleep(0.05)
    with (copy / "exact" / "engines" / "compiled_python.py").open("a") as module:
        module.write("# edited\n")
    assert run() - first
