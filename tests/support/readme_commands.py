"""The commands the README shows, read from its ``sh`` blocks, so that a test runs them all.

A README command is one line of a fenced ``sh`` block (backslash continuations joined,
``# comments`` and ``[optional parts]`` dropped) that runs the toolkit: ``exact ...``,
``python -m exact ...``, ``.venv/bin/python -m exact ...``, optionally fed by ``echo "..." |``.
``make`` lines are not commands of the toolkit: the Makefile's targets are run by CI itself
(``make test``), by the report tests (``make report``) or are long or interactive (``make
bench``, ``make lab``, ``make simulate-10k``); ``make analyze`` is the first analyze command.

The files a command names but the README only describes (``my-bets.toml``, ``seen.txt``...)
are made by :func:`user_files` from the README's own TOML examples, or from the shipped data.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from tests.support.shipped import data_file

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

_PREFIXES = (".venv/bin/python -m exact ", "python -m exact ", "exact ")


@dataclass(frozen=True)
class ReadmeCommand:
    """One toolkit command of the README: its text, arguments and standard input."""

    text: str
    argv: tuple[str, ...]
    stdin: str

    @property
    def user_files(self) -> tuple[str, ...]:
        """The files the command reads that a user would write (see :func:`user_files`)."""
        return tuple(name for name in USER_FILES if name in self.argv)

    @property
    def slug(self) -> str:
        """A file-name-safe name, unique among the README's commands."""
        words = [*self.argv] + (["stdin", self.stdin] if self.stdin else [])
        return re.sub(r"[^A-Za-z0-9=.,-]+", "_", " ".join(words)).strip("_")[:150]


def readme_commands(readme: str | None = None) -> list[ReadmeCommand]:
    """Every distinct toolkit command of the README, in order of appearance.

    >>> [command.argv for command in readme_commands(
    ...     "```sh\\nexact analyze x --decks 1  # note\\nmake test\\n```")]
    [('analyze', 'x', '--decks', '1')]
    """
    text = README.read_text(encoding="utf-8") if readme is None else readme
    commands: dict[tuple[tuple[str, ...], str], ReadmeCommand] = {}
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        for raw in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", raw).strip()
            line = re.sub(r"\s*\[[^\]]*\]", "", line)
            command = _parse(line)
            if command is not None:
                commands.setdefault((command.argv, command.stdin), command)
    return list(commands.values())


def _parse(line: str) -> ReadmeCommand | None:
    stdin = ""
    rest = line
    if rest.startswith("echo ") and "|" in rest:
        echoed, rest = (part.strip() for part in rest.split("|", 1))
        stdin = " ".join(shlex.split(echoed)[1:]) + "\n"
    for prefix in _PREFIXES:
        if rest.startswith(prefix):
            return ReadmeCommand(line, tuple(shlex.split(rest[len(prefix):])), stdin)
    return None


def readme_bets() -> str:
    """The TOML examples of the README section "Side bets and your own bets"."""
    return "\n".join(readme_blocks("## Side bets and your own bets", "toml"))


def readme_blocks(heading: str, language: str) -> list[str]:
    """The fenced ``language`` blocks of the README section under ``heading`` (to the next
    heading of its level or above).

    >>> readme_blocks("### Adding a game", "toml")[0].startswith("# Dragon Tiger")
    True
    """
    lines = README.read_text(encoding="utf-8").splitlines(keepends=True)
    start = lines.index(heading + "\n")
    level = len(heading.split()[0])
    fenced, kept = False, []
    for line in lines[start + 1:]:
        fenced ^= line.startswith("```")
        heading_level = len(line) - len(line.lstrip("#"))
        if not fenced and 0 < heading_level <= level and line[heading_level:].startswith(" "):
            break
        kept.append(line)
    return re.findall(rf"```{language}\n(.*?)```", "".join(kept), flags=re.DOTALL)


def _readme_table_hand() -> str:
    """The README's example table file of ``settle century21 --table``."""
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("settles a table hand"):]
    return re.findall(r"```toml\n(.*?)```", section, flags=re.DOTALL)[0]


def _shipped(path: str) -> str:
    folder, _, name = path.partition("/")
    return data_file(folder, name).read_text(encoding="utf-8")


# The files README commands name; what a user would put there.
USER_FILES = {
    "my-bets.toml": readme_bets,
    "my_bets.toml": readme_bets,
    "my-nines.toml": lambda: _shipped("nine_and_nines/bets.toml"),
    "my_rules.toml": lambda: _shipped("century21/rules.toml"),
    "seen.txt": lambda: "9H 9D 8C 5S 2H\n",
    "hand.toml": _readme_table_hand,
    "submission.toml": lambda: readme_blocks("## Reports and notebooks", "toml")[0],
}


def user_files(directory: Path, command: ReadmeCommand) -> None:
    """Write the user files ``command`` reads into ``directory``."""
    for name in command.user_files:
        (directory / name).write_text(USER_FILES[name](), encoding="utf-8")
