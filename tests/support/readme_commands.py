"""The commands the README and the documentation site show, read from their ``sh`` blocks, so
that a test runs them all.

A documented command is one line of a fenced ``sh`` block of README.md or of a page under
docs/ (backslash continuations joined, ``# comments`` and ``[optional parts]`` dropped) that
runs the toolkit: ``exact ...``, ``.venv/bin/exact ...``, ``python -m exact ...``,
``.venv/bin/python -m exact ...``, optionally fed by ``echo "..." |``. ``make`` lines are not
commands of the toolkit: the Makefile's targets are run by CI itself (``make test``), by the
report tests (``make report``), by the site's build test (``make docs``) or are long or
interactive (``make bench``, ``make lab``, ``make simulate-10k``); ``make analyze`` is the
first analyze command.

Every file a documented command reads ships in ``examples/`` (named from the repository's
root, where the commands are run): :func:`copy_examples` lays them out for a test.
"""

from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"

_PREFIXES = (".venv/bin/python -m exact ", "python -m exact ", ".venv/bin/exact ", "exact ")
# The options whose value is a file the command reads (besides standard input).
READ_OPTIONS = ("--bets", "--table", "--table-hand", "--rules", "--seen", "--submission")


@dataclass(frozen=True)
class ReadmeCommand:
    """One toolkit command of the README or the site: its text, arguments, standard input and
    the page that shows it first."""

    text: str
    argv: tuple[str, ...]
    stdin: str
    page: str = field(default="", compare=False)

    @property
    def reads(self) -> tuple[str, ...]:
        """The files the command reads, as the command names them."""
        return tuple(value for option, value in zip(self.argv, self.argv[1:], strict=False)
                     if option in READ_OPTIONS and value != "-")

    @property
    def slug(self) -> str:
        """A file-name-safe name, unique among the documented commands."""
        words = [*self.argv] + (["stdin", self.stdin] if self.stdin else [])
        return re.sub(r"[^A-Za-z0-9=.,-]+", "_", " ".join(words)).strip("_")[:150]


def documented_pages() -> list[Path]:
    """README.md and every Markdown page of the site (not its build)."""
    pages = sorted(page for page in DOCS.rglob("*.md") if "_build" not in page.parts)
    return [README, *pages]


def readme_commands(readme: str | None = None) -> list[ReadmeCommand]:
    """Every distinct toolkit command of the README and the site (or of the text ``readme``),
    in order of appearance.

    >>> [command.argv for command in readme_commands(
    ...     "```sh\\nexact analyze x --decks 1  # note\\nmake test\\n```")]
    [('analyze', 'x', '--decks', '1')]
    """
    sources = ([("text", readme)] if readme is not None else
               [(str(page.relative_to(ROOT)), page.read_text(encoding="utf-8"))
                for page in documented_pages()])
    commands: dict[tuple[tuple[str, ...], str], ReadmeCommand] = {}
    for name, text in sources:
        for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
            for raw in block.replace("\\\n", " ").splitlines():
                line = re.sub(r"\s+#.*$", "", raw).strip()
                line = re.sub(r"\s*\[[^\]]*\]", "", line)
                command = _parse(line, name)
                if command is not None:
                    commands.setdefault((command.argv, command.stdin), command)
    return list(commands.values())


def _parse(line: str, page: str) -> ReadmeCommand | None:
    stdin = ""
    rest = line
    if rest.startswith("echo ") and "|" in rest:
        echoed, rest = (part.strip() for part in rest.split("|", 1))
        stdin = " ".join(shlex.split(echoed)[1:]) + "\n"
    for prefix in _PREFIXES:
        if rest.startswith(prefix):
            return ReadmeCommand(line, tuple(shlex.split(rest[len(prefix):])), stdin, page)
    return None


def doc_blocks(page: str, language: str) -> list[str]:
    """The fenced ``language`` blocks of a page of the site (``page`` relative to docs/).

    >>> doc_blocks("reference/library.md", "pycon")[0].startswith(">>> from exact")
    True
    """
    text = (DOCS / page).read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def included_files(page: str) -> list[Path]:
    """The files a page of the site shows whole (its ``literalinclude`` directives).

    >>> [path.name for path in included_files("how-to/side-bets-and-your-own-bets.md")]
    ['my-bets.toml']
    """
    text = (DOCS / page).read_text(encoding="utf-8")
    return [((DOCS / page).parent / name).resolve()
            for name in re.findall(r"```\{literalinclude\} (\S+)", text)]


def example_bets() -> str:
    """The example bet file of the site's "Side bets and your own bets"."""
    return (EXAMPLES / "bets" / "my-bets.toml").read_text(encoding="utf-8")


def copy_examples(directory: Path) -> None:
    """Lay out the shipped example files under ``directory`` as under the repository's root."""
    shutil.copytree(EXAMPLES, directory / "examples", dirs_exist_ok=True)
