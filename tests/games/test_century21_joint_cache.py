"""The table's disk-cache entries (exact/games/century21/table_joint.py ``seat-joint``,
full_table.py ``seat-table``): a hit gives exactly what a miss computes (in the same order),
the key changes with every input that decides the result, and a damaged or hostile entry is
ignored and recomputed, never executed. (tests/engines/test_cache.py plants every damage of
every kind; this file checks what is particular to these two.)"""

from __future__ import annotations

import json
import os
import shlex
from fractions import Fraction

import pytest

from exact.core.cards import Shoe
from exact.engines import cache
from exact.errors import CacheWarning
from exact.games.century21 import full_table, table_joint
from exact.games.century21.full_table import TableGame
from exact.games.century21.game import DEFAULT_RULES, game_table
from exact.games.century21.rules import TableTag
from exact.games.century21.table_joint import joint_key, seat_joint

SHOE = Shoe.parse("5:3,6:2,K:3,A:2,X:2")


@pytest.fixture
def directory(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def house():
    return game_table(DEFAULT_RULES, SHOE).house_way()


def _uncached(monkeypatch) -> None:
    """Fail the test if the result is computed (not read)."""
    def computed(*args, **kwargs):
        raise AssertionError("computed, not read from the cache")

    monkeypatch.setattr(table_joint, "_joint", computed)
    monkeypatch.setattr(full_table._Builder, "run", computed)


def test_a_hit_is_exactly_the_miss_in_the_same_order(directory, house, monkeypatch) -> None:
    player, dealer = house
    best = game_table(DEFAULT_RULES, SHOE).player_best_response(dealer)
    missed = seat_joint(DEFAULT_RULES, SHOE, [best, player, player], dealer)
    first = TableGame(DEFAULT_RULES, SHOE, 3)
    table = first.seat_table(0, [player, best])
    values = first.seat_values([player, player, best], first.lift_dealer(dealer))
    _uncached(monkeypatch)
    hit = seat_joint(DEFAULT_RULES, SHOE, [best, player, player], dealer)
    assert hit == missed and list(hit.items()) == list(missed.items())
    again = TableGame(DEFAULT_RULES, SHOE, 3)
    read = again.seat_table(2, [player, best])  # another seat, the same others: one entry
    assert read.seat == 2 and read.scale == table.scale and read.values == table.values
    assert [list(v.items()) for v in read.values.values()] == \
        [list(v.items()) for v in table.values.values()]
    assert again.seat_values([player, player, best], again.lift_dealer(dealer)) == values


class _Count(int):
    """A checked count, as the command line's options give them (a subclass of int)."""


def _other_action(strategy: dict) -> dict:
    """``strategy`` with its first choice of two actions played the other way."""
    changed = dict(strategy)
    infoset = next(h for h, actions in strategy.items() if len(actions) == 2)
    first, second = strategy[infoset]
    changed[infoset] = {first: strategy[infoset][second], second: strategy[infoset][first]}
    return changed


def test_the_keys_change_with_every_input(house, monkeypatch) -> None:
    player, dealer = house
    rules = DEFAULT_RULES
    base = (rules, SHOE, [player] * 3, dealer, "total")
    variants = [
        (rules.replace(natural_pays=Fraction(2)), *base[1:]),
        (rules.replace(win_pays_by_total={6: Fraction(1, 2)}), *base[1:]),
        (rules.replace(table_tags=(TableTag(Fraction(5), Fraction(100), Fraction(1)),)),
         *base[1:]),
        (rules.replace(name="another name"), *base[1:]),
        (rules, SHOE.remove("5"), *base[2:]),
        (*base[:4], "cards"),
        (rules, SHOE, [player, player, _other_action(player)], dealer, "total"),
        (rules, SHOE, [_other_action(player), player, player], dealer, "total"),
        (rules, SHOE, [player] * 2, dealer, "total"),
        (rules, SHOE, [player] * 3, _other_action(dealer), "total"),
    ]
    keys = [joint_key(*base), *(joint_key(*variant) for variant in variants)]
    assert len({key.text for key in keys}) == len(keys)
    assert joint_key(*base) == joint_key(rules, SHOE, [dict(reversed(player.items()))] * 3,
                                         dealer, "total")  # the order of a dict: no matter
    checked = Shoe(tuple(_Count(count) for count in SHOE.counts))  # the command line's
    assert joint_key(rules, checked, *base[2:]) == keys[0]  # counts: checked ints, one key
    monkeypatch.setattr(full_table, "TABLE_CACHE_LAYOUT", full_table.TABLE_CACHE_LAYOUT + 1)
    assert joint_key(*base) != keys[0]

    def table_key(game: TableGame, others: list) -> cache.Key:
        return game.table_key([game._draw_matrix(s) for s in others])

    monkeypatch.undo()
    game = TableGame(rules, SHOE, 3)
    tables = [table_key(game, [player, player]),
              table_key(game, [player, _other_action(player)]),
              table_key(TableGame(rules, SHOE, 2), [player]),
              table_key(TableGame(rules.replace(natural_pays=Fraction(2)), SHOE, 3),
                        [player, player]),
              table_key(TableGame(rules, SHOE.remove("K"), 3), [player, player]),
              table_key(TableGame(rules, SHOE, 3, "cards"), [player, player])]
    assert len({key.text for key in tables}) == len(tables)
    assert {key.kind for key in tables} == {"seat-table"} and keys[0].kind == "seat-joint"


def _plant(key: cache.Key, fields: dict) -> None:
    """An entry of ``key`` written as the cache writes one (a forger's: the hash is right)."""
    cache.store(key, fields, {})


def test_a_hostile_or_damaged_entry_is_recomputed_and_never_run(directory, house, tmp_path,
                                                                  monkeypatch) -> None:
    player, dealer = house
    seats = [player] * 2
    expected = seat_joint(DEFAULT_RULES, SHOE, seats, dealer)
    key = joint_key(DEFAULT_RULES, SHOE, seats, dealer, "total")
    marker = tmp_path / "MARKER"
    command = f"__import__('os').system('touch {shlex.quote(str(marker))}')"
    good = json.loads(json.dumps(cache.read_entry(cache.entry_path(key), key)[0]))
    short = json.loads(json.dumps(good))
    short["joint"].pop()  # no longer sums to 1
    plants = [{"joint": command}, {"joint": [[[command], [1, 1]]]}, {"joint": []}, short,
              {"joint": good["joint"] + good["joint"][:1]}]  # one outcome twice
    for fields in plants:
        _plant(key, fields)
        with pytest.warns(CacheWarning, match="was corrupt"):
            assert seat_joint(DEFAULT_RULES, SHOE, seats, dealer) == expected
        cache._WARNED.discard(str(cache.entry_path(key)))  # one warning per entry and process
    cache.entry_path(key).write_bytes(b"\x80\x04" + os.urandom(64))  # not an entry at all
    with pytest.warns(CacheWarning, match="not an entry"):
        assert seat_joint(DEFAULT_RULES, SHOE, seats, dealer) == expected
    assert not marker.exists()
    # the rebuilt entry is read back as it was computed
    _uncached(monkeypatch)
    assert seat_joint(DEFAULT_RULES, SHOE, seats, dealer) == expected


def test_a_seat_table_entry_of_another_shape_is_recomputed(directory, house) -> None:
    player, _ = house
    game = TableGame(DEFAULT_RULES, SHOE, 2)
    expected = game.seat_table(0, [player])
    key = game.table_key([game._draw_matrix(player)])
    fields, arrays = cache.read_entry(cache.entry_path(key), key)
    for change in ("scale", "others", "repeated", "value"):
        planted_fields, rows = json.loads(json.dumps(fields)), arrays["rows"].copy()
        if change == "scale":
            planted_fields["scale"] = 2
        elif change == "others":  # a pattern of draws two seats cannot have
            rows[0, 4] = 2
        elif change == "repeated":
            rows[1] = rows[0]
        else:
            planted_fields["values"][0] = "1"
        cache.store(key, planted_fields, {"rows": rows})
        cache._WARNED.discard(str(cache.entry_path(key)))
        with pytest.warns(CacheWarning, match="was corrupt"):
            found = TableGame(DEFAULT_RULES, SHOE, 2).seat_table(0, [player])
        assert found.values == expected.values


def test_a_forged_joint_off_the_counting_unit_is_recomputed_at_once(directory, house) -> None:
    """Every probability of a joint is a multiple of one over the counting unit (times the
    Player/Dealer's denominators squared): a forged entry still summing to exactly 1 with a
    probability off that grid is refused (it was used as read), and so is one of hundreds
    of probabilities over distinct 4,200-digit denominators, before any of them is summed (a
    few thousand took minutes)."""
    player, dealer = house
    seats = [player] * 2
    expected = seat_joint(DEFAULT_RULES, SHOE, seats, dealer)
    key = joint_key(DEFAULT_RULES, SHOE, seats, dealer, "total")
    good = json.loads(json.dumps(cache.read_entry(cache.entry_path(key), key)[0]))
    moved = json.loads(json.dumps(good))
    first, second = (Fraction(*entry[1]) for entry in moved["joint"][:2])
    epsilon = Fraction(1, 1_000_003) * min(first, second)  # a prime no unit holds
    for entry, value in zip(moved["joint"], (first + epsilon, second - epsilon), strict=False):
        entry[1] = [value.numerator, value.denominator]
    assert sum(Fraction(*entry[1]) for entry in moved["joint"]) == 1
    forged = {"joint": [[[[i, 1], [0, 1]], [1, 10**4199 + 2 * i + 1]] for i in range(300)]}
    for fields in (moved, forged):
        _plant(key, fields)
        cache._WARNED.discard(str(cache.entry_path(key)))
        with pytest.warns(CacheWarning, match="not a distribution"):
            assert seat_joint(DEFAULT_RULES, SHOE, seats, dealer) == expected
