"""Typed exceptions.

Every error a user can cause with bad input derives from :class:`ExactError`;
the command line turns it into one line on standard error and exit status 2.
"""


class ExactError(Exception):
    """Base of every error caused by bad input (cards, shoes, rules, bets)."""


class CardError(ExactError, ValueError):
    """A card's text is not a card of this toolkit (e.g. ``"1X"``)."""


class ShoeError(ExactError, ValueError):
    """A shoe is impossible: negative counts, too few cards, a card removed that is not there."""


class RuleError(ExactError, ValueError):
    """A rule set or rule file is malformed or contradictory."""


class BetFileError(ExactError, ValueError):
    """A bet or paytable definition is malformed."""


class InputError(ExactError, ValueError):
    """A number, card or file a user gave is malformed or past its documented bound
    (:mod:`exact.parsing`); the message names the option, or the file, bet and key."""


# A malformed number in a shoe, bet file or rule file is both an InputError and the error of
# what it was read for, so that code catching either sees it.
class ShoeInputError(InputError, ShoeError):
    """A card count of a shoe is malformed or out of bounds."""


class BetFileInputError(InputError, BetFileError):
    """A number (pays, gross) of a bet file is malformed or out of bounds."""


class RuleInputError(InputError, RuleError):
    """A number of a rule file is malformed or out of bounds."""
