"""Hostile inputs found by the second hostile-input review (notes in the commit messages):
each a regression test, fast (in-process where the contract allows it)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from exact.cli.app import main
from exact.core import parsing
from exact.errors import BetFileError, InputError
from exact.games import get_game
from exact.model.bets import load_bets


def _bet(condition: str) -> str:
    return f"[[bet]]\nid = \"x\"\n[[bet.event]]\nname = \"Win\"\nwhen = '''{condition}'''\npays = 1\n"


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
    started = time.monotonic()
    assert main([a.format(f=fifo) for a in argv]) == 2
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
