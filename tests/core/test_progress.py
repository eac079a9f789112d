"""Progress bars (tqdm) on standard error, only when it is a terminal."""

from __future__ import annotations

import io
import sys

from exact.cli.app import main
from exact.core.progress import Tracker, status, steps


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bars_are_drawn_on_a_terminal_only(monkeypatch):
    monkeypatch.setenv("TQDM_MININTERVAL", "0")  # draw every step, however quick
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert list(steps(["a", "b"], "letters", "letter")) == ["a", "b"]
    tracker = Tracker("shoes", "shoe")
    tracker(3, 7)
    tracker(7, 7)
    with status("compiling a deal"):
        pass
    drawn = terminal.getvalue()
    assert "letters" in drawn and "2/2" in drawn and "shoes" in drawn and "7/7" in drawn
    assert "compiling a deal" in drawn
    plain = io.StringIO()
    monkeypatch.setattr(sys, "stderr", plain)
    assert list(steps(["a", "b"], "letters")) == ["a", "b"]
    Tracker("shoes")(7, 7)
    with status("compiling a deal"):
        pass
    assert plain.getvalue() == ""


def test_simulate_shows_its_shoes_and_the_result_is_unchanged(monkeypatch, capsys):
    monkeypatch.setenv("TQDM_MININTERVAL", "0")
    arguments = ["simulate", "punto-banco", "--shoes", "3", "--seed", "5", "--bet", "dragon-7"]
    assert main(arguments) == 0
    quiet = capsys.readouterr()
    assert quiet.err == ""
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(arguments) == 0
    assert capsys.readouterr().out == quiet.out
    assert "shoes" in terminal.getvalue() and "3/3" in terminal.getvalue()
