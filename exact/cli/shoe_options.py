"""The shoe that the command-line options ``--shoe``, ``--decks``, ``--jokers`` and ``--remove``
name: one function for every command (``analyze``, ``design``, ``eor``, ``edge``), so that the
same options mean the same cards everywhere.

Layer: cli, the top (beside the lab); it may import every layer below.

Without ``--shoe``, ``--decks N`` gives ``N`` full decks with the game's jokers in proportion
(21st Century Baccarat: 8 jokers to 8 decks) unless ``--jokers`` says how many; with neither,
the game's own shoe. ``--remove`` then takes cards out. An option given with an empty value is
an error, never the default.

>>> from argparse import Namespace
>>> options = Namespace(shoe=None, decks=None, jokers=None, remove="9")
>>> options_shoe(options, decks=8, jokers=8).size  # century21's shoe less one nine
423
>>> options_shoe(Namespace(shoe="", decks=None, remove=None))
Traceback (most recent call last):
...
exact.errors.ShoeError: --shoe is empty: give a composition such as ..., or leave it out
"""

from __future__ import annotations

import argparse

from exact.core.cards import Shoe, standard_shoe
from exact.errors import ShoeError


def _given(args: argparse.Namespace, option: str, example: str) -> str | None:
    """The text of ``--option``, None when absent; an empty text is an error."""
    text = getattr(args, option, None)
    if text is not None and not str(text).strip():
        raise ShoeError(f"--{option} is empty: give {example}, or leave it out")
    return text


def full_shoe(args: argparse.Namespace, decks: int = 8, jokers: int = 0) -> Shoe:
    """The shoe before any card is taken out (a count is balanced over it): ``--shoe``, or
    ``--decks`` full decks (default ``decks``) with ``--jokers`` jokers, or else ``jokers``
    jokers per ``decks`` decks."""
    text = _given(args, "shoe", "a composition such as 'A:32,T:128,9H:8'")
    wanted_decks, wanted_jokers = getattr(args, "decks", None), getattr(args, "jokers", None)
    if text is not None:
        if wanted_decks is not None or wanted_jokers is not None:
            raise ShoeError("give either --decks/--jokers or --shoe, not both")
        shoe = Shoe.parse(text)
        if shoe.size == 0:
            raise ShoeError(f"--shoe {text!r} names no card")
        return shoe
    return standard_shoe(wanted_decks, wanted_jokers, decks, jokers)


def removed(args: argparse.Namespace, shoe: Shoe) -> Shoe:
    """``shoe`` after the cards of ``--remove`` (if given) are taken out."""
    text = _given(args, "remove", "the cards taken out, such as '5,5,9H'")
    return shoe if text is None else shoe.remove(text)


def options_shoe(args: argparse.Namespace, decks: int = 8, jokers: int = 0) -> Shoe:
    """The shoe of the options: :func:`full_shoe`, then ``--remove``."""
    return removed(args, full_shoe(args, decks, jokers))
