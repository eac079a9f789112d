"""The disk cache (exact/engines/cache.py) never runs code and never trusts a damaged entry.

For every kind of entry (compiled deals, bet-event matrices, century21 settled outcomes, its
table's seat joints and seat tables, the factorised counter's compiled bets, light forms) a
damaged file is planted exactly where the entry goes; the real computation must then ignore it
(no planted code runs), raise exactly one warning (one line, which the command line prints
when the run succeeds), give the result computed with no cache, and leave a valid rebuilt
entry behind.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import shlex
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.analysis.bet_analysis import game_bets
from exact.core.cards import Shoe
from exact.engines import batch, cache, cache_entries, compiled_python
from exact.engines.compiled import CompiledDeal
from exact.engines.compiled_store import (
    SMALL_DEAL_RECORDS,
    _decode_compiled,
    _decode_events,
    compiled_for,
)
from exact.errors import CacheWarning
from exact.games.century21.batch import (
    Century21Evaluator,
    _decode_settled,
    _key_parts,
    compiled_pair,
    evaluator_for,
)
from exact.model.game import compiled_key


@pytest.fixture(autouse=True)
def _small_deals_kept(keep_small_deals) -> None:
    """Every test here writes and reads entries of small deals (quick to build)."""


class _Planted:
    """Unpickling this object runs a shell command that creates ``marker``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {shlex.quote(str(self.marker))}",))


def _entries(folder: Path) -> list[Path]:
    """The cache folder's files but the code stamps' folder (``code/``, not an entry)."""
    return [path for path in folder.iterdir() if path.name != "code"]


def planted_pickle(marker: Path) -> bytes:
    return pickle.dumps(_Planted(marker))


def planted_npy(marker: Path) -> bytes:
    """A .npy blob of object dtype whose loading with pickling allowed runs the command."""
    array = np.empty(1, dtype=object)
    array[0] = _Planted(marker)
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=True)
    return buffer.getvalue()


def test_the_planted_payloads_do_run_code_when_unpickled(tmp_path) -> None:
    # the payloads below are real: unpickling them creates the marker
    marker = tmp_path / "MARKER"
    pickle.loads(planted_pickle(marker))
    assert marker.exists()
    marker.unlink()
    np.load(io.BytesIO(planted_npy(marker)), allow_pickle=True)
    assert marker.exists()


@contextmanager
def cache_warnings() -> Iterator[list[str]]:
    """The messages of the cache warnings raised inside the block (each one: no filter hides
    a repeat), in a list filled when the block ends."""
    messages: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield messages
    messages.extend(str(w.message) for w in caught if issubclass(w.category, CacheWarning))


def test_the_command_line_prints_a_cache_warning_only_when_the_run_succeeds(
        tmp_path, monkeypatch, capsys) -> None:
    """A damaged entry is one 'exact: warning:' line after a successful run's output, as the
    command line prints every warning of a run; a run that then fails prints its error line
    alone (the warning was raised, not printed)."""
    from exact.cli.app import main

    argv = ["analyze", "punto-banco", "--decks", "1", "--bet", "tie"]

    def damaged_run(directory: Path, *more: str) -> tuple[int, str, str, list[Path]]:
        monkeypatch.setenv("EXACT_CACHE_DIR", str(directory))
        for clear in (compiled_python.forget, compiled_for.cache_clear):
            clear()  # the in-memory forms would hide the disk
        assert main(argv) == 0
        clean = capsys.readouterr().out
        entries = sorted(_entries(directory))
        for path in entries:
            path.write_bytes(b"not an entry")
        for clear in (compiled_python.forget, compiled_for.cache_clear):
            clear()
        status = main([*argv, *more])
        out, err = capsys.readouterr()
        assert status != 0 or out == clean
        return status, out, err, entries

    def full_disk(*_: object, **__: object) -> None:  # the write fails only once it is made
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("exact.core.files.replace_atomically", full_disk)
    status, _, error, entries = damaged_run(tmp_path / "failing", "--output",
                                            str(tmp_path / "file.txt"))
    assert status == 2 and error.count("\n") == 1 and error.startswith("exact: error: ")
    assert any(str(path) in cache._WARNED for path in entries)  # raised, not printed
    status, _, error, entries = damaged_run(tmp_path / "succeeding")
    lines = error.splitlines()
    assert status == 0 and lines
    assert all(line.startswith("exact: warning: cache entry ") and line.endswith("; rebuilt")
               for line in lines)
    assert {line.split()[4] for line in lines} <= {str(path) for path in entries}


# --- building entries by hand (the layout of exact/engines/cache_entries.py's docstring) ---------
def npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def forge(key: cache.Key, fields: dict, blobs: dict[str, bytes],
          hash_key: cache.Key | str | None = None, digest: bytes | None = None) -> bytes:
    """An entry file of ``key``; hashed for ``hash_key`` (default ``key``; "" hashes without
    a key) or with a given ``digest`` line."""
    names = [[name, len(blob)] for name, blob in blobs.items()]
    metadata = json.dumps({"kind": key.kind, "key": key.text, "fields": fields,
                           "arrays": names, "decimal": []}).encode()
    payload = b"%d\n" % len(metadata) + metadata + b"".join(blobs.values())
    if digest is None:
        hashed = hash_key if isinstance(hash_key, cache.Key) else key
        prefix = b"" if hash_key == "" else hashed.text.encode() + b"\n"
        digest = hashlib.sha256(prefix + payload).hexdigest().encode()
    return cache_entries._MAGIC + digest + b"\n" + payload


# --- the three kinds of entry --------------------------------------------------------------
@dataclass
class Kind:
    kind: str
    key: Callable[[], cache.Key]
    run: Callable[[], object]
    decode: Callable[[dict, dict], object]
    alter: Callable[[dict, dict], None]  # (fields, arrays): a change keeping shapes and ranges
    break_: Callable[[dict, dict], None]  # (fields, arrays): a change no correct entry holds


def _punto_banco(kind: str, punto_banco) -> Kind:
    bet = next(b for b in game_bets(punto_banco) if b.id == "player-pair")
    needs = punto_banco.needs(bet.features)
    deal = punto_banco.deal(needs)
    shoes = [Shoe.standard(1), Shoe.standard(1).remove("A 9 K KH")]

    def run() -> object:
        compiled_for.cache_clear()  # the in-memory cache would hide the disk
        return batch.BetEvaluator(punto_banco, [bet]).expected_values(shoes)

    if kind == "compiled":
        def break_(fields: dict, arrays: dict) -> None:
            arrays["leaf_record"][0] = arrays["records"].shape[0]

        return Kind(kind, lambda: cache.cache_key("compiled", compiled_key(punto_banco, needs)),
                    run, partial(_decode_compiled, deal),
                    lambda fields, arrays: arrays["leaf_coefficient"].__setitem__(
                        0, arrays["leaf_coefficient"][0] + 1), break_)
    compiled = CompiledDeal.compile(deal)

    def alter(fields: dict, arrays: dict) -> None:  # a term's coefficient moved to another event
        matrix = arrays["matrix"]
        row = next(i for i, r in enumerate(matrix) if not np.array_equal(r, r[::-1]))
        matrix[row] = matrix[row][::-1]

    def break_(fields: dict, arrays: dict) -> None:
        arrays["matrix"][0, 0] += 1

    return Kind(kind, lambda: batch.event_matrix_key(punto_banco, needs, bet), run,
                partial(_decode_events, compiled, len(bet.events)), alter, break_)


@pytest.fixture(scope="module")
def century21_deal():
    """The House Way pair's deal, compiled (or read) once and kept in memory: only its settled
    outcomes are tested here. Settling its 275,000 records takes seconds, so the first
    settlement is real and later ones (each rebuild) return a copy of it: the cache path
    around them (read, check, warn, rebuild, write) is the real one every time."""
    deal = evaluator_for().deal
    compiled_pair(deal)
    settle = Century21Evaluator._settle
    first: list = []

    def settle_once(evaluator: Century21Evaluator):
        if not first:
            first.append(settle(evaluator))
        outcomes, of_record = first[0]
        return list(outcomes), of_record.copy()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Century21Evaluator, "_settle", settle_once)
        yield deal


def _century21(deal) -> Kind:
    def run() -> object:
        return Century21Evaluator(deal).expected_values([Shoe.standard(1, jokers=1),
                                                         Shoe.standard(1, jokers=1).remove("X")])

    def alter(fields: dict, arrays: dict) -> None:
        arrays["of_record"][0] = 1 - min(arrays["of_record"][0], 1)

    def break_(fields: dict, arrays: dict) -> None:
        arrays["of_record"][0] = arrays["of_record"].max() + 1

    return Kind("outcomes", lambda: cache.cache_key("outcomes", _key_parts(deal)), run,
                partial(_decode_settled, len(compiled_pair(deal).records)), alter, break_)


def _factorised(punto_banco) -> Kind:
    """The factorised counter's compiled bet (exact/engines/factorised.py): a bet on the colours of
    the first cards by position, on two 2-deck shoes that hold every card (one entry)."""
    from exact.core.cards import CARDS
    from exact.engines import factorised

    bet_file = Path(__file__).parents[1] / "data" / "card_level_bets.toml"
    bets = tuple(b for b in game_bets(punto_banco, [bet_file]) if b.id == "red-first-card")
    shoes = [Shoe.standard(2), Shoe.standard(2).remove("A 9 K KH")]
    cards = frozenset(CARDS[:52])

    def run() -> object:
        factorised._compiled_bet.cache_clear()  # the in-memory cache would hide the disk
        return [factorised.evaluate(punto_banco, bets, shoe) for shoe in shoes]

    def alter(fields: dict, arrays: dict) -> None:  # a coefficient changed, shapes kept
        arrays["pair_coefficient"][0] += 1

    def break_(fields: dict, arrays: dict) -> None:  # an event past the bet's events
        arrays["combo_event"][0] = sum(len(bet.events) for bet in bets)

    return Kind("factorised", lambda: factorised.entry_key(punto_banco, bets, cards), run,
                lambda fields, arrays: factorised._decode(punto_banco, bets, cards, arrays),
                alter, break_)


def _classes(punto_banco) -> Kind:
    """A bet on the Player's third card compiled class by class (exact/engines/classes.py),
    for the cards of two small shoes."""
    from exact.core.cards import CARDS
    from exact.engines import classes

    bet_file = Path(__file__).parents[1] / "data" / "attribute_bets.toml"
    bets = tuple(b for b in game_bets(punto_banco, [bet_file]) if b.id == "nine-of-spades")
    shoes = [Shoe.parse("9S:2,9H:1,KH:2,5D:1,2C:2,AH:1"),
             Shoe.parse("9S:1,9H:1,KH:1,5D:1,2C:2,AH:1")]
    cards = frozenset(CARDS[i] for i, count in enumerate(shoes[0].counts) if count)

    def run() -> object:
        classes._cached.cache_clear()  # the in-memory cache would hide the disk
        return [classes.evaluate(punto_banco, bets, shoe) for shoe in shoes]

    def alter(fields: dict, arrays: dict) -> None:  # a multiplicity changed, shapes kept
        arrays["leaves"][0, 3] += 1

    def break_(fields: dict, arrays: dict) -> None:  # a node's parent past the trie's nodes
        arrays["nodes"][0, 0] = 10**6

    return Kind("classes", lambda: classes.entry_key(punto_banco, bets, cards), run,
                lambda fields, arrays: classes._decode(punto_banco, bets, cards, arrays),
                alter, break_)


def _light(punto_banco) -> Kind:
    """The light form of a few bets of a value-level deal (exact/engines/cache.py), which a fresh
    process reads without numpy: written by the first analysis, read by the next (numpy is
    loaded in the tests, so the reader is called as analysis calls it in a fresh process)."""
    from exact.analysis import bet_analysis as analysis

    bets = [b for b in game_bets(punto_banco) if b.id in ("banker", "tie", "dragon-7")]
    needs = punto_banco.needs(set().union(*(bet.features for bet in bets)))
    deal = punto_banco.deal(needs)
    shoes = [Shoe.standard(1), Shoe.standard(1).remove("A 9 K KH")]

    def run() -> object:
        found = compiled_python.load_light(compiled_key(punto_banco, needs), bets, deal)
        if found is None:  # as a first analysis does: the compiled path, which writes it
            compiled_python.forget()
            analysis.analyze(punto_banco, shoes[0], bets)
            found = compiled_python.load_light(compiled_key(punto_banco, needs), bets, deal)
        return [found.counts(shoe) for shoe in shoes]

    def alter(fields: dict, arrays: dict) -> None:  # a coefficient moved to another column
        matrix, width = fields["matrices"][0], fields["widths"][0]
        row = next(r for r in range(0, len(matrix), width) if matrix[r])
        matrix[row], matrix[row + 1] = matrix[row] - 1, matrix[row + 1] + 1

    def break_(fields: dict, arrays: dict) -> None:  # a coefficient with no counterpart
        fields["matrices"][0][0] += 1

    light = compiled_python
    return Kind("light", lambda: light.light_key(compiled_key(punto_banco, needs), bets), run,
                lambda fields, arrays: light.decode_light(fields, arrays,
                                                          tuple(len(b.events) for b in bets), deal),
                alter, break_)


def _seat_joint() -> Kind:
    """century21's exact joint of two seats' pays (exact/games/century21/table_joint.py), on
    a twelve-card shoe."""
    from exact.games.century21.full_table import lift_dealer
    from exact.games.century21.game import DEFAULT_RULES, game_table
    from exact.games.century21.table_joint import (
        _decode_joint,
        joint_key,
        joint_unit,
        seat_joint,
    )

    shoe = Shoe.parse("5:3,6:2,K:3,A:2,X:2")
    player, dealer = game_table(DEFAULT_RULES, shoe).house_way()

    def alter(fields: dict, arrays: dict) -> None:  # two probabilities exchanged: still one
        joint = fields["joint"]
        other = next(i for i, entry in enumerate(joint) if entry[1] != joint[0][1])
        joint[0][1], joint[other][1] = joint[other][1], joint[0][1]

    def break_(fields: dict, arrays: dict) -> None:  # probabilities no longer summing to 1
        fields["joint"][0][1][0] += 1

    return Kind("seat-joint", lambda: joint_key(DEFAULT_RULES, shoe, [player] * 2, dealer,
                                                "total"),
                lambda: seat_joint(DEFAULT_RULES, shoe, [player] * 2, dealer),
                partial(_decode_joint, 2, joint_unit(shoe, 2, lift_dealer(dealer, 2))), alter,
                break_)


def _seat_table() -> Kind:
    """century21's seat table at a table of two (exact/games/century21/full_table.py): the
    seat values read from it, a fresh game each run (a game keeps its tables in memory)."""
    from exact.games.century21.full_table import TableGame, _decode_table
    from exact.games.century21.game import DEFAULT_RULES

    shoe = Shoe.parse("5:3,6:2,K:3,A:2,X:2")

    def run() -> object:
        game = TableGame(DEFAULT_RULES, shoe, 2)
        return game.seat_values(*game.house_way())

    def key() -> cache.Key:
        game = TableGame(DEFAULT_RULES, shoe, 2)
        return game.table_key([game._draw_matrix(game.house_way()[0][1])])

    def alter(fields: dict, arrays: dict) -> None:  # a value changed, shapes kept
        fields["values"][0] += 1

    def break_(fields: dict, arrays: dict) -> None:  # an up card past the classes
        arrays["rows"][0, 0] = 11

    return Kind("seat-table", key, run, partial(_decode_table, 0, 2, 1), alter, break_)


KINDS = ("compiled", "bet-events", "outcomes", "factorised", "classes", "light", "seat-joint",
         "seat-table")


def test_every_kind_of_entry_the_package_writes_is_planted() -> None:
    """The kinds above are every kind the package stores (so a new kind cannot escape the
    planted-file tests): each ``cache_key("KIND", ...)`` call in exact/ (a doctest's example
    aside), and the light form's kind (exact/engines/compiled_python.py)."""
    import re

    package = Path(cache.__file__).parents[1]  # the whole package, not exact/engines/
    code = "\n".join(line for path in package.rglob("*.py")
                     for line in path.read_text().splitlines()
                     if not line.lstrip().startswith((">>>", "...")))
    written = set(re.findall(r"\bcache_key\(\s*\"([^\"]+)\"", code))
    assert written | {compiled_python.LIGHT} == set(KINDS)
    assert "cache.cache_key(LIGHT," in Path(compiled_python.__file__).read_text()


@pytest.fixture(params=KINDS)
def kind(request, punto_banco) -> Kind:
    if request.param == "outcomes":
        return _century21(request.getfixturevalue("century21_deal"))
    if request.param == "factorised":
        return _factorised(punto_banco)
    if request.param == "classes":
        return _classes(punto_banco)
    if request.param == "light":
        return _light(punto_banco)
    if request.param == "seat-joint":
        return _seat_joint()
    if request.param == "seat-table":
        return _seat_table()
    return _punto_banco(request.param, punto_banco)


_REFERENCES: dict[str, tuple[object, bytes, dict, dict]] = {}


def _reference(kind: Kind, directory: Path, monkeypatch) -> tuple[object, bytes, dict, dict]:
    """The result computed with no cache (once per kind), and the entry file it leaves
    (bytes, fields, arrays: a fresh copy for each test)."""
    if kind.kind not in _REFERENCES:
        monkeypatch.setenv("EXACT_CACHE_DIR", str(directory))
        result = kind.run()
        path = cache.entry_path(kind.key())
        fields, arrays = cache.read_entry(path, kind.key())
        _REFERENCES[kind.kind] = result, path.read_bytes(), fields, arrays
    result, valid, fields, arrays = _REFERENCES[kind.kind]
    return result, valid, json.loads(json.dumps(fields)), {n: a.copy() for n, a in arrays.items()}


def _damaged(kind: Kind, damage: str, valid: bytes, fields: dict, arrays: dict,
             marker: Path) -> bytes:
    key = kind.key()
    if damage == "pickle":
        return planted_pickle(marker)
    if damage == "npy-object":  # a well-formed entry, correct hash, arrays that would unpickle
        return forge(key, fields, {name: planted_npy(marker)
                                              for name in (arrays or ["planted"])})
    if damage == "flipped":
        middle = len(valid) // 2
        return valid[:middle] + bytes(b ^ 0xFF for b in valid[middle:middle + 8]) + \
            valid[middle + 8:]
    if damage == "truncated":
        return valid[:len(valid) * 2 // 3]
    if damage == "foreign":  # the same content stored for another key
        return forge(cache.cache_key(kind.kind, ["another entry"]), fields,
                     {name: npy(array) for name, array in arrays.items()})
    if damage == "other-key":  # another key's entry under this key's name, hashed for
        # this key (as if the two keys' digests were one): the full key in the metadata tells
        return forge(cache.cache_key(kind.kind, ["another entry"]), fields,
                     {name: npy(array) for name, array in arrays.items()}, hash_key=key)
    if damage == "broken":  # hashed correctly (a forger), but impossible data
        kind.break_(fields, arrays)
        return forge(key, fields, {name: npy(a) for name, a in arrays.items()})
    kind.alter(fields, arrays)  # altered data of the right shapes
    blobs = {name: npy(array) for name, array in arrays.items()}
    if damage == "altered-stale-hash":
        return forge(key, fields, blobs, digest=valid.split(b"\n")[1])
    assert damage == "altered-keyless-hash"
    return forge(key, fields, blobs, hash_key="")


DAMAGES = ["pickle", "npy-object", "flipped", "truncated", "altered-stale-hash",
           "altered-keyless-hash", "foreign", "other-key", "broken"]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_entry_is_rebuilt_with_one_warning(kind, damage, tmp_path, monkeypatch,
                                                     capsys) -> None:
    expected, valid, fields, arrays = _reference(kind, tmp_path / "clean", monkeypatch)
    marker = tmp_path / "MARKER"
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    path = cache.entry_path(kind.key())
    path.parent.mkdir()
    path.write_bytes(_damaged(kind, damage, valid, fields, arrays, marker))
    (path.parent / f"{kind.key().digest}.pickle").write_bytes(planted_pickle(marker))  # old
    capsys.readouterr()

    with cache_warnings() as caught:
        assert kind.run() == expected
    assert not marker.exists()
    assert len(caught) == 1 and caught[0].startswith(f"cache entry {path} ")
    assert caught[0].endswith("; rebuilt") and "\n" not in caught[0]
    assert capsys.readouterr().err == ""  # a warning, printed by the command line only
    with cache_warnings() as caught:
        assert kind.run() == expected  # the rebuilt entry is read back without a warning
    assert caught == [] and capsys.readouterr().err == ""
    assert cache.load(kind.key(), kind.decode) is not None
    assert not marker.exists()


def test_cold_and_warm_give_the_same_result_and_the_warm_run_reads_the_disk(
        kind, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    cold = kind.run()
    assert cold == _reference(kind, tmp_path / "clean", monkeypatch)[0]
    reads = []
    original = cache.read_entry
    monkeypatch.setattr(cache, "read_entry", lambda *a: reads.append(a[1].kind) or original(*a))
    with cache_warnings() as caught:
        warm = kind.run()
    assert warm == cold and kind.kind in reads
    assert caught == [] and capsys.readouterr().err == ""
    _, arrays = original(cache.entry_path(kind.key()), kind.key())
    assert all(a.dtype != object for a in arrays.values())


def test_a_compiled_deal_round_trips_exactly(punto_banco, tmp_path, monkeypatch) -> None:
    """Every field, to the types of the record parts (0 and False are equal but not alike)."""
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    deal = punto_banco.deal(punto_banco.needs(["player_pair"]))
    compiled = CompiledDeal.compile(deal)
    from exact.engines.compiled_store import load_or_compile
    load_or_compile(deal, ["round trip"], compile_deal=lambda _: compiled)
    read = load_or_compile(deal, ["round trip"], compile_deal=pytest.fail)
    assert repr(read.records) == repr(compiled.records)
    assert read.factors == compiled.factors and read.terms == compiled.terms
    for name in ("leaf_term", "leaf_record", "leaf_coefficient"):
        assert np.array_equal(getattr(read, name), getattr(compiled, name))


def test_python_integers_past_int64_are_kept_as_decimal_text(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    huge = np.array([[2**70, -(3**50)], [0, 7]], dtype=object)
    key = cache.cache_key("test", ["k"])
    cache.store(key, {"note": "x"}, {"huge": huge, "small": np.arange(3)})
    fields, arrays = cache.read_entry(cache.entry_path(key), key)
    assert fields == {"note": "x"} and arrays["huge"].tolist() == huge.tolist()
    assert arrays["small"].tolist() == [0, 1, 2]
    with pytest.raises(TypeError):
        cache.store(key, {}, {"fractions": np.array([Fraction(1, 2)], dtype=object)})


def test_an_entry_too_large_to_read_back_is_not_written(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    small, fits, large = (cache.cache_key("test", [name]) for name in ("small", "fits", "large"))
    cache.store(small, {}, {"a": np.arange(10)})
    size = cache.entry_path(small).stat().st_size
    monkeypatch.setattr(cache_entries, "MAX_ENTRY_BYTES", size)
    cache.store(fits, {}, {"a": np.arange(10)})
    cache.store(large, {}, {"a": np.arange(11)})
    assert sorted(_entries(tmp_path)) == sorted(map(cache.entry_path, (small, fits)))


def test_fifo_directory_and_huge_entries_neither_block_nor_stop_the_run(
        punto_banco, tmp_path, monkeypatch, capsys) -> None:
    kind = _punto_banco("compiled", punto_banco)
    expected, *_ = _reference(kind, tmp_path / "clean", monkeypatch)
    for number, plant in enumerate([os.mkfifo, os.mkdir, _huge, _link_to_fifo]):
        monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / str(number)))
        path = cache.entry_path(kind.key())
        path.parent.mkdir()
        plant(path)
        with cache_warnings() as caught:
            assert kind.run() == expected
        assert len(caught) == 1 and caught[0].endswith("; rebuilt")


def _link_to_fifo(path: Path) -> None:
    """A symlink to a FIFO outside the cache: refused by lstat, never opened."""
    fifo = path.parent.parent / "fifo"
    os.mkfifo(fifo)
    path.symlink_to(fifo)


def _huge(path: Path) -> None:
    with path.open("wb") as stream:
        stream.truncate(cache_entries.MAX_ENTRY_BYTES + 1)  # sparse: no disk used


def test_an_unwritable_cache_is_not_fatal(punto_banco, tmp_path, monkeypatch, capsys) -> None:
    kind = _punto_banco("compiled", punto_banco)
    expected, *_ = _reference(kind, tmp_path / "clean", monkeypatch)
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("EXACT_CACHE_DIR", str(blocker / "cache"))  # under a file: unwritable
    assert kind.run() == expected
    assert capsys.readouterr().err == ""


def test_concurrent_builders_leave_one_valid_entry(punto_banco, tmp_path, monkeypatch,
                                                   capsys) -> None:
    kind = _punto_banco("compiled", punto_banco)
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    deal = punto_banco.deal(punto_banco.needs(["player_pair"]))
    encoded = _encoded(CompiledDeal.compile(deal))
    threads = [threading.Thread(target=cache.store, args=(kind.key(), *encoded))
               for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [p.name for p in _entries(tmp_path)] == [f"{kind.key().digest}.compiled"]
    assert cache.load(kind.key(), partial(_decode_compiled, deal)) is not None
    # a reader while the entry is replaced again and again sees a whole entry every time
    writer = threading.Thread(target=lambda: [cache.store(kind.key(), *encoded)
                                              for _ in range(20)])
    writer.start()
    reads = []
    while writer.is_alive() or not reads:
        reads.append(cache.load(kind.key(), partial(_decode_compiled, deal)))
    writer.join()
    assert all(read is not None for read in reads)
    assert capsys.readouterr().err == ""


def _encoded(compiled: CompiledDeal) -> tuple[dict, dict]:
    from exact.engines.compiled_store import _encode_compiled
    return _encode_compiled(compiled)


@pytest.fixture(scope="module")
def fuzzed_entry(punto_banco, tmp_path_factory):
    """A valid compiled entry, the directory where damaged copies go, and its reader."""
    kind = _punto_banco("compiled", punto_banco)
    deal = punto_banco.deal(punto_banco.needs(["player_paired"]))
    directory = tmp_path_factory.mktemp("fuzz")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EXACT_CACHE_DIR", str(directory))
        cache.store(kind.key(), *_encoded(CompiledDeal.compile(deal)))
        entry = cache.entry_path(kind.key()).read_bytes()
    return kind.key(), entry, directory, partial(_decode_compiled, deal)


@settings(max_examples=200)
@given(data=st.data())
def test_no_damage_to_an_entry_escapes_the_checks(fuzzed_entry, data) -> None:
    """Random bytes changed, cut or inserted, with the hash left or recomputed (a forger):
    loading never raises and gives either nothing (warned) or a well-formed compiled deal."""
    key, valid, directory, decode = fuzzed_entry
    entry = bytearray(valid)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(entry)))
        action = data.draw(st.sampled_from(["set", "cut", "insert"]))
        if action == "set" and at < len(entry):
            entry[at] = data.draw(st.integers(0, 255))
        elif action == "cut":
            del entry[at:at + data.draw(st.integers(1, 64))]
        else:
            entry[at:at] = data.draw(st.binary(min_size=1, max_size=16))
    if data.draw(st.booleans()) and entry.count(b"\n") >= 2:
        header, _, payload = bytes(entry).split(b"\n", 2)
        digest = hashlib.sha256(key.text.encode() + b"\n" + payload).hexdigest()
        entry = bytearray(header + b"\n" + digest.encode() + b"\n" + payload)
    with pytest.MonkeyPatch.context() as patch, cache_warnings():  # a damaged one warns
        patch.setenv("EXACT_CACHE_DIR", str(directory))
        cache.entry_path(key).write_bytes(bytes(entry))
        found = cache.load(key, decode)
    if found is not None:
        compiled = found[0]
        assert len(compiled.leaf_term) == len(compiled.leaf_record)
        assert all(0 <= t < len(compiled.terms) for t in compiled.leaf_term.tolist())


_BUILDER = """
import sys
from exact.model.game import compiled_key
from exact.engines.compiled_store import load_or_compile
from exact.games import get_game
game = get_game("punto-banco")
needs = game.needs(["player_paired", "banker_paired"])
for _ in range(int(sys.argv[1])):
    compiled = load_or_compile(game.deal(needs), compiled_key(game, needs) + [sys.argv[2]])
print(len(compiled.records))
"""


def test_two_processes_building_the_same_entries_at_once(tmp_path) -> None:
    """Like two test or simulation workers: each builds (or reads) the same entries while the
    other writes them; both finish with the same result, silently, leaving valid entries."""
    environment = {**os.environ, "EXACT_CACHE_DIR": str(tmp_path),
                   "PYTHONPATH": str(Path(__file__).parents[2])}
    runs = [subprocess.Popen([sys.executable, "-c", _BUILDER, "3", name], env=environment,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for name in ("a", "b", "a", "b")]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0] * 4
    assert {out for out, _ in outputs} == {"8281\n"} and all(not err for _, err in outputs)
    assert sorted(p.suffix for p in _entries(tmp_path)) == [".compiled", ".compiled"]


_CONTENDER = """
import random, sys, time, warnings
from functools import partial
from pathlib import Path
from exact.core.cards import Shoe
from exact.engines import cache, cache_entries
from exact.engines.compiled_store import _decode_compiled, _encode_compiled
from exact.engines.compiled import CompiledDeal
from exact.errors import CacheWarning
from exact.games import get_game

writer, start = sys.argv[1], Path(sys.argv[2])
contenders, rounds = int(sys.argv[3]), int(sys.argv[4])
jitter = random.Random(int(sys.argv[5]))  # out of step with the others
warnings.simplefilter("error", CacheWarning)  # a warned read ends this process with it
game = get_game("punto-banco")
deal = game.deal(game.needs(["player_pair"]))
fresh = CompiledDeal.compile(deal)
encoded = _encode_compiled(fresh)
if writer == "in-place":  # the control: no temporary file, the entry rewritten where it lies
    def in_place(path, chunks):
        data = b"".join(chunks)
        path.parent.mkdir(exist_ok=True)
        with open(path, "wb") as stream:
            stream.write(data[:len(data) // 2])
            stream.flush()
            time.sleep(0.01)
            stream.write(data[len(data) // 2:])
    cache_entries.write_atomically = in_place
(start / str(time.time_ns())).touch()
deadline = time.monotonic() + 60
while len(list(start.iterdir())) < contenders and time.monotonic() < deadline:
    time.sleep(0.002)  # every process writes and reads while the others do
decode = partial(_decode_compiled, deal)
key = cache.cache_key("compiled", ["contended"])
for _ in range(rounds):
    time.sleep(jitter.uniform(0, 0.02))
    # a read at a random moment of the others' writes (a read just after one's own write
    # would mostly meet it, as every writer writes the same bytes)
    early = cache.load(key, decode)
    assert early is None or list(early[0].records) == list(fresh.records)
    cache.store(key, *encoded)
    found = cache.load(key, decode)
    assert found is not None and list(found[0].records) == list(fresh.records)
counts = found[0].distribution(Shoe.standard(1).remove("A 9 K KH")).counts
print(sorted(map(repr, counts.items())))
"""


def _contend(tmp_path: Path, writer: str, contenders: int = 3, rounds: int = 25
             ) -> list[tuple[int, str, str]]:
    """``contenders`` processes, started together, each writing the same entry and reading it
    back ``rounds`` times while the others do the same: (status, output, errors) of each."""
    start = tmp_path / "start"
    start.mkdir()
    environment = {**os.environ, "EXACT_CACHE_DIR": str(tmp_path / "cache"),
                   "PYTHONPATH": str(Path(__file__).parents[2])}
    runs = [subprocess.Popen([sys.executable, "-c", _CONTENDER, writer, str(start),
                              str(contenders), str(rounds), str(index)], env=environment,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for index in range(contenders)]
    outputs = [run.communicate(timeout=120) for run in runs]
    return [(run.returncode, out, err) for run, (out, err) in zip(runs, outputs, strict=True)]


def test_processes_writing_and_reading_one_entry_at_once_see_only_whole_entries(
        punto_banco, tmp_path) -> None:
    """Every read, in every process, while the others replace the entry again and again, is
    a whole entry (no CacheWarning, which ends the process) equal to a fresh compilation;
    the counts it gives are the direct enumerator's; one entry and no temporary file stay."""
    from exact.core.enumerator import enumerate_rounds

    deal = punto_banco.deal(punto_banco.needs(["player_pair"]))
    direct = enumerate_rounds(deal, Shoe.standard(1).remove("A 9 K KH")).counts
    results = _contend(tmp_path, "atomic")
    assert [(status, err) for status, _, err in results] == [(0, "")] * len(results)
    assert {out for _, out, _ in results} == {f"{sorted(map(repr, direct.items()))}\n"}
    contended = cache.cache_key("compiled", ["contended"])
    assert [p.name for p in _entries(tmp_path / "cache")] == [
        f"{contended.digest}.compiled"]


def test_the_contention_catches_a_writer_that_rewrites_the_entry_in_place(tmp_path) -> None:
    """The test above can fail: entries written where they lie (no temporary file) are read
    torn by the other processes, which meet a CacheWarning."""
    results = _contend(tmp_path, "in-place")
    assert any(status != 0 and "CacheWarning" in err for status, _, err in results)


_KILLED_WRITER = """
import os, signal
from exact.engines import cache
key = cache.cache_key("light", ["killed"])  # (the code's stamp kept first: a rename too)
os.replace = lambda *_, **__: os.kill(os.getpid(), signal.SIGKILL)  # killed before the rename
cache.store(key, {"n": 1}, {})
"""


@pytest.mark.skipif(os.name != "posix", reason="a writer killed by SIGKILL")
def test_a_killed_writers_temporary_file_is_never_read_and_is_removed_once_stale(
        tmp_path) -> None:
    environment = {**os.environ, "EXACT_CACHE_DIR": str(tmp_path),
                   "PYTHONPATH": str(Path(__file__).parents[2])}
    run = subprocess.run([sys.executable, "-c", _KILLED_WRITER], env=environment, timeout=60)
    assert run.returncode < 0  # killed
    [left] = _entries(tmp_path)
    killed = cache.cache_key("light", ["killed"])
    entry = f"{killed.digest}.light"
    assert left.name.startswith(f".{entry}.")  # a whole entry, but under no entry's name
    with cache_warnings() as caught, pytest.MonkeyPatch.context() as patch:
        patch.setenv("EXACT_CACHE_DIR", str(tmp_path))
        assert cache.load(killed, lambda fields, _: fields) is None  # missing
        live = tmp_path / f".{entry}.live"  # a writer still at work: kept
        live.write_bytes(b"")
        cache.store(killed, {"n": 2}, {})
        assert cache.load(killed, lambda fields, _: fields) == ({"n": 2},)
        assert {p.name for p in _entries(tmp_path)} == {left.name, live.name, entry}
        stale = time.time() - cache_entries.STALE_TEMPORARY_SECONDS - 60
        os.utime(left, (stale, stale))
        # another keyed entry's leftover goes too (that entry may only ever be read again);
        # a file of the folder this cache did not name stays, however old
        other = tmp_path / f".{cache.cache_key('compiled', ['other']).digest}.compiled.x1y2.tmp"
        foreign = tmp_path / ".notes.txt.x1y2.tmp"
        for planted in (other, foreign):
            planted.write_bytes(b"")
            os.utime(planted, (stale, stale))
        cache.store(killed, {"n": 3}, {})
    assert caught == []
    assert {p.name for p in _entries(tmp_path)} == {live.name, foreign.name, entry}


def test_a_small_deal_is_not_kept_on_disk(punto_banco, tmp_path, monkeypatch) -> None:
    """A deal of fewer records than SMALL_DEAL_RECORDS compiles faster than its entry is
    written: neither it nor its bets' event matrices are stored; a large one is."""
    from exact.engines import compiled_store as compiled_module

    # the shipped threshold (imported above), as this module's tests keep every deal
    monkeypatch.setattr(compiled_module, "SMALL_DEAL_RECORDS", SMALL_DEAL_RECORDS)
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    bet = next(b for b in game_bets(punto_banco) if b.id == "player-pair")
    needs = punto_banco.needs(bet.features)
    small = CompiledDeal.compile(punto_banco.deal(needs))
    assert len(small.records) < compiled_module.SMALL_DEAL_RECORDS
    compiled_module.load_or_compile(small.deal, ["small"], compile_deal=lambda _: small)
    batch.event_matrices(punto_banco, needs, small, [bet])
    assert list(_entries(tmp_path)) == []
    monkeypatch.setattr(compiled_module, "SMALL_DEAL_RECORDS", len(small.records))
    compiled_module.load_or_compile(small.deal, ["small"], compile_deal=lambda _: small)
    batch.event_matrices(punto_banco, needs, small, [bet])
    assert sorted(path.suffix for path in _entries(tmp_path)) == [".bet-events", ".compiled"]


def test_a_forged_light_form_whose_counts_do_not_sum_is_rebuilt(punto_banco, tmp_path,
                                                                 monkeypatch) -> None:
    """A light form hashed anew after its coefficients were all doubled passes every check of
    its fields (each matrix still partitions the terms alike), but its counts do not sum to
    N!/(N-r)! for a shoe: that was an AssertionError, a traceback in a fresh process (fuzz17).
    It is now a corrupt entry: warned once, None (the caller takes the compiled path, which
    rewrites it), and the same counts as with no cache once rebuilt."""
    from exact.analysis import bet_analysis as analysis

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    bets = [b for b in game_bets(punto_banco) if b.id in ("banker", "tie")]
    needs = punto_banco.needs(set().union(*(bet.features for bet in bets)))
    deal, parts, shoe = punto_banco.deal(needs), compiled_key(punto_banco, needs), \
        Shoe.standard(1)
    compiled_python.forget()
    expected = analysis.analyze(punto_banco, shoe, bets)  # writes the light form
    key = compiled_python.light_key(parts, bets)
    path = cache.entry_path(key)
    fields, _arrays = cache.read_entry(path, key)
    fields["matrices"] = [[2 * c for c in matrix] for matrix in fields["matrices"]]
    path.write_bytes(forge(key, fields, {}))
    with cache_warnings() as caught:
        assert compiled_python.light_counts(parts, bets, deal, shoe) is None
    assert len(caught) == 1 and "do not sum" in caught[0] and caught[0].endswith("; rebuilt")
    compiled_python.forget()
    again = analysis.analyze(punto_banco, shoe, bets)  # the compiled path rewrites the entry
    assert {b: r.counts for b, r in again.bets.items()} == \
        {b: r.counts for b, r in expected.bets.items()}
    with cache_warnings() as caught:
        counts = compiled_python.light_counts(parts, bets, deal, shoe)
    assert caught == [] and counts == [list(expected.bets[b.id].counts) for b in bets]
    # the command line in a fresh process (no numpy: the light form first) warns and succeeds
    path.write_bytes(forge(key, fields, {}))
    ran = subprocess.run([sys.executable, "-m", "exact", "analyze", "punto-banco", "--decks",
                          "1", "--bet", "banker", "--bet", "tie", "--json"],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "EXACT_CACHE_DIR": str(tmp_path)})
    assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stderr[-2000:]
    assert ran.stderr.startswith("exact: warning: cache entry ") and "do not sum" in ran.stderr
    assert json.loads(ran.stdout)["bets"]["banker"]["outcomes"][0]["combinations"] == \
        expected.bets["banker"].counts[0]
