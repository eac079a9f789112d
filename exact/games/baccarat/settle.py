"""How ``settle`` shows a baccarat coup: the Player's and the Banker's hands, each with its
cards and total, and the third card drawn (the baccarat games' plugin records name these),
and how a report words the settlement command the coup's assumptions name.

Layer: games, the top: a game's code may import every generic layer, no other game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SIDES = ("player", "banker")
REPORT_WORDS = {"exact settle punto-banco": "the toolkit's round settlement"}
"""How a report says the command lines the coup's assumptions name (a plugin's
``report_words``)."""


def round_hands(game: Any, record: Any, features: Mapping[str, object]
                ) -> dict[str, dict[str, Any]]:
    """The JSON ``hands`` of a settled coup: per side, its cards and total."""
    return {side: {"cards": [f"{label.rank}{label.suit}" for label in hand],
                   "total": features.get(f"{side}_total")}
            for side, hand in zip(SIDES, record, strict=True)}


def hand_text(name: str, hand: Mapping[str, Any]) -> str:
    """A side's line: ``Player: 9H 9D, total 8`` (and whether it drew a third card)."""
    third = " (drew a third card)" if len(hand["cards"]) == 3 else ""
    return f"{name.title()}: {' '.join(hand['cards'])}, total {hand['total']}{third}"
