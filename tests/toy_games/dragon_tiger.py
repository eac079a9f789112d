"""Dragon Tiger: one card each to Dragon and Tiger, the higher rank wins (ace low, king high)."""
from pathlib import Path
from typing import ClassVar

from exact.core.cards import RANKS
from exact.games import register
from exact.games.simple import StagesGame, StagesRecord
from exact.model.features import Feature, Needs


def winner(record: StagesRecord) -> str:
    dragon, tiger = (cards[0].rank for cards in record)
    assert dragon and tiger, "both cards are seen through their ranks (the feature needs them)"
    higher = RANKS.index(dragon) - RANKS.index(tiger)
    return "dragon" if higher > 0 else "tiger" if higher < 0 else "tie"


@register
class DragonTiger(StagesGame):
    id, name, stages = "dragon-tiger", "Dragon Tiger", {"dragon": 1, "tiger": 1}
    bet_files = (Path(__file__).with_suffix(".toml"),)
    features: ClassVar = {"winner": Feature("winner", "the higher card's side, or tie",
                                            Needs.of(dragon=["rank"], tiger=["rank"]), winner,
                                            '"dragon", "tiger" or "tie"', (str,))}
