"""What every game offers the analyses: features, a deal per set of needs, bet files.

:class:`Game` takes the game's record type as its type parameter (``PuntoBanco`` is a
``Game[PuntoRecord]``): its deal, its features and the engines that consume them are then
checked against one record type. Code that reads no record takes any game: ``Game[Any]``.

Layer: model, above the core; the compiled form of a game's deal is the engines' business
(:func:`exact.engines.compiled_store.compiled_for`, keyed by :func:`compiled_key`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic

from exact.core.cards import Card, Shoe
from exact.core.enumerator import Deal, Distribution, RecordT, enumerate_rounds
from exact.core.parsing import load_toml, read_user_file, shown, shown_path
from exact.core.records import R, structure
from exact.errors import BetFileError, RuleError, RuleInputError
from exact.model.features import Feature, Needs


class Game(Generic[RecordT]):
    """Base of the game definitions: what every game shares. A bet game adds ``features``,
    :meth:`deal` and :meth:`record_from_cards` (the contract
    :class:`exact.model.contracts.BetGame`); a game that runs a command or a simulation its
    own way declares that code in its plugin record (:class:`exact.model.plugins.GamePlugin`).

    Type parameter: ``RecordT``, the type of the game's round records, the one its deals
    hand out, its features read and :meth:`record_from_cards` returns (invariant: it is both
    given and taken)."""

    id: str
    name: str
    bet_files: tuple[Path, ...]
    if TYPE_CHECKING:  # each game's own (a cached property, or a class attribute)

        @property
        def features(self) -> Mapping[str, Feature[RecordT]]: ...

    # A bet game defines these (a strategy game does not: it is then no BetGame).
    deal: Callable[[Needs], Deal[RecordT]]
    record_from_cards: Callable[[Sequence[Card]], RecordT]

    def describe_rules(self) -> list[str]:
        return []

    def needs(self, feature_names: Iterable[str]) -> Needs:
        """What the deal must show of the cards for these features: the union of their needs
        (a stage and the card attributes it is seen through); an unknown name is refused.

        >>> from exact.games import get_game
        >>> game = get_game("punto-banco")
        >>> sorted(game.needs(["winner", "player_pair"]).pairs)
        [('draws', 'value'), ('player', 'rank'), ('player', 'suit'), ('player', 'value')]
        >>> game.needs(["winer"])
        Traceback (most recent call last):
        ...
        exact.errors.BetFileError: unknown feature 'winer' for punto-banco
        """
        needs = Needs()
        for name in feature_names:
            if name not in self.features:
                raise BetFileError(f"unknown feature {shown(name)} for {self.id}")
            needs = needs | self.features[name].needs
        return needs

    def read(self, record: RecordT, feature: str) -> object:
        return self.features[feature].read(record)

    def enumerate(self, needs: Needs, shoe: Shoe) -> Distribution[RecordT]:
        """The direct recursive enumeration (no compilation), for small or one-off shoes."""
        return enumerate_rounds(self.deal(needs), shoe)


def read_rule_table(path: Path) -> dict[str, object]:
    """The TOML table of a rule file; a missing or malformed file is a one-line RuleError."""
    text = read_user_file(path, "rules", RuleError)
    try:
        return load_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise RuleError(f"{shown_path(path)}: cannot read rules: {error}") from None


def read_rule_file(path: Path, record: type[R]) -> R:
    """The rule file at ``path`` as its game's ``record`` (:mod:`exact.core.records`): a
    misspelt key, a value of the wrong type or a number past its bound is one RuleError (a
    number's a RuleInputError) naming the file and the key."""
    return structure(read_rule_table(path), record, str(path), RuleError, RuleInputError)


def game_key(game: Game[Any]) -> list[object]:
    """What of ``game`` decides its disk-cache entries (:mod:`exact.engines.cache`): its id,
    its class and every line of its rules, so that a rule changed is a new entry."""
    return [["game", game.id], ["class", f"{type(game).__module__}.{type(game).__qualname__}"],
            ["rules", game.describe_rules()]]


def compiled_key(game: Game[Any], needs: Needs) -> list[object]:
    """What determines the compiled deal of ``game`` for ``needs``: the disk-cache key parts
    (:func:`game_key`, and the needs).

    >>> from exact.games import get_game
    >>> game = get_game("punto-banco")
    >>> key = compiled_key(game, game.needs(["winner"]))
    >>> key[0], key[2][1][0], key[-1]
    (['game', 'punto-banco'], 'Tableau: Standard Punto Banco tableau (standard)', \
['needs', [['draws', 'value']]])
    """
    return [*game_key(game), ["needs", sorted([stage, attribute]
                                              for stage, attribute in needs.pairs)]]
