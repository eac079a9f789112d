"""What a report is built of: the configuration submitted (game, shoe, wagers and paytables),
the submission's document control (a TOML file) and what reproduces the build.

Layer: reports, above rendering; only the command line and the lab sit above it.

A :class:`ReportConfig` is made at the edge: by ``exact report GAME ...`` from the same options
``analyze`` reads (so the report and ``analyze`` analyse the very same bets), or by
:meth:`ReportConfig.shipped` for the shipped reports (``make report``, ``python -m
exact.reports``). The report modules read only the record.

>>> config = ReportConfig.shipped("punto-banco")
>>> config.shoe is None and config.bets is None and config.options == ()
True
>>> Submission().absent()[:2]
['client or manufacturer', 'game name']
"""

from __future__ import annotations

import datetime
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Self

import msgspec

from exact.core.cards import Shoe
from exact.core.parsing import load_toml, parse_number, plain_text, read_user_file, shown_path
from exact.core.records import FileRecord, Money, Name, Text, structure
from exact.errors import ExactError, InputError, SubmissionError
from exact.model.bets import Bet
from exact.model.game import Game

# The document-control fields of a submission file, in the order the cover shows them:
# (key, label). ``client`` and ``manufacturer`` are one field for the absent list: either does.
FIELDS = (("client", "Client"), ("manufacturer", "Manufacturer"), ("game_name", "Game name"),
          ("rules_document", "Rules document"), ("rules_version", "Rules version"),
          ("jurisdiction", "Jurisdiction"), ("author", "Author"), ("reviewer", "Reviewer"),
          ("report_version", "Report version"))
MAX_REVISIONS = 200  # a history longer than this is not a report's document control


class RevisionDate(Name):
    """A revision's date: a TOML date (written back as ``2026-11-30``) or text as written."""

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            value = value.isoformat()
        return cls(plain_text(value, where, error))


class BetLimit(Money):
    """The table's largest bet: a positive amount of the number grammar's ``bet``."""

    @classmethod
    def read(cls, value: object, where: str, error: type[ExactError],
             number_error: type[InputError]) -> Self:
        limit = parse_number(value, "bet", where, number_error)
        if limit <= 0:
            raise error(f"{where} {limit}: must be positive")
        return cls(limit.numerator, limit.denominator)


class RevisionEntry(FileRecord, frozen=True):
    """A ``[[revision]]`` of a submission file: one line of the revision history."""

    version: Name
    date: RevisionDate
    description: Text


class SubmissionFile(FileRecord, frozen=True):
    """A submission file (``exact report GAME --submission FILE``): the report's document
    control, every key optional (the report names what is absent)."""

    client: Name = Name("")
    manufacturer: Name = Name("")
    game_name: Name = Name("")
    rules_document: Name = Name("")
    rules_version: Name = Name("")
    jurisdiction: Name = Name("")
    author: Name = Name("")
    reviewer: Name = Name("")
    report_version: Name = Name("")
    bet_limit: BetLimit | None = None
    """The table's largest bet: the report shows each award's payout at it."""
    revision: Annotated[tuple[RevisionEntry, ...], msgspec.Meta(max_length=MAX_REVISIONS)] = ()


@dataclass(frozen=True)
class Revision:
    version: str
    date: str
    description: str


@dataclass(frozen=True)
class Submission:
    """Document control of a report (every field optional; :meth:`absent` names the missing)."""

    client: str = ""
    manufacturer: str = ""
    game_name: str = ""
    rules_document: str = ""
    rules_version: str = ""
    jurisdiction: str = ""
    author: str = ""
    reviewer: str = ""
    report_version: str = ""
    revisions: tuple[Revision, ...] = ()
    bet_limit: Fraction | None = None  # the table's largest bet: the exposure is at it
    path: Path | None = None

    def absent(self) -> list[str]:
        """The fields not given, as the report names them."""
        missing = [] if (self.client or self.manufacturer) else ["client or manufacturer"]
        missing += [label.lower() for key, label in FIELDS[2:] if not getattr(self, key)]
        missing += [] if self.revisions else ["revision history"]
        return missing + ([] if self.bet_limit is not None else ["bet limit"])

    def json(self) -> dict[str, object]:
        return {"given": self.path is not None,
                "fields": [{"key": key, "label": label, "value": getattr(self, key)}
                           for key, label in FIELDS if getattr(self, key)],
                "revisions": [{"version": r.version, "date": r.date,
                               "description": r.description} for r in self.revisions],
                "bet_limit": str(self.bet_limit) if self.bet_limit is not None else "",
                "absent": self.absent()}


def load_submission(path: str | Path) -> Submission:
    """The submission file at ``path`` (TOML: the keys of :data:`FIELDS`, text, and
    ``[[revision]]`` tables of ``version``, ``date`` and ``description``, and ``bet_limit``, the
    table's largest bet, for the exposure); any other key, or a
    value that is not plain text, is one :class:`SubmissionError` naming the file and key.

    >>> load_submission("/nonexistent.toml")
    Traceback (most recent call last):
    ...
    exact.errors.SubmissionError: /nonexistent.toml: cannot read submission file: No such file \
or directory
    """
    import tomllib

    where = shown_path(path)
    text = read_user_file(path, "submission file", SubmissionError)
    try:
        data = load_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise SubmissionError(f"{where}: not valid TOML: {error}") from None
    record = structure(data, SubmissionFile, where, SubmissionError)
    return Submission(**{key: str(getattr(record, key)) for key, _ in FIELDS},
                      revisions=tuple(Revision(str(entry.version), str(entry.date),
                                               str(entry.description))
                                      for entry in record.revision),
                      bet_limit=None if record.bet_limit is None else Fraction(record.bet_limit),
                      path=Path(path))


@dataclass(frozen=True)
class ReportConfig:
    """The configuration a report is of.

    ``shoe`` None is the report's own shoe (8 decks; century21: its rules'); ``bets`` None is
    the catalogue (every shipped wager with every paytable), else exactly these wagers, each
    at its one paytable. ``options`` are the command-line options that give this
    configuration (``exact report GAME <options>``: the reproduction command), ``inputs``
    the files they name (hashed in the report)."""

    game: Game
    shoe: Shoe | None = None
    bets: tuple[Bet, ...] | None = None
    options: tuple[str, ...] = ()
    inputs: tuple[Path, ...] = ()
    submission: Submission = field(default_factory=Submission)
    # the game's own report options given, (argparse name, value) in its plugin's order: a
    # game reads its own (none: the report's own settings, the rule text's example)
    settings: tuple[tuple[str, object], ...] = ()

    @classmethod
    def shipped(cls, game_id: str) -> ReportConfig:
        """The shipped report of ``game_id``: its game as registered, nothing chosen."""
        from exact.model.plugins import get_game

        return cls(get_game(game_id))

    def command(self, pdf: str | os.PathLike[str],
                xlsx: str | os.PathLike[str] | None = None) -> str:
        """The shell line that builds this report to ``pdf`` (and ``xlsx``), quoted.

        >>> ReportConfig.shipped("punto-banco").command("my report.pdf")
        "exact report punto-banco -o 'my report.pdf'"
        """
        words: list[str] = ["exact", "report", self.game.id, *self.options, "-o",
                            os.fspath(pdf)]
        if xlsx is not None:
            words += ["--xlsx", os.fspath(xlsx)]
        if self.submission.path is not None:
            words += ["--submission", str(self.submission.path)]
        return shlex.join(words)


def chosen_only(bets: Sequence[Bet]) -> tuple[Bet, ...]:
    """``bets`` each paid by its own paytable only (the alternatives dropped): a submitted
    configuration shows the paytables asked for, not every one that ships."""
    from dataclasses import replace

    return tuple(bet if not bet.alternatives else replace(bet, alternatives={}) for bet in bets)
