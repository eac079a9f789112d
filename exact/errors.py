"""Typed exceptions.

Layer: outside the layers, below them all: every module may raise these.

Every error a user can cause with bad input derives from :class:`ExactError`;
the command line turns it into one line on standard error and exit status 2.
"""


class ExactError(Exception):
    """Base of every error caused by bad input (cards, shoes, rules, bets)."""


class CardError(ExactError, ValueError):
    """A card's text is not a card of this toolkit (e.g. ``"1X"``)."""


class WrongTypeError(ExactError, TypeError):
    """A library function given a value of the wrong type (a game id where a game is needed,
    None for a shoe): the message names the argument, what it must be and what it got, instead
    of an AttributeError from deep inside."""


class ShoeError(ExactError, ValueError):
    """A shoe is impossible: negative counts, too few cards, a card removed that is not there."""


class RuleError(ExactError, ValueError):
    """A rule set or rule file is malformed or contradictory."""


class BetFileError(ExactError, ValueError):
    """A bet or paytable definition is malformed."""


class InputError(ExactError, ValueError):
    """A number, card or file a user gave is malformed or past its documented bound
    (:mod:`exact.core.parsing`); the message names the option, or the file, bet and key."""


# A malformed number in a shoe, bet file or rule file is both an InputError and the error of
# what it was read for, so that code catching either sees it.
class ShoeInputError(InputError, ShoeError):
    """A card count of a shoe is malformed or out of bounds."""


class BetFileInputError(InputError, BetFileError):
    """A number (pays, gross) of a bet file is malformed or out of bounds."""


class RuleInputError(InputError, RuleError):
    """A number of a rule file is malformed or out of bounds."""


# Errors of the commands and analyses (each raised by the module named in its docstring; the
# names stay importable from those modules).


class UsageError(ExactError):
    """A command line that argparse refuses (:mod:`exact.cli.app`): printed with a pointer to
    --help."""


class OutputError(ExactError, OSError):
    """An output file that cannot be written (or must not be: a device, a directory...)
    (:mod:`exact.core.files`)."""


class Terminated(BaseException):
    """The run was told to stop (SIGTERM): raised by the command line's handler
    (:mod:`exact.cli.app`) so that every ``finally`` on the way runs (a file being written
    removes its temporary file); like KeyboardInterrupt, not an error of the input, so no
    ``except Exception`` stops it."""


class CorruptEntry(ExactError, ValueError):
    """A cache entry that must not be used; the message says why (for the warning). Caught by
    :mod:`exact.engines.cache`, which then recomputes: it never reaches a user."""


class CacheWarning(UserWarning):
    """A cache entry failed a check and was rebuilt (:mod:`exact.engines.cache`): the result
    is unchanged; the command line prints it as ``exact: warning: ...`` when the run
    succeeds."""


class ExpressionError(BetFileError):
    """A condition that does not parse, uses something outside the whitelist or exceeds a
    limit (:mod:`exact.model.expressions`)."""


class EvaluationError(ExpressionError):
    """A condition that cannot be evaluated on some round (say ``x / 0``, ``'a' < 1``, a
    number grown past :data:`exact.model.expressions.MAX_BITS`); the message is the reason, the
    caller names the bet and the event."""


class TableValidationError(BetFileError):
    """A user table with an error (missing tier, one-sided tier, pays a losing round)
    (:mod:`exact.analysis.validation`)."""


class UnknownGameError(ExactError, LookupError):
    """A game id that the toolkit does not know (:mod:`exact.games`)."""


class GameNotAvailable(ExactError, LookupError):
    """The notebook's game is not registered in this checkout (it has not landed yet)
    (:mod:`exact.lab.notebooks`)."""


class StrategyError(ExactError, ValueError):
    """An unknown strategy name, mode or information model, or a strategy or shoe that does not
    fit the game (21st Century Baccarat, chemin de fer)."""


class SolveError(ExactError, RuntimeError):
    """The linear program failed, or no exact equilibrium was recovered from it
    (:mod:`exact.engines.strategy_games`)."""


class SimulationError(ExactError, ValueError):
    """Bad simulation settings (:mod:`exact.analysis.simulation`)."""


class DesignError(ExactError, ValueError):
    """A design that cannot be made: unknown tier, impossible target, tier that never occurs
    (:mod:`exact.analysis.designer`)."""


class SettlementError(ExactError, ValueError):
    """A wager or a round that cannot be settled (unknown bet, bad amount, bad cards)
    (:mod:`exact.model.settlement`)."""


class SettlementInputError(InputError, SettlementError):
    """A wager amount is malformed or out of bounds (:mod:`exact.core.parsing`)."""


class EngineError(ExactError, ValueError):
    """An engine that cannot serve a bet (named), or a bet that no engine serves
    (:mod:`exact.engines.plan`)."""


class BatchError(EngineError):
    """A bet the batch evaluator cannot serve (its compiled form would be too large)
    (:mod:`exact.engines.batch`)."""


class TooFine(EngineError):
    """A bet whose factorised compilation would pass its pattern limit, named with the
    measured count and the limit (:mod:`exact.engines.factorised`): refused, as the only other
    engine
    for it (the compiled walk) would take minutes and gigabytes."""


class CapabilityError(ExactError, TypeError):
    """A game asked for something it does not offer, named in the message
    (:mod:`exact.model.contracts`)."""


class KnownCardError(ExactError, ValueError):
    """A known position or card that cannot be (:mod:`exact.engines.live`)."""


class CountError(ExactError, ValueError):
    """A count system (tags, trigger) is malformed (:mod:`exact.analysis.removal`)."""


class CountInputError(InputError, CountError):
    """A count's tag is malformed or out of bounds (:mod:`exact.core.parsing`)."""


class AssumptionError(ExactError, ValueError):
    """A malformed assumptions file (a missing field, an unknown source)
    (:mod:`exact.analysis.assumptions`)."""


class EconomicsError(ExactError, ValueError):
    """Impossible table economics input (no players, a non-positive bet, a negative fee)
    (21st Century Baccarat)."""


class EconomicsInputError(InputError, EconomicsError):
    """A bet, fee or wager is malformed or out of bounds (:mod:`exact.core.parsing`)."""


class SpreadsheetError(ExactError):
    """A workbook that cannot be written (XlsxWriter missing, unwritable path)
    (:mod:`exact.render.spreadsheet`)."""


class FramesError(ExactError, ImportError):
    """A DataFrame was asked for but pandas is not installed (:mod:`exact.analysis.frames`)."""


class WidgetsError(ExactError, ImportError):
    """The designer was asked for but ipywidgets is not installed (:mod:`exact.lab.widgets`)."""


class PublishedFiguresError(ExactError, ValueError):
    """A malformed published-figures file (``exact/data/<game>/published.toml``): an unknown
    kind or key, a missing field, a value of the wrong form (:mod:`exact.reference.published`)."""


class ReportError(ExactError, RuntimeError):
    """A report that cannot be built (no report module or template, Typst failed, a file in
    its data folder that it did not write) (:mod:`exact.reports`)."""


class SubmissionError(InputError):
    """A malformed submission file (``exact report --submission FILE``): an unknown key, a
    value of the wrong form or past its bound (:mod:`exact.reports.config`)."""


def one_line(message: object) -> str:
    """``message`` as one line for standard error: every kind of line break (``\\n``, ``\\v``,
    ``\\f``, U+2028...) becomes a space and any other unprintable character is shown escaped,
    so a user's value quoted in an error can neither break the one-line contract nor send
    control sequences to the terminal.

    >>> one_line("unrecognized arguments: 3:\\x0b,T\\nnext \\x1b[2J")
    'unrecognized arguments: 3: ,T next \\\\x1b[2J'
    """
    text = " ".join(str(message).splitlines())
    return "".join(character if character.isprintable() or character == " "
                   else character.encode("unicode_escape").decode("ascii")
                   for character in text)
