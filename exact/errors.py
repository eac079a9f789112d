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
