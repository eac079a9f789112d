"""Every toolkit command the README and the documentation site (docs/) show runs, exits 0,
and prints exactly its recorded output in ``tests/golden/``.

The commands run in this process through :func:`exact.cli.app.main` (the console script's own
entry point), so that the compiled forms they share are built once. The golden outputs pin
every figure and every byte of the text, JSON and CSV the pages promise. A command reads
only files that ship (in ``examples/``), so every one of them has its golden. A command that
writes a workbook (``--xlsx``) also has its workbook pinned, as the canonical text of
:func:`tests.support.workbook.workbook_cells` (every sheet's cells: formula or typed value and
number format) in ``tests/golden/<command>.cells``: its layout and formulas, not the bytes
XlsxWriter happens to write. Regenerate them only for a reason stated in the commit:
``EXACT_UPDATE_GOLDEN=1 python -m pytest -m "" tests/system/test_readme_commands.py``.

A command whose path a cheaper documented command already covers may be marked ``slow`` (in
:data:`SLOW`): ``make test`` leaves it out, ``pytest -m slow`` runs it.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from exact.cli.app import main

from tests.support.readme_commands import (
    EXAMPLES,
    README,
    ROOT,
    ReadmeCommand,
    copy_examples,
    readme_commands,
)
from tests.support.workbook import workbook_cells

GOLDEN = Path(__file__).parents[1] / "golden"
COMMANDS = readme_commands()

# Compiling a second strategy pair costs ~10 s cold; `eor century21` covers the same path.
SLOW = {"eor century21 --decks 6 --strategy best --removal-set \"X X 9\" --json"}


def _bare(command: ReadmeCommand) -> str:
    """The command as written after its ``exact`` (however the page spells that)."""
    return command.text.split("exact ", 1)[1]


def _marks(command: ReadmeCommand) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow] if _bare(command) in SLOW else []


def test_the_readme_shows_commands_of_every_kind() -> None:
    verbs = {command.argv[0] for command in COMMANDS}
    assert {"analyze", "design", "eor", "edge", "simulate", "list-bets", "features"} <= verbs
    assert len({command.slug for command in COMMANDS}) == len(COMMANDS)
    assert {_bare(command) for command in COMMANDS} >= SLOW


def test_every_golden_belongs_to_a_documented_command() -> None:
    """A command moved between the README and the site keeps its golden; one dropped from
    both leaves no golden behind that nothing checks."""
    slugs = {command.slug for command in COMMANDS}
    orphans = [path.name for path in GOLDEN.iterdir() if path.name.rsplit(".", 1)[0] not in slugs]
    assert not orphans, orphans


def test_every_file_a_documented_command_reads_ships_in_examples() -> None:
    """No documented command reads a file the repository does not ship (issue 31)."""
    read = {name for command in COMMANDS for name in command.reads}
    assert read, "no documented command reads an example file"
    for name in read:
        assert name.startswith("examples/") and (ROOT / name).is_file(), name
    shipped = {str(path.relative_to(ROOT)) for path in EXAMPLES.rglob("*") if path.is_file()}
    assert shipped <= read, f"examples no documented command uses: {sorted(shipped - read)}"


def test_the_readme_is_short_and_its_commands_run_as_written() -> None:
    """The README stays a front page (at most 150 lines); its commands are among those run
    here, each spelled as a user types it after `source .venv/bin/activate` or with .venv/bin."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    mine = readme_commands(text)
    assert len(mine) >= 5 and set(mine) <= set(COMMANDS)


def test_exact_is_on_the_path_as_the_readme_says() -> None:
    """`source .venv/bin/activate` puts the console script `exact` on the path (the README's
    set-up): run as a user would, in a shell whose path does not have it before."""
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "activate").is_file():
        pytest.skip("the tests do not run from a virtual environment")
    path = os.pathsep.join(part for part in os.environ.get("PATH", "").split(os.pathsep)
                           if Path(part).resolve() != bin_dir.resolve())
    environment = {**os.environ, "PATH": path or "/usr/bin:/bin"}
    environment.pop("VIRTUAL_ENV", None)
    shell = subprocess.run(["bash", "-c", f'source "{bin_dir}/activate" && exact --version'],
                           capture_output=True, text=True, timeout=60, env=environment)
    assert shell.returncode == 0, shell.stderr
    assert shell.stdout == (GOLDEN / "--version.out").read_text(encoding="utf-8")


def run(command: ReadmeCommand, directory: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    copy_examples(directory)
    monkeypatch.chdir(directory)
    monkeypatch.setattr("sys.stdin", io.StringIO(command.stdin))
    status = main(list(command.argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("command", [pytest.param(command, id=command.slug, marks=_marks(command))
                                     for command in COMMANDS])
def test_readme_command(command: ReadmeCommand, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(command, tmp_path, monkeypatch, capsys)
    assert status == 0, f"{command.text}: exit {status}: {err}"
    assert "Traceback" not in err
    if "--json" in command.argv and "-o" not in command.argv:
        json.loads(out, parse_constant=lambda constant: pytest.fail(f"{constant} in JSON"))
    if "-o" in command.argv:
        written = tmp_path / command.argv[command.argv.index("-o") + 1]
        if command.argv[0] == "report":  # the PDF, and its data beside it
            assert written.read_bytes().startswith(b"%PDF-")
            json.loads((tmp_path / written.stem / "data.json").read_text(encoding="utf-8"))
        else:
            json.loads(written.read_text(encoding="utf-8"))
    _compare_with_golden(command, ".out", out)
    if "--xlsx" in command.argv:
        workbook = tmp_path / command.argv[command.argv.index("--xlsx") + 1]
        _compare_with_golden(command, ".cells", workbook_cells(workbook))


def _compare_with_golden(command: ReadmeCommand, suffix: str, text: str) -> None:
    golden = GOLDEN / f"{command.slug}{suffix}"
    if os.environ.get("EXACT_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden {suffix} for {command.text!r} (see the module docstring)"
    assert text == golden.read_text(encoding="utf-8"), f"{command.text}: {suffix} changed"


def test_a_documented_bet_file_joins_the_shipped_bets(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """At 8 decks the default analysis and the example bet file share one "bets" mapping."""
    from exact.core.enumerator import falling

    command, = (command for command in COMMANDS
                if command.reads == ("examples/bets/my-bets.toml",) and "--decks" in command.argv
                and "-o" not in command.argv and command.argv[0] == "analyze")
    status, out, err = run(command, tmp_path, monkeypatch, capsys)
    assert status == 0, err
    bets = json.loads(out)["bets"]
    assert {"banker", "player", "tie", "dragon-7", "both-natural-9", "combined-total"} <= set(bets)
    assert bets["dragon-7"]["group"] == "side" and bets["banker"]["group"] == "main"
    combinations = [outcome["combinations"] for outcome in bets["both-natural-9"]["outcomes"]]
    assert sum(combinations) == falling(416, 6)
