"""The assumptions behind a game's numbers, as data: the files its plugin record names
(:attr:`exact.model.plugins.GamePlugin.assumptions`, in the game's package).

Layer: analysis, above the games and beside the references; rendering, the reports
and the command line show its results.

Every analysis of a game carries them (the ``assumptions`` list of each command's JSON, a short
block at the end of its text, the Assumptions section of the game's PDF report), so a reader
of a figure sees what was assumed, why, and on what authority:

``seed``
    the game's rule text says so (``quote`` holds its words);
``seed-silent-industry-standard``
    the rule text is silent (or wrong) and the toolkit uses the industry standard;
``reading-chosen``
    the rule text admits several readings and the toolkit chose one (an option where a rule
    file can choose another);
``method``
    a modelling choice of the analysis itself (the shuffle, the counting unit).

>>> items = game_assumptions("punto-banco")
>>> {item.source for item in items} <= set(SOURCES)
True
>>> any("heading" in item.text for item in items)
True
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

import msgspec

from exact.core.parsing import load_toml, shown
from exact.core.records import FileRecord, Name, Text, structure
from exact.errors import AssumptionError as AssumptionError
from exact.errors import UnknownGameError
from exact.model.contracts import HasRules
from exact.model.plugins import plugin

Source = Literal["seed", "seed-silent-industry-standard", "reading-chosen", "method"]
SOURCES: dict[str, str] = dict(zip(get_args(Source), (
    "the game's rule text",
    "the rule text is silent; industry standard",
    "a reading chosen among several",
    "a modelling choice of the analysis",
), strict=True))
Command = Literal["analyze", "design", "eor", "simulate", "edge", "settle", "report"]
COMMANDS = tuple(command for command in get_args(Command) if command != "report")
"""The commands whose output carries the game's assumptions (not ``features``, ``list-bets``;
``report`` is the PDF report's)."""


@dataclass(frozen=True)
class Assumption:
    """One assumption: what was assumed, on what authority, and why."""

    id: str
    text: str
    source: str
    why: str
    quote: str = ""
    short: str = ""
    """A one-line form for text output (default: the first sentence of ``text``)."""
    when: tuple[tuple[str, object], ...] = ()
    """Rule settings the assumption holds under (an attribute of the game's rules -> value);
    empty: always."""
    commands: tuple[str, ...] = ()
    """The commands whose output it describes (of :data:`COMMANDS` and ``report``; empty: all):
    how the cards come out differs between them (a fresh shoe, cards removed, cards seen, a
    simulated shoe with its burn and cut card, one round's cards), and each states only its own."""

    def applies(self, rules: object) -> bool:
        return all(getattr(rules, name, None) == value for name, value in self.when)

    def for_command(self, command: str | None) -> bool:
        return not self.commands or command in self.commands

    def as_json(self, values: Mapping[str, str] | None = None) -> dict[str, str]:
        """The JSON form; ``{name}`` in the texts is replaced by ``values[name]`` (a command's
        settings, such as the simulated cut card)."""
        out = {"id": self.id, "text": self.text, "source": self.source, "why": self.why}
        if self.quote:
            out["quote"] = self.quote
        out["short"] = self.brief
        for key in ("text", "short", "why"):
            for name, value in (values or {}).items():
                out[key] = out[key].replace("{" + name + "}", value)
        return out

    @property
    def brief(self) -> str:
        if self.short:
            return self.short
        head, stop, _rest = self.text.partition(". ")
        return head + "." if stop else self.text


class AssumptionEntry(FileRecord, frozen=True):
    """An ``[[assumption]]`` table of a game's assumptions file (:class:`Assumption` once
    read: its texts on one line each)."""

    id: Name
    text: Text
    source: Source
    """Of :data:`SOURCES`."""
    why: Text
    quote: Text = Text("")
    """The rule text's words: needed by a ``seed`` assumption."""
    short: Text = Text("")
    when: dict[str, bool | int | str] = msgspec.field(default_factory=dict)
    commands: tuple[Command, ...] = ()


class AssumptionsFile(FileRecord, frozen=True):
    """A game's assumptions file: its ``[[assumption]]`` tables."""

    key_word = "top-level key"
    assumption: tuple[AssumptionEntry, ...] = ()


def _read(path: Path) -> tuple[Assumption, ...]:
    try:
        data = load_toml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise AssumptionError(f"{path}: cannot read assumptions: {error}") from None
    found = []
    for entry in structure(data, AssumptionsFile, path.name, AssumptionError).assumption:
        where = f"{path.name}: assumption {shown(entry.id)}"
        blank = [key for key in ("id", "text", "why") if not getattr(entry, key).strip()]
        if blank:
            raise AssumptionError(f"{where}: missing {', '.join(blank)}")
        if entry.source == "seed" and not entry.quote:
            raise AssumptionError(f"{where}: a seed assumption quotes the seed (quote = ...)")
        found.append(Assumption(str(entry.id), " ".join(entry.text.split()), entry.source,
                                " ".join(entry.why.split()), " ".join(entry.quote.split()),
                                " ".join(entry.short.split()), tuple(sorted(entry.when.items())),
                                tuple(entry.commands)))
    return tuple(found)


@cache
def _for_file(path: Path) -> tuple[Assumption, ...]:
    return _read(path)


def game_assumptions(game_id: str, rules: object = None, command: str | None = "analyze"
                     ) -> list[Assumption]:
    """The assumptions of ``game_id`` (its plugin's files in order, less those it omits: a
    variant adds its own to the shared coup's), those with a ``when`` kept only if ``rules``
    match it, those for some commands only if ``command`` is one (the default: ``analyze``'s,
    a fresh shoe's; None: every one)."""
    try:
        record = plugin(game_id)
    except UnknownGameError:  # a game object never registered: it states no assumptions
        return []
    found: list[Assumption] = []
    for path in record.assumptions:
        found.extend(_for_file(path))
    found = [item for item in found if item.id not in record.omitted_assumptions]
    return [item for item in found
            if (not item.when or rules is None or item.applies(rules))
            and (command is None or item.for_command(command))]


def _rules_of(game: object) -> object:
    return game.rules if isinstance(game, HasRules) else None


def assumptions_json(game: object, command: str | None = "analyze",
                     values: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """The ``assumptions`` list of ``command``'s JSON for ``game`` (a Game or a game id);
    ``values``: the command's settings its assumptions state (see :meth:`Assumption.as_json`)."""
    game_id = game if isinstance(game, str) else game.id  # type: ignore[attr-defined]  # any game-like
    rules = None if isinstance(game, str) else _rules_of(game)
    if command == "simulate" and values is None:  # the simulation's default burn and cut card
        from exact.analysis.shoe_play import ShoeRules

        values = ShoeRules().in_words()
    return [item.as_json(values) for item in game_assumptions(game_id, rules, command)]


def assumptions_text(items: Sequence[Mapping[str, str]]) -> str:
    """The short block that ends a command's text output.

    >>> print(assumptions_text([{"text": "A. B.", "short": "A.", "source": "seed"}]))
    Assumptions (source in brackets; the JSON has each in full, with its reason):
      - A. [seed]
    """
    lines = ["Assumptions (source in brackets; the JSON has each in full, with its reason):"]
    lines += [f"  - {item.get('short') or item['text']} [{item['source']}]" for item in items]
    return "\n".join(lines)


def add_to_output(game: object, text: str, as_json: bool, command: str | None = "analyze",
                  values: Mapping[str, str] | None = None) -> str:
    """``command``'s output with the game's assumptions added: an ``assumptions`` key in a JSON
    object (other JSON left as is), or the text block at the end of text output."""
    items = assumptions_json(game, command, values)
    if not items:
        return text
    if not as_json:
        return text.rstrip("\n") + "\n\n" + assumptions_text(items) + "\n"
    # a text that kept its data takes the field itself (exact.render.output.JsonText: the
    # layer above, so known by its method, not its type)
    kept = getattr(text, "data", None)
    if isinstance(kept, dict) and "assumptions" not in kept:
        kept_text: Any = text
        return str(kept_text.with_field("assumptions", items))
    try:
        data: Any = json.loads(text)
    except ValueError:
        return text
    if not isinstance(data, dict) or "assumptions" in data:
        return text
    data["assumptions"] = items
    try:
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError:  # a non-finite number: the command's own JSON stands as it was
        return text


@dataclass(frozen=True)
class CommandRun:
    """What the assumptions printed with a command's output depend on, made from its options
    at the command line's edge (:func:`exact.cli.edge.command_run`).

    ``rules``: the rules it ran under when a rule or table file chose them (None: the game's
    own); ``shoe``: ``simulate``'s burn and cut card in words (:meth:`ShoeRules.in_words`)."""

    command: str
    game: str
    json: bool = False
    csv: bool = False
    rules: object = None
    shoe: Mapping[str, str] | None = None


def add_for_command(run: CommandRun, text: str) -> str:
    """``text``, the output of a command line run, with the assumptions of its game added
    (see :func:`add_to_output`); CSV, the listing commands and an empty output (``--xlsx``
    alone, which README says prints nothing: the workbook is the result) are left as they are."""
    if run.command not in COMMANDS or run.csv or not text:
        return text
    from exact.model.plugins import get_game

    game: object = get_game(run.game)
    # the rules the command ran under (a rule file or a table file may choose another reading)
    if isinstance(game, HasRules) and run.rules is not None:
        game = _Named(run.game, run.rules)
    return add_to_output(game, text, run.json, run.command, run.shoe)


@dataclass(frozen=True)
class _Named:
    id: str
    rules: object


def report_assumptions(game: object) -> list[dict[str, str]]:
    """The assumptions as a PDF report shows them: each with its source in words."""
    return [{**item, "source_label": SOURCES[item["source"]]}
            for item in assumptions_json(game, "report")]
