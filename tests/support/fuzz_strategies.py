"""Hypothesis strategies for the fuzz suite: argument vectors of every command, with the files
they name (bet, table, rule and seen files) and standard input.

Each case mixes valid options, which take it deep into the analysis, with hostile values
(huge, Unicode digits, NaN, fractions by zero, garbage bytes, very long or deeply nested
text), which must reach the parsers. Every case stays cheap when its input is valid: shoes are
one deck or a handful of cards (``--engine direct`` only on those), simulations one or two
shoes on one worker, and the default 8-deck century21 shoe is never asked for.
"""

from __future__ import annotations

import functools
import json
import math
import random
import string

from hypothesis import strategies as st

from tests.support.fuzzing import Case, Differential, option_value

GAMES = ("punto-banco", "nine-and-nines", "century21", "chemin-de-fer")
STRATEGY_GAMES = ("century21", "chemin-de-fer")  # no bet table: bet options are refused
COMMANDS = ("analyze", "design", "list-bets", "features", "eor", "simulate", "edge", "settle",
            "games")

# --- hostile text ---------------------------------------------------------------------------------
UNICODE_DIGITS = ("²", "³", "¹", "٣", "١٠", "１", "１０", "৩", "߃", "𝟗", "Ⅸ", "½", "⁹", "₉", "〇")
HUGE = ("1e999999999", "1e-999999999", "9" * 5000, "1" + "0" * 4400, "1e308", "1e400",
        "1e-400", "-1e308", "18446744073709551617", "9223372036854775808", "2147483648",
        "10000000", "1000000000", str(10 ** 30), "4" * 100_000)
NUMBERISH = ("0", "-0", "-1", "+1", "1.5", "0.5", ".5", "5.", "1/0", "0/0", "-1/2", "3/4",
             "1//2", "5%", "%", "-5%", "1e", "e5", "0x10", "0b1", "0o7", "1_000", "1__0", " 1",
             "1 ", "\t1", "1\n", "+-1", "--1", "nan", "NaN", "-nan", "inf", "-inf",
             "Infinity", "-Infinity", "1e5", "1E5", "2**64", "1/3", "1,5", "1.0.0", "1/2/3",
             "1%%", "100%", "1e999999999%", "1/1e999999999", "9" * 5000 + "/1")
GARBAGE = ("", " ", ",", ":", "=", "\x00", "\x00" * 3, "\udcff", "\udc80\udcfe", "\u202e1",
           "\ufeff1", "💥", "A" * 10_000, "x" * 100_000, "'", '"', "\\", "$(touch pwned)",
           "`touch pwned`", "../../etc/passwd", "%s%n%x", "{}", "[]", "None", "True", "-")
HOSTILE = UNICODE_DIGITS + HUGE + NUMBERISH + GARBAGE
# the values behind most of issue 11's findings, drawn more often than the rest
PRIORITY = ("1e999999999", "²", "١", "１", "nan", "inf", "1e400", "1e308", "1e-400", "9" * 5000,
            "", "-1", "0", "1/0", "10000000", "1000000000", "\udcff", "5%")


def hostile() -> st.SearchStrategy[str]:
    """A hostile value: from the lists above, or random text (with lone surrogates, as a
    non-UTF-8 argument arrives in ``sys.argv``)."""
    return st.one_of(
        st.sampled_from(PRIORITY), st.sampled_from(PRIORITY), st.sampled_from(PRIORITY),
        st.sampled_from(HOSTILE), st.sampled_from(HOSTILE),
        st.text(alphabet=st.characters(codec=None, exclude_categories=("Cs",)), max_size=12),
        st.text(alphabet=string.digits + "".join(UNICODE_DIGITS) + "-+./%eE_ ", max_size=10),
        st.binary(max_size=12).map(lambda b: b.decode("utf-8", "surrogateescape")),
        st.integers(min_value=-10 ** 40, max_value=10 ** 40).map(str))


LEVELS = (0.0, 0.05, 0.15, 0.3, 0.6, 1.0)  # hostility of a case (see `either`)


def either(valid: st.SearchStrategy[str], weight: float = 0.3) -> st.SearchStrategy[str]:
    """``valid`` most of the time, a hostile value with probability ``weight`` times the
    case's hostility (:data:`HOSTILITY`, drawn once per case): most cases carry one or two
    hostile values, some none (they go deep), a few many."""
    return uniform().flatmap(
        lambda x: hostile() if x < weight * HOSTILITY[0] else valid)


HOSTILITY = [0.3]  # set per case by :func:`cases` (hypothesis draws stay reproducible)
# The coin of every "with probability p" of a case: a random.Random seeded by one hypothesis
# draw per case (:func:`cases`). Hypothesis's own floats are no coin: st.floats(0, 1) is below
# 0.05 three times in ten (it favours 0 and small values), so the hostile branch of every
# choice was taken far more often than its weight and few cases went deep.
COIN = [random.Random(0)]


def uniform() -> st.SearchStrategy[float]:
    """A uniform draw from [0, 1) by the case's coin."""
    return st.just(None).map(lambda _: COIN[0].random())


# --- cards and shoes ------------------------------------------------------------------------------
RANK_TEXTS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "10", "J", "Q", "K")
SUIT_TEXTS = ("", "", "C", "D", "H", "S", "♣", "♦", "♥", "♠")


def card_text(jokers: bool = False) -> st.SearchStrategy[str]:
    plain = st.builds(lambda r, s: r + s, st.sampled_from(RANK_TEXTS), st.sampled_from(SUIT_TEXTS))
    valid = st.one_of(plain, st.just("X")) if jokers else plain
    junk = st.sampled_from(("1X", "Z", "AA", "9Z", "²", "１0", "٣H", "", "X9", "0", "11", "1",
                            "\udcff", "9H9H", "ah", "kd", "t"))
    # a misspelt card as often as the case is hostile (a list of valid cards goes deep)
    return uniform().flatmap(lambda x: junk if x < HOSTILITY[0] else valid)


def card_list(jokers: bool = False, max_size: int = 6, min_size: int = 0
              ) -> st.SearchStrategy[str]:
    return st.tuples(st.lists(card_text(jokers), min_size=min_size, max_size=max_size),
                     uniform().flatmap(lambda x: st.sampled_from(
                         ("\n", ";", "\t", "|") if x < HOSTILITY[0] else (",", " ", ", ")))).map(
        lambda parts: parts[1].join(parts[0]))


def tiny_shoe(jokers: bool = False) -> st.SearchStrategy[str]:
    """A shoe of a few cards (4-14): ``A:2,5:3,9H:1,T:4``; sometimes too small to deal."""
    keys = list(RANK_TEXTS[:10]) + ["T", "K", "9H", "5D", "AS"] + (["X"] if jokers else [])
    entry = st.tuples(st.sampled_from(keys), either(st.integers(1, 4).map(str), 0.2)).map(
        lambda e: f"{e[0]}:{e[1]}")
    return st.lists(entry, min_size=2, max_size=5).map(",".join)


def hostile_shoe() -> st.SearchStrategy[str]:
    fixed = ("", ",", "A", "A:", ":3", "A:²", "A:１", "A:٣", "Z:3", "A:-1", "A:1e999999999",
             "A:" + "9" * 5000, "A:99999999999999999999", "X:100000000", "A:1,A:-1", "A:0",
             "A:1.5", "A:1/2", "A:3,,T:4", "A:3;T:4", "A : 3", "A:+3", "A:0x3",
             "\udcff:3", "A:3\x00", "9H:3,9H:3,9H:3,T:4", "A:2,T:" + str(10 ** 12))
    return st.one_of(st.sampled_from(fixed), hostile(),
                     st.tuples(tiny_shoe(), hostile()).map(lambda p: f"{p[0]},A:{p[1]}"))


# --- conditions -----------------------------------------------------------------------------------
VALUE_FEATURES = ("winner", "cards_dealt", "margin", "highest_value", "player_total",
                  "player_initial_total", "player_cards", "player_natural", "player_third",
                  "banker_total", "banker_initial_total", "banker_cards", "banker_natural",
                  "banker_third")
CARD_FEATURES = ("player_initial_total", "banker_initial_total", "player_pair", "banker_pair",
                 "player_paired", "banker_paired", "player_suited", "banker_suited",
                 "player_initial_ranks", "banker_initial_ranks")
NINE_FEATURES = ("player_two_card_nine", "banker_two_card_nine", "player_has_ten_value",
                 "banker_has_ten_value", "player_initial_cards", "banker_initial_cards",
                 "player_suited_nine", "banker_suited_nine", "two_card_nines",
                 "both_two_card_nines", "same_initial_cards", "player_initial_total")
STRINGS = ("'tie'", "'banker'", "'player'", "'A8'", "'8A'", "'none'", "'perfect'", "'mixed'",
           "'9D KD'", "''", "'a'", "'%d'", "'%s'", "'%z'", "'%0200000000d'", "'\\x00'",
           '"""x"""', "b'x'", "r'\\d'", "u'x'")
NUMBERS = ("0", "1", "9", "-1", "10", "1.5", "1e400", "0x10", "1_0", "9" * 5000, "1j",
           "100000", "100000000", "10**10", "True", "False", "None", "...")
HOSTILE_CONDITIONS = (
    "{player_total, banker_total} == {banker_total, player_total}",
    "{player_total: 1} == {1: player_total}",
    "{player_total} == {player_total}",
    "'a' * 100000 * 100000 == winner",
    "(1,) * 100000 * 100000 == (winner,)",
    "[0] * 100000 * 100000 == [player_total]",
    "'%0200000000d' % player_total == winner",
    "'%z' % player_total == winner",
    "'%s%s' % player_total == winner",
    "'%d' % winner == '1'",
    "winner % 3 == 1",
    "winner * -1 == ''",
    "player_total / 0 == 1",
    "player_total // 0 == 1",
    "player_total % 0 == 1",
    "player_third + 1 == 2",
    "winner < 1",
    "-winner == 1",
    "player_third in 5",
    "winner in 5",
    "not not not winner",
    "player_total ** 2 == 4",
    "player_total << 2 == 4",
    "~player_total == 1",
    "player_total if winner else banker_total",
    "(x := 1) == 1",
    "f'{winner}' == 'tie'",
    "winner.upper() == 'TIE'",
    "winner[0] == 't'",
    "__import__('os').system('touch pwned') == 0",
    "[p for p in (1, 2)] == [1, 2]",
    "lambda: 1",
    "*winner",
    "winner is 'tie'",
    "winner == 'tie'; import os",
    "winner == 'tie'\nimport os",
    "# only a comment",
    "   ",
    "",
    "(" * 10_000 + "1" + ")" * 10_000 + " == player_total",
    "-" * 3_000 + "1 == player_total",
    "not " * 3_000 + "winner",
    " + ".join(["1"] * 5_000) + " == player_total",
    " or ".join(["winner == 'tie'"] * 5_000),
    "player_total == " + "9" * 5_000,
    "player_total == " + "9" * 100_000,
    "[" * 10_000 + "]" * 10_000,
    "1" + " < 1" * 10_000,
    "player_total in (" + ", ".join(str(i) for i in range(20_000)) + ")",
    "'" + "a" * 1_000_000 + "' == winner",
    "ｗinner == 'tie'",
    "winner == 'tie' and player_total == ²",
    "player_total == ٣",
    "player_total == １",
    "winner == 'tie' \\\n and True",
    "\udcff == 1",
)


@functools.lru_cache
def condition(features: tuple[str, ...], depth: int = 3) -> st.SearchStrategy[str]:
    """A condition: random grammar over ``features``, or one of the hostile ones. Built once
    per ``features`` (building the recursive grammar cost more than drawing from it; the
    case's hostility is read when drawing)."""
    atom = st.one_of(st.sampled_from(features), st.sampled_from(STRINGS),
                     st.sampled_from(NUMBERS), st.integers(-20, 20).map(str))

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, st.sampled_from(
            ("+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in",
             "and", "or", "**", "&", "|", "^", "<<", "@", "is", "is not")), inner).map(
            lambda t: f"{t[0]} {t[1]} {t[2]}")
        unary = st.tuples(st.sampled_from(("not ", "-", "+", "~", "not not ")), inner).map(
            lambda t: t[0] + t[1])
        group = st.tuples(st.sampled_from(("({})", "({},)", "[{}]", "{{{}}}", "{{1: {}}}",
                                           "f({})", "{}.x", "{}[0]", "({})")),
                          st.lists(inner, min_size=1, max_size=3)).map(
            lambda t: t[0].format(", ".join(t[1])))
        return st.one_of(binary, unary, group)

    random = st.recursive(atom, grow, max_leaves=8)
    # well-typed comparisons mostly (a bet that is refused goes no deeper), any now and then
    typed = st.sampled_from([f for f in features if f in TYPED]).flatmap(
        lambda f: st.tuples(st.just(f), st.sampled_from(TYPED[f])).map(" ".join))
    untyped = st.tuples(st.sampled_from(features), st.sampled_from(("==", "!=", "in", ">=")),
                        st.sampled_from(("'tie'", "'banker'", "9", "(5, 6)", "None", "True",
                                         "'A8'", "2"))).map(lambda t: " ".join(t))
    sensible = uniform().flatmap(lambda x: untyped if x < HOSTILITY[0] else typed)
    combined = st.tuples(sensible, st.sampled_from((" and ", " or ")), sensible).map("".join)
    return uniform().flatmap(lambda x: st.one_of(random, st.sampled_from(
        HOSTILE_CONDITIONS)) if x < 2 * HOSTILITY[0] else st.one_of(sensible, combined))


_NUMBER_TESTS = ("== 9", "!= 0", ">= 5", "in (5, 6)", "not in (0, 1)", "< 3")
TYPED = {  # comparisons each feature's values can take (features: values and types)
    "winner": ("== 'tie'", "!= 'banker'", "in ('player', 'tie')"),
    "cards_dealt": ("== 6", "in (4, 5)", ">= 5"),
    "player_cards": ("== 3", "!= 2"), "banker_cards": ("== 3", "!= 2"),
    "player_natural": ("== True", "== False"), "banker_natural": ("== True", "== False"),
    "player_third": ("== None", "in (8, 9)", "!= None"),
    "banker_third": ("== None", "in (0, 1)", "!= None"),
    "player_two_card_nine": ("== True", "== False"),
    "banker_two_card_nine": ("== True", "== False"),
    "player_has_ten_value": ("== True", "== False"),
    "banker_has_ten_value": ("== True", "== False"),
    **{name: _NUMBER_TESTS for name in ("margin", "highest_value", "player_total",
                                        "player_initial_total", "banker_total",
                                        "banker_initial_total")},
}


# --- TOML -----------------------------------------------------------------------------------------
def toml_value(value: object) -> str:
    """A TOML literal (JSON's string escapes are TOML's; a lone surrogate makes it invalid,
    which is a fine hostile input too)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, Raw):
        return value.text
    raise TypeError(value)


class Raw:
    """Text written into TOML as is (e.g. ``1e999999999`` as a TOML float)."""

    def __init__(self, text: str) -> None:
        self.text = text


def toml_number() -> st.SearchStrategy[object]:
    """A pay, fee or bet size as a TOML value: valid numbers, text numbers, hostile."""
    return st.one_of(
        st.integers(0, 100), st.sampled_from((0.95, 0.5, "19/20", "push", "lose", "8", "1/2")),
        st.sampled_from(HOSTILE).map(str), st.integers(-10 ** 30, 10 ** 30),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([Raw("1e999999999"), Raw("1e308"), Raw("1e400"), Raw("1e-400"),
                         Raw("9" * 5000), Raw("0x7fffffffffffffff"), Raw("-0.0"), Raw("nan"),
                         Raw("inf"), Raw("[1, 2]"), Raw("{a = 1}"), Raw("true"),
                         Raw("1979-05-27")]),
        st.just("9" * 5000), st.just("1e999999999"), st.just("1" + "0" * 100_000))


def _bet_toml(bet: dict) -> str:
    lines = ["[[bet]]"]
    for key, value in bet.items():
        if key not in ("event", "paytables"):
            lines.append(f"{json.dumps(key) if not key.isidentifier() else key} = "
                         f"{toml_value(value)}")
    for event in bet.get("event", []):
        lines.append("  [[bet.event]]")
        for key, value in event.items():
            lines.append(f"  {key} = {toml_value(value)}")
    paytables = bet.get("paytables")
    if isinstance(paytables, dict):
        for name, table in paytables.items():
            if isinstance(table, dict):
                lines.append(f"  [bet.paytables.{json.dumps(name)}]")
                for event_name, pays in table.items():
                    lines.append(f"  {json.dumps(event_name)} = {toml_value(pays)}")
            else:
                lines.append(f"  [bet.paytables]\n  {json.dumps(name)} = {toml_value(table)}")
    elif paytables is not None:
        lines.append(f"paytables = {toml_value(paytables)}")
    return "\n".join(lines) + "\n"


@st.composite
def bet_file(draw, features: tuple[str, ...], ids: tuple[str, ...] = ("mine", "other"),
             hostile_weight: float | None = None) -> bytes:
    """A bet file: structured TOML (valid most of the time, hostile values here and there),
    or raw bytes, non-UTF-8, deep, huge."""
    hostile_weight = min(0.5, HOSTILITY[0] if hostile_weight is None else hostile_weight)
    kind = "bets" if draw(uniform()) >= hostile_weight else draw(
        st.sampled_from(("bets", "bytes", "deep", "huge", "non-utf8", "nul", "long-line",
                         "unicode", "crlf-bom", "deep-tables", "huge-number")))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        depth = draw(st.sampled_from((1000, 10_000, 100_000)))
        return (f"x = {'[' * depth}{']' * depth}\n").encode() if draw(st.booleans()) else \
            ("a = " + "{b = " * depth + "1" + "}" * depth + "\n").encode()
    if kind == "deep-tables":  # dotted keys and table headers nested thousands deep
        depth = draw(st.sampled_from((100, 1000, 20_000)))
        return draw(st.sampled_from((
            "[" + ".".join(["a"] * depth) + "]\nx = 1\n",
            ".".join(["a"] * depth) + " = 1\n",
            "[[bet]]\nid = 'mine'\n[[bet.event]]\nname = 'e'\nwhen = 'winner == 1'\n"
            "pays = " + "[" * depth + "1" + "]" * depth + "\n"))).encode()
    if kind == "huge-number":  # TOML integers and floats past every bound, in every field
        number = draw(st.sampled_from(("9" * 4299, "9" * 4301, "1" + "0" * 100_000,
                                       "0x" + "f" * 5000, "1e99999", "-" + "9" * 5000,
                                       "0o" + "7" * 5000, "1" + "_0" * 3000)))
        field = draw(st.sampled_from(("pays", "gross", "id", "when")))
        values = {"pays": "1", "gross": "25", "id": "'mine'", "when": "'winner == 1'",
                  field: number}
        extra = "" if field != "gross" else f"gross = {values['gross']}\n"
        return (f"[[bet]]\nid = {values['id']}\n[[bet.event]]\nname = 'e'\n"
                f"when = {values['when']}\npays = {values['pays']}\n{extra}").encode()
    bets = []
    for index in range(draw(st.integers(1, 3))):
        bet_id = draw(st.one_of(st.sampled_from(ids), hostile())) if draw(
            uniform()) < hostile_weight else ids[index] if index < len(ids) else f"more-{index}"
        events = []
        for position in range(draw(st.integers(1, 3))):
            event = {"name": f"e{position}",
                     "when": draw(condition(features)),
                     "pays": draw(toml_number()) if draw(uniform()) < hostile_weight
                     else draw(st.sampled_from((1, 2, 8, "19/20", 0.95, "push", 25)))}
            if draw(st.integers(0, 9)) == 0:
                event["gross"] = draw(toml_number()) if draw(uniform()) < \
                    hostile_weight else 25  # at least every valid pays drawn above
            if draw(uniform()) < hostile_weight / 3:
                event[draw(st.sampled_from(("extra", "name", "when")))] = draw(toml_number())
            events.append(event)
        if kind == "unicode":  # ids that look like the ones asked for, and are not
            bet_id = draw(st.sampled_from(("ｍine", "mine\u0301", "mi\u200bne", "MINE", "mine ",
                                           "\u202emine", "mïne", "🎲", "m\x00ine", ids[0])))
        bet: dict = {"id": bet_id,
                     "name": draw(st.sampled_from(("Mine", "", "é" * 200)) if draw(
                         uniform()) >= hostile_weight else st.sampled_from(
                             ("\u202eevil", "x" * 500, "\x00", "\U0010ffff", "a\u0000b"))),
                     "event": events}
        if draw(uniform()) < hostile_weight:
            bet["paytables"] = draw(st.one_of(
                st.just({"alt": {"e0": draw(toml_number())}}),
                st.sampled_from([5, [1, 2], "abc", {"alt": 5}, {"alt": {"nope": 1}}])))
        if draw(uniform()) < hostile_weight:
            bet[draw(st.sampled_from(("group", "otherwise", "paytable", "description",
                                      "unknown")))] = draw(st.one_of(
                                          st.sampled_from(("main", "side", "e0", "")),
                                          toml_number()))
        bets.append(bet)
    text = "".join(_bet_toml(bet) for bet in bets)
    if kind == "huge":
        text = text * draw(st.sampled_from((20, 200)))
    data = text.encode("utf-8", "surrogateescape")
    if kind == "non-utf8":
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.sampled_from((b"\xff", b"\xc3\x28", b"\xed\xa0\x80",
                                                  b"\x80\x80", b"\xfe\xff"))) + data[cut:]
    elif kind == "nul":  # a NUL byte anywhere: in a string, a key, between lines
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + b"\x00" * draw(st.integers(1, 3)) + data[cut:]
    elif kind == "long-line":  # one line of megabytes: a name, a condition, a comment
        size = draw(st.sampled_from((100_000, 2_000_000)))
        data += draw(st.sampled_from((
            b"# " + b"x" * size + b"\n",
            b"[[bet]]\nid = 'long'\nname = '" + b"n" * size + b"'\n[[bet.event]]\nname = 'e'\n"
            b"when = 'winner == 1'\npays = 1\n",
            b"[[bet]]\nid = 'long'\n[[bet.event]]\nname = 'e'\nwhen = '" +
            b" or ".join([b"winner == 'tie'"] * (size // 20)) + b"'\npays = 1\n")))
    elif kind == "crlf-bom":
        data = draw(st.sampled_from((b"\xef\xbb\xbf", b"", b"\xef\xbb\xbf\xef\xbb\xbf"))) + \
            data.replace(b"\n", draw(st.sampled_from((b"\r\n", b"\r", b"\n\r"))))
    return data


DEFAULT_RULES = {
    "decks": 1, "jokers": 1, "joker_values": list(range(10)), "drawn_joker_is_nine": True,
    "natural_pays": 1, "win_pays": 1, "win_pays_by_total": {},
    "showdown": {"stop_on_dealer_joker_up": True, "stop_on_dealer_nine": True,
                 "dealer_wins_ties_on_zero": True, "three_card_nine_pushes_two_card_nine": True},
    "drawing": {"must_draw_max": 4, "must_stand_min": 7, "house_way_draw_max": 5,
                "dealer_house_way_draw_max": 5, "third_cards_face_up": False},
    "collection": {"dealer_pays": True, "table_tags": [
        {"min_bet": 10, "max_bet": 100, "fee": 1}, {"min_bet": 20, "max_bet": 200, "fee": 2}]},
}


def _rules_toml(rules: dict) -> str:
    lines, sections = [], []
    for key, value in rules.items():
        if isinstance(value, dict) and key in ("showdown", "drawing", "collection",
                                               "win_pays_by_total"):
            sections.append((key, value))
        else:
            lines.append(f"{key} = {toml_value(value)}")
    for name, table in sections:
        lines.append(f"[{name}]")
        for key, value in table.items():
            lines.append(f"{json.dumps(str(key))} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


@st.composite
def rule_file(draw) -> bytes:
    """A century21 rule file: the defaults (one deck, one joker) with a few settings
    mutated, or raw junk."""
    level, kind = _rule_kind(draw)
    if kind in ("bytes", "deep"):
        return _junk(draw, kind, "decks")
    rules = json.loads(json.dumps(DEFAULT_RULES))
    for _ in range(draw(st.integers(0, 1 + int(6 * level))) if level else 0):
        where = draw(st.sampled_from(("top", "showdown", "drawing", "collection", "tags",
                                      "by_total", "unknown")))
        value = _rule_value(draw, level)
        if where == "top":
            rules[draw(st.sampled_from(("decks", "jokers", "joker_values", "natural_pays",
                                        "win_pays", "drawn_joker_is_nine", "id", "name")))] = value
        elif where in ("showdown", "drawing"):
            rules[where][draw(st.sampled_from(sorted(rules[where])))] = value
        elif where == "collection":
            rules["collection"][draw(st.sampled_from(("dealer_pays", "table_tags")))] = value
        elif where == "tags":
            tags = rules["collection"]["table_tags"]
            # an earlier draw may have replaced the list of tags by a number, string or list
            if isinstance(tags, list) and tags and isinstance(tags[0], dict):
                tags[0][draw(st.sampled_from(("min_bet", "max_bet", "fee", "other")))] = value
        elif where == "by_total":
            key = draw(st.one_of(st.integers(-1, 11).map(str), st.sampled_from(UNICODE_DIGITS),
                                 hostile()))
            rules["win_pays_by_total"][key] = value
        else:
            rules[draw(st.sampled_from(("bogus", "decks ", "DECKS")))] = value
    return _spoiled(_rules_toml(rules).encode("utf-8", "surrogateescape"), kind)


def _rule_kind(draw) -> tuple[float, str]:
    """The case's hostility (at most 0.5) and what a rule file is: rules, or now and then
    random bytes, rules with a byte that is not UTF-8, arrays nested 50,000 deep."""
    level = min(0.5, HOSTILITY[0])
    return level, "rules" if draw(uniform()) >= level else draw(
        st.sampled_from(("rules", "bytes", "non-utf8", "deep")))


def _junk(draw, kind: str, key: str) -> bytes:
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    return (f"{key} = " + "[" * 50_000 + "]" * 50_000 + "\n").encode()


def _spoiled(data: bytes, kind: str) -> bytes:
    return data[:20] + b"\xff\xfe" + data[20:] if kind == "non-utf8" else data


def _rule_value(draw, level: float, *more: st.SearchStrategy) -> object:
    """A rule's new value: a small integer mostly, a hostile one with the case's hostility."""
    return draw(st.one_of(toml_number(), st.integers(-3, 12), st.booleans(), *more,
                          st.lists(st.integers(-2, 12), max_size=4))
                if draw(uniform()) < 2 * level else st.integers(1, 9))


CHEMIN_RULES = {
    "id": "parlor", "name": "Baccara chemin de fer", "naturals": [8, 9],
    "player_draws_on": [0, 1, 2, 3, 4], "player_stands_on": [6, 7], "player_chooses_on": [5],
    "decks": 6, "commission": "0",
    "house_way": {"player_draws_on_five": True,
                  "banker_draws_when_player_stands": [0, 1, 2, 3, 4, 5]},
    "house_way.banker_draws_on_player_third": {
        "0": list(range(10)), "1": list(range(10)), "2": list(range(10)),
        "3": [0, 1, 2, 3, 4, 5, 6, 7, 9], "4": [2, 3, 4, 5, 6, 7], "5": [4, 5, 6, 7],
        "6": [6, 7], "7": []},
}
# splits of the totals 0-7 between the Player's draw, stand and choice (naturals 8 and 9)
CHEMIN_SPLITS = (([0, 1, 2, 3, 4], [6, 7], [5]), ([0, 1, 2, 3], [6, 7], [4, 5]),
                 ([0, 1, 2, 3, 4, 5], [6, 7], []), ([0, 1, 2], [7], [3, 4, 5, 6]),
                 ([], [], [0, 1, 2, 3, 4, 5, 6, 7]), ([0, 1, 2, 3, 4], [5, 6, 7], []))


@st.composite
def chemin_rule_file(draw) -> bytes:
    """A chemin de fer rule file: the shipped rules with the Player's choices moved, a field
    mutated or removed, an unknown key, or raw junk."""
    level, kind = _rule_kind(draw)
    if kind in ("bytes", "deep"):
        return _junk(draw, kind, "naturals")
    rules = json.loads(json.dumps(CHEMIN_RULES))
    if draw(st.booleans()):
        draws, stands, chooses = draw(st.sampled_from(CHEMIN_SPLITS))
        rules.update(player_draws_on=draws, player_stands_on=stands, player_chooses_on=chooses)
        # House Way for each choice total, as a rule file must give it (issue 26): the five
        # by its flag, the others in their own table; now and then one left out (refused)
        if 5 not in chooses:
            rules["house_way"].pop("player_draws_on_five")
        others = {str(total): draw(st.booleans()) for total in chooses if total != 5}
        if others and draw(st.integers(0, 5)):
            rules["house_way.player_draws_on_choice"] = others
    for _ in range(draw(st.integers(0, 1 + int(6 * level))) if level else 0):
        value = _rule_value(draw, level, st.sampled_from(("true", "false", "yes", "", "5%",
                                                          "1/20")))
        where = draw(st.sampled_from(("top", "house", "third", "drop", "unknown")))
        if where == "top":
            rules[draw(st.sampled_from(("id", "name", "naturals", "player_draws_on",
                                        "player_stands_on", "player_chooses_on", "decks",
                                        "commission")))] = value
        elif where == "house":
            rules["house_way"][draw(st.sampled_from(sorted(rules["house_way"])))] = value
        elif where == "third":
            key = draw(st.one_of(st.integers(-1, 10).map(str), st.sampled_from(UNICODE_DIGITS)))
            rules["house_way.banker_draws_on_player_third"][key] = value
        elif where == "drop":
            rules.pop(draw(st.sampled_from(sorted(rules))), None)
        else:
            rules[draw(st.sampled_from(("bogus", "comission", "Decks")))] = value
    lines, sections = [], []
    for key, value in rules.items():
        if isinstance(value, dict):
            sections.append((key, value))
        else:
            lines.append(f"{key} = {toml_value(value)}")
    for name, table in sections:
        lines.append(f"[{name}]")
        lines += [f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in table.items()]
    return _spoiled(("\n".join(lines) + "\n").encode("utf-8", "surrogateescape"), kind)


@st.composite
def table_file(draw) -> bytes:
    """A 21st Century Baccarat table file for ``settle century21`` (a hand of the dealer and
    one to three seats, their wagers), with hostile values now and then, or raw junk."""
    level = min(0.5, HOSTILITY[0])
    kind = "table" if draw(uniform()) >= level else draw(
        st.sampled_from(("table", "bytes", "deep", "huge", "non-utf8")))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        return ("dealer = " + "[" * 50_000 + "]" * 50_000 + "\n").encode()
    if kind == "huge":
        return b"# " + b"x" * draw(st.sampled_from((70_000, 3_000_000))) + b"\n"

    # one value spoiled (so that it reaches its own check: values are checked in turn, and an
    # earlier refusal hides a later bug), and now and then others
    spoiled = draw(st.integers(0, 11)) if draw(uniform()) < 2 * level else -1
    emitted = [0]

    def value(valid: st.SearchStrategy) -> object:
        emitted[0] += 1
        if emitted[0] - 1 == spoiled or draw(uniform()) < level / 4:
            return draw(st.one_of(toml_number(), st.sampled_from(UNICODE_DIGITS + SEATS),
                                  st.booleans(), hostile()))
        return draw(valid)

    hand = draw(century21_hand())
    lines = [f"dealer = {toml_value(value(st.just(hand['dealer'])))}",
             f"dealer_wager = {toml_value(value(st.sampled_from((300, '300', '12.5', 1000))))}"]
    if draw(st.booleans()):
        lines.append(f"dice = {toml_value(value(st.sampled_from(sorted(hand['seats']))))}")
    for key, valid in (("table", st.sampled_from((1, 2))),
                       ("action", st.sampled_from(("seat-by-seat", "whole-hand"))),
                       ("dealer_free_collection", st.booleans())):
        if draw(st.integers(0, 3)) == 0:
            lines.append(f"{key} = {toml_value(value(valid))}")
    if draw(uniform()) < level / 3:
        lines.append(f"{draw(st.sampled_from(('bogus', 'Dealer', 'seats')))} = 1")
    for seat, cards in hand["seats"].items():
        lines += ["[[seat]]", f"seat = {toml_value(value(st.just(seat)))}",
                  f"cards = {toml_value(value(st.just(cards)))}"]
        if draw(st.integers(0, 4)) == 0:
            lines.append(f"natural_declared = {toml_value(value(st.booleans()))}")
    for seat in hand["seats"]:
        for circle in range(1, draw(st.integers(1, 3)) + 1):
            lines += ["[[wager]]", f"seat = {toml_value(value(st.just(seat)))}",
                      f"circle = {toml_value(value(st.just(circle)))}",
                      f"amount = {toml_value(value(st.sampled_from((10, 25, '12.5', '25/2'))))}"]
            if draw(st.integers(0, 4)) == 0:
                lines.append(f"player = {toml_value(value(st.sampled_from(('Ann', 'Bob'))))}")
            if draw(st.integers(0, 4)) == 0:
                lines.append(f"choice = {toml_value(value(st.sampled_from(('draw', 'stand'))))}")
            if draw(st.integers(0, 5)) == 0:
                lines.append(f"free_collection = {toml_value(value(st.booleans()))}")
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")
    if kind == "non-utf8":
        data = data[:10] + b"\xff" + data[10:]
    return data


SEATS = ("0", "100", "-1", "3.0", " 3", "3 ", "+3", "03", "1e1", "")  # not seat numbers
C21_CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "K", "X", "9H", "KD", "5S")


@st.composite
def century21_hand(draw) -> dict:
    """Cards of a table hand: the dealer's two to four, each seat's two to four (a random
    count of cards: many hands are refused for a wrong draw, which is the point too)."""
    def cards() -> str:
        return " ".join(draw(st.lists(st.sampled_from(C21_CARDS), min_size=2, max_size=4)))

    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=3, unique=True))
    if draw(uniform()) < HOSTILITY[0]:  # a random count of random cards: mostly refused
        return {"dealer": cards(), "seats": {seat: cards() for seat in seats}}
    return {"dealer": draw(st.sampled_from(C21_DEALER)),
            "seats": {seat: draw(st.sampled_from(C21_SEATS)) for seat in seats}}


# hands the rules draw to (tests/cli/test_settle.py's table, and two-card hands that stand)
C21_DEALER = ("KH 7C", "9C KD", "8S 9D", "KH 7C")
C21_SEATS = ("KC QD 5S", "3C KH 9S", "9S KD", "8C KD", "KC 4D 2S", "9H KS", "X X", "7S 9H",
             "8D 9C")


@st.composite
def seen_file(draw, jokers: bool = False) -> bytes:
    kind = "cards" if draw(uniform()) >= min(0.5, HOSTILITY[0]) else draw(
        st.sampled_from(("cards", "bytes", "non-utf8", "huge", "empty")))
    if kind == "bytes":
        return draw(st.binary(max_size=100))
    if kind == "empty":
        return b""
    text = draw(card_list(jokers, max_size=8))
    if kind == "huge":
        text = (text + " ") * draw(st.sampled_from((1000, 100_000)))
    data = text.encode("utf-8", "surrogateescape")
    if kind == "non-utf8":
        data = b"9H \xff\xfe " + data
    return data


# --- argument vectors -----------------------------------------------------------------------------
# bets the fork server has analysed already (another shipped bet costs a second or two)
CHEAP_BETS = {"punto-banco": ("tie", "player", "banker", "player-pair", "big"),
              "nine-and-nines": ("nines", "nine-player", "nine-banker", "tie")}
OUTPUTS = ("out.json", "out", "sub/missing/out.txt", "dir", "fifo", "link", "dev", ".", "",
           "out.txt ", "-", "old.txt", "ro/out.json", "dir/", "link-dir", "loop", "x" * 300,
           "dangling")


@st.composite
def output_option(draw, always: bool = False) -> tuple[list[str], dict]:
    """``-o NAME`` into the case's directory: a new file mostly, else a directory, a FIFO, a
    symlink (to a file, a directory, itself, nowhere), a (copied) device node, a missing
    directory, a read-only directory, a file that exists."""
    if not always and draw(st.integers(0, 3)):
        return [], {}
    name = draw(st.sampled_from(OUTPUTS[:2])) if draw(uniform()) >= 2 * HOSTILITY[0] \
        else draw(st.sampled_from(OUTPUTS))
    extra: dict = {}
    if name == "old.txt":
        extra["files"] = {"old.txt": b"the old content\n"}
    elif name == "ro/out.json":  # (root writes there all the same)
        extra["directories"] = ["ro"]
        extra["read_only"] = ["ro"]
    elif name == "link-dir":
        extra["directories"] = ["a-directory"]
        extra["symlinks"] = {"link-dir": "a-directory"}
    elif name == "loop":
        extra["symlinks"] = {"loop": "loop"}
    elif name == "dangling":
        extra["symlinks"] = {"dangling": "missing/target.txt"}
    elif name in ("dir", "dir/"):
        extra["directories"] = ["dir"]
    elif name == "fifo":
        extra["fifos"] = ["fifo"]
    elif name == "link":
        extra["symlinks"] = {"link": "target.txt"}
        extra["files"] = {"target.txt": b"keep me\n"}
    elif name == "dev":
        extra["devices"] = {"dev": (1, 3)}  # a copy of /dev/null's node, in the case directory
    return [draw(st.sampled_from(("-o", "--output"))), name], extra


def _features_of(game: str) -> tuple[str, ...]:
    family = VALUE_FEATURES if game == "punto-banco" else VALUE_FEATURES + NINE_FEATURES[:4]
    return family


@st.composite
def shoe_options(draw, game: str, allow_default: bool = True, tiny_only: bool = False,
                 remove: bool = True, prefer_decks: bool = False) -> list[str]:
    """--decks 1, --shoe of a few cards, both, neither (8 decks), or hostile values (a valid
    shoe is one the fork server warmed, or small enough to cost nothing new)."""
    jokers = game == "century21"
    choice = draw(st.sampled_from(("tiny", "decks", "none"))) if draw(
        uniform()) >= min(0.5, HOSTILITY[0]) else draw(st.sampled_from(
            ("hostile-decks", "hostile-shoe", "both", "tiny")))
    if tiny_only and choice in ("decks", "none"):
        choice = "tiny"
    if choice == "none" and (not allow_default or jokers):
        choice = "decks"
    if prefer_decks and choice == "tiny":
        choice = "decks"
    argv: list[str] = []
    if choice == "tiny":
        argv += ["--shoe", draw(tiny_shoe(jokers))]
    elif choice == "decks":
        argv += ["--decks", "1"]
    elif choice == "hostile-decks":
        argv += ["--decks", draw(hostile())]
    elif choice == "hostile-shoe":
        argv += ["--shoe", draw(hostile_shoe())]
    elif choice == "both":
        argv += ["--decks", "1", "--shoe", draw(st.one_of(tiny_shoe(jokers), st.just("")))]
    if remove and draw(st.integers(0, 3)) == 0:
        argv += ["--remove", draw(either(card_list(jokers, 3, 1), 1))]
    return argv


class Special:
    """An input file that is not one: a directory, a symlink (to a directory, to itself, to
    nothing, or to the file), a copy of /dev/zero's or /dev/null's node, or nothing at all;
    :func:`cases` turns it into the case's directories, symlinks and devices."""

    KINDS = ("directory", "loop", "dangling", "link-to-dir", "zero", "null", "missing", "link")

    def __init__(self, kind: str, content: bytes) -> None:
        self.kind, self.content = kind, content


def _files_option(draw, argv: list[str], files: dict, option: str, name: str,
                  content: bytes) -> None:
    """``option name``, the file holding ``content``, or now and then not a file at all."""
    argv += [option, name]
    special = draw(uniform()) < HOSTILITY[0] / 4
    files[name] = Special(draw(st.sampled_from(Special.KINDS)), content) if special else content


def _special_files(files: dict) -> tuple[dict, dict]:
    """``files`` without their :class:`Special` entries, and the case's keyword arguments
    that make those (directories, symlinks, devices)."""
    plain: dict = {}
    extra: dict = {"directories": [], "symlinks": {}, "devices": {}}
    for name, content in files.items():
        if not isinstance(content, Special):
            plain[name] = content
        elif content.kind == "directory":
            extra["directories"].append(name)
        elif content.kind == "loop":
            extra["symlinks"][name] = name
        elif content.kind == "dangling":
            extra["symlinks"][name] = "nowhere/at/all.toml"
        elif content.kind == "link-to-dir":
            extra["directories"].append("a-directory")
            extra["symlinks"][name] = "a-directory"
        elif content.kind in ("zero", "null"):
            extra["devices"][name] = (1, 5) if content.kind == "zero" else (1, 3)
        elif content.kind == "link":
            plain[f"real/{name}"] = content.content
            extra["symlinks"][name] = f"real/{name}"
    return plain, extra


@st.composite
def analyze_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    argv, files = ["analyze", game], {}
    if game == "chemin-de-fer":
        argv += draw(chemin_options())
        if draw(uniform()) < HOSTILITY[0] / 2:  # another game's option: refused
            argv += draw(st.sampled_from((["--bet", "tie"], ["--jokers", "1"], ["--shoe", "A:4"],
                                          ["--bet-size", "10"], ["--players", "3"],
                                          ["--remove", "9"], ["--csv"], ["--group", "main"])))
        if "--rules" in argv:
            argv.remove("--rules")
            _files_option(draw, argv, files, "--rules", "rules.toml", draw(chemin_rule_file()))
    elif game == "century21":
        argv += draw(shoe_options(game))
        tiny = "--decks" not in argv  # a new 1-deck shoe costs a strategy search (seconds)
        if draw(st.integers(0, 2)) == 0 and (tiny or HOSTILITY[0]):
            argv += ["--jokers", draw(either(st.sampled_from(("0", "1", "2")), 0.5))]
        if draw(st.booleans()):
            argv += ["--strategy", draw(either(st.sampled_from(
                ("house", "best", "dealer-best", "equilibrium")), 0.2))]
        if draw(st.integers(0, 2)) == 0:
            argv += ["--bet", draw(either(st.sampled_from(("10", "25", "100", "1/2")), 0.6))]
        if draw(st.integers(0, 2)) == 0:
            argv += ["--collection", draw(either(st.sampled_from(("1", "0", "2.5")), 0.6))]
        if draw(st.integers(0, 3)) == 0:
            argv += ["--information", draw(either(st.sampled_from(
                ("total", "cards") if tiny else ("total",)), 0.2))]
        if draw(st.integers(0, 3)) == 0:
            argv += ["--players", draw(either(st.sampled_from(("1", "3", "7")), 0.6))]
        if draw(st.integers(0, 2)) == 0:
            _files_option(draw, argv, files, "--rules", "rules.toml", draw(rule_file()))
        if draw(st.integers(0, 4)) == 0 and "--bet" not in argv:
            argv += ["--bet-size", draw(either(st.sampled_from(("10", "20", "15/2")), 0.6))]
        if draw(st.integers(0, 4)) == 0:
            argv += ["--dealer-wager", draw(either(st.sampled_from(("100", "1000", "5")), 0.6))]
        if draw(uniform()) < HOSTILITY[0] / 3:  # chemin de fer's or a bet game's: refused
            argv += draw(st.sampled_from((["--with-replacement"], ["--commission", "5%"],
                                          ["--group", "main"], ["--paytable", "tie=9-to-1"])))
    else:
        if draw(uniform()) < HOSTILITY[0] / 3:  # a strategy game's option: refused
            argv += draw(st.sampled_from((["--strategy", "best"], ["--with-replacement"],
                                          ["--commission", "5%"], ["--players", "3"],
                                          ["--bet-size", "10"], ["--dealer-wager", "5"],
                                          ["--information", "cards"], ["--collection", "1"])))
        direct = draw(st.integers(0, 3)) == 0
        argv += draw(shoe_options(game, tiny_only=direct))
        shoe = option_value(argv, "--shoe")
        if direct and shoe and "--decks" not in argv:  # card by card: only a few cards
            argv += ["--engine", "direct"]
        elif draw(st.integers(0, 9)) == 0:
            argv += ["--engine", draw(hostile())]
        if draw(st.integers(0, 5)) == 0:
            argv += ["--jokers", draw(either(st.sampled_from(("0", "1")), 0.6))]
        own = draw(st.integers(0, 2)) == 0
        if own:
            _files_option(draw, argv, files, "--bets", "bets.toml",
                          draw(bet_file(_features_of(game))))
            argv += ["--bet", draw(st.sampled_from(("mine", "other", "tie")))]
        else:
            for _ in range(draw(st.integers(1, 2))):
                argv += ["--bet", draw(either(st.sampled_from(CHEAP_BETS[game]), 0.2))]
        if draw(st.integers(0, 5)) == 0:
            argv += ["--group", draw(either(st.sampled_from(("main", "side", "nines")), 0.5))]
        if draw(st.integers(0, 4)) == 0:
            argv += ["--paytable", draw(either(st.sampled_from(
                ("tie=9-to-1", "banker=commission-4%", "tie=nope", "tie", "=", "mine=alt")),
                0.4))]
        if draw(st.integers(0, 3)) == 0:
            _files_option(draw, argv, files, "--table", "table.toml",
                          draw(bet_file(_features_of(game), ("tie", "player", "nines"))))
        if draw(st.integers(0, 4)) == 0 and "--decks" not in argv and "--shoe" not in argv:
            # several numbers of decks side by side (issue 31)
            argv += ["--decks", draw(either(st.sampled_from(("1,2", "2,1,4", "1,1", "1,")),
                                            0.3))]
    if draw(st.integers(0, 4)) == 0:  # (a strategy game's: refused)
        argv += ["--view", draw(either(st.sampled_from(("summary", "full")), 0.3))]
    fmt = draw(st.sampled_from(((), ("--json",), ("--json",), ("--csv",))))
    argv += list(fmt) if game != "chemin-de-fer" or "--csv" not in fmt else []
    return argv, files, b""


@st.composite
def chemin_options(draw) -> list[str]:
    """The options of ``analyze chemin-de-fer``: decks or with replacement, the information
    model, the strategy pair, the commission, a rule file (hostile values now and then)."""
    argv: list[str] = []
    choice = draw(st.sampled_from(("default", "decks", "replacement", "both")))
    if choice in ("decks", "both"):
        argv += ["--decks", draw(either(st.sampled_from(("1", "2", "6", "8", "64")), 0.4))]
    if choice in ("replacement", "both"):
        argv.append("--with-replacement")
    if draw(st.booleans()):
        argv += ["--information", draw(either(st.sampled_from(
            ("totals", "banker-cards", "cards", "total")), 0.2))]
    if draw(st.booleans()):
        argv += ["--strategy", draw(either(st.sampled_from(
            ("house", "best", "dealer-best", "equilibrium")), 0.3))]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--commission", draw(either(st.sampled_from(
            ("5%", "0", "1/20", "0.05", "0.1", "10%", "11%", "1/0", "-5%")), 0.6))]
    if draw(st.integers(0, 2)) == 0:
        argv.append("--rules")  # its file is drawn by the caller
    return argv


DESIGN_TIERS = {  # bets to design, each with the tiers that may be solved for
    "punto-banco": {"tie": ("Tie", "tie"), "player": ("Player wins",),
                    "banker": ("Banker wins", "Tie", "banker-wins,tie"),
                    "big": ("five-or-six-cards",)},
    "nine-and-nines": {"tie": ("Tie",), "banker": ("Banker wins", "Tie")},
}


@st.composite
def design_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    argv, files = ["design", game], {}
    argv += draw(shoe_options(game if game not in STRATEGY_GAMES else "punto-banco",
                              allow_default=False))
    own = draw(st.integers(0, 3)) == 0
    if own:
        _files_option(draw, argv, files, "--bets", "bets.toml", draw(bet_file(_features_of(game))))
    shipped = sorted(DESIGN_TIERS.get(game, DESIGN_TIERS["punto-banco"]))
    bet = draw(st.sampled_from(("mine",) if own else shipped))
    argv += ["--bet", draw(either(st.just(bet), 0.2))]
    tiers = {"mine": ("e0", "e1", "e0,e1"), **DESIGN_TIERS.get(game, {})}.get(bet, ("Tie",))
    for _ in range(draw(st.integers(1, 2))):  # its own tiers mostly, any now and then
        argv += ["--solve-for", draw(either(st.sampled_from(tiers), 0.3) if draw(
            uniform()) >= HOSTILITY[0] else st.sampled_from(
                ("Tie", "tie", "Banker wins", "e0", "e0,e1", "Player wins", "Double", "Single")))]
    argv += ["--target-edge", draw(either(st.sampled_from(("0.05", "5%", "1/20", "0.01", "-0.1",
                                                           "0", "1%")), 0.5))]
    if draw(st.integers(0, 4)) == 0:
        argv += ["--paytable", draw(either(st.sampled_from(("9-to-1", "8-to-1", "alt")), 0.4))]
    if draw(st.integers(0, 4)) == 0:
        argv += ["--engine", "direct"] if "--shoe" in argv else ["--engine", draw(either(
            st.sampled_from(("auto", "compiled")), 1))]
    if draw(st.integers(0, 4)) == 0:
        _files_option(draw, argv, files, "--table", "table.toml",
                      draw(bet_file(_features_of(game), ("tie", "player"))))
    if draw(st.booleans()):
        argv.append("--json")
    return argv, files, b""


@st.composite
def counting_options(draw, game: str, argv: list[str], files: dict) -> None:
    """--bet/--bets, and the century21 options, shared by eor, simulate and edge."""
    if game == "chemin-de-fer":  # no bet table: any bet or century21 option is refused
        if draw(st.integers(0, 2)) == 0:
            argv += draw(st.sampled_from((["--bet", "tie"], ["--information", "total"],
                                          ["--strategy", "best"], ["--bets", "bets.toml"])))
            if "bets.toml" in argv:
                files["bets.toml"] = draw(bet_file(_features_of("punto-banco")))
        return
    if game == "century21":
        if draw(st.integers(0, 2)) == 0:
            argv += ["--information", draw(either(st.sampled_from(
                ("total", "cards") if "--decks" not in argv else ("total",)), 0.2))]
        if draw(st.integers(0, 2)) == 0:
            _files_option(draw, argv, files, "--rules", "rules.toml", draw(rule_file()))
        if draw(uniform()) < HOSTILITY[0] / 3:
            argv += ["--bet", "tie"]  # a bet game's option: refused
        return
    if draw(uniform()) < HOSTILITY[0] / 3:
        argv += ["--strategy", "best"]  # a century21 option elsewhere: refused
    if draw(st.integers(0, 2)) == 0:
        _files_option(draw, argv, files, "--bets", "bets.toml", draw(bet_file(_features_of(game))))
        argv += ["--bet", draw(st.sampled_from(("mine", "other", "tie")))]
    else:
        for _ in range(draw(st.integers(0, 2))):
            argv += ["--bet", draw(either(st.sampled_from(CHEAP_BETS[game]), 0.2))]


@st.composite
def eor_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    argv, files = ["eor", game], {}
    argv += draw(shoe_options(game, allow_default=False, prefer_decks=game == "century21"))
    if draw(st.integers(0, 2)) == 0:
        argv += ["--depth", draw(either(st.sampled_from(("1", "2")), 0.6))]
    for _ in range(draw(st.integers(0, 2))):
        argv += ["--removal-set", draw(either(card_list(game == "century21", 4, 1), 1))]
    if draw(st.integers(0, 2)) == 0:
        keys = ("A", "2", "5", "9", "T", "10") + (("X",) if game == "century21" else ())
        tag = st.tuples(st.sampled_from(keys), either(st.sampled_from(("1", "-1", "2", "0")),
                                                      0.4)).map(lambda t: f"{t[0]}={t[1]}")
        argv += ["--tags", draw(either(st.lists(tag, min_size=1, max_size=4, unique_by=_key)
                                       .map(",".join), 0.5))]
    if game == "century21" and draw(st.booleans()):
        argv += ["--strategy", draw(either(st.sampled_from(("house", "best", "dealer-best")),
                                           0.3))]
    draw(counting_options(game, argv, files))
    if draw(st.booleans()):
        argv.append("--json")
    return argv, files, b""


@st.composite
def simulate_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    argv, files = ["simulate", game], {}
    argv += ["--shoes", draw(either(st.sampled_from(("1", "2")), 0.2)),
             "--seed", draw(either(st.sampled_from(("0", "7", "20261130", str(2 ** 64))), 0.3))]
    decks = draw(st.integers(0, 9))
    argv += ["--decks", "1" if decks else draw(hostile())]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--cut", draw(either(st.sampled_from(("0", "14", "30", "52")), 0.5))]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--burn", draw(either(st.sampled_from(("none", "first-card", "0", "3", "52")),
                                       0.5))]
    workers = draw(st.integers(0, 19))
    argv += ["--workers", "1" if workers else draw(st.sampled_from(
        ("0", "-1", "²", "1e9", "", "x", str(10 ** 30))))]
    if draw(st.integers(0, 14)) == 0:
        argv += ["--scheduler", draw(st.sampled_from(("not a url", "", "tcp://", "tcp://:",
                                                      "\udcff", "x" * 1000)))]
    if draw(st.integers(0, 2)) == 0:
        keys = ("A", "2", "5", "9", "T") + (("X",) if game == "century21" else ())
        tag = st.tuples(st.sampled_from(keys), either(st.sampled_from(("1", "-1")), 0.4)).map(
            lambda t: f"{t[0]}={t[1]}")
        argv += ["--tags", draw(either(st.lists(tag, min_size=1, max_size=3, unique_by=_key)
                                       .map(",".join), 0.5))]
    for _ in range(draw(st.integers(0, 2))):
        bet = draw(st.sampled_from(CHEAP_BETS.get(game, ("player",)) + ("mine",)))
        argv += ["--trigger", draw(
            either(st.sampled_from(("2", "-1", "0.5")), 0.6).map(lambda v, b=bet: f"{b}={v}")
            if draw(uniform()) >= HOSTILITY[0] else
            st.sampled_from((f"{bet}=nan", f"{bet}=inf", f"{bet}=-inf", f"{bet}=1e999",
                             "=", bet, f"{bet}==1", f"{bet}=-nan")))]
    draw(counting_options(game, argv, files))
    if game == "century21" and draw(st.booleans()):
        # only the warmed House Way: another pair is searched afresh (20 s at one deck)
        argv += ["--strategy", draw(either(st.just("house"), 0.3))]
    if draw(st.booleans()):
        argv.append("--json")
    return argv, files, b""


@st.composite
def edge_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    argv, files = ["edge", game], {}
    argv += draw(shoe_options(game, allow_default=False, remove=False))
    stdin = b""
    seen = draw(seen_file(game == "century21"))
    where = draw(st.sampled_from(("file", "stdin", "dash", "missing")))
    if where == "file":
        _files_option(draw, argv, files, "--seen", "seen.txt", seen)
    elif where == "dash":
        argv += ["--seen", "-"]
        stdin = seen
    elif where == "stdin":
        stdin = seen
    else:
        argv += ["--seen", draw(st.sampled_from(("nope.txt", "", ".", "\udcff")))]
    if "--decks" not in argv and draw(st.integers(0, 3)) == 0:
        # card by card: a tiny shoe only (at one deck this takes minutes: see the report)
        argv += ["--known", draw(either(st.tuples(st.sampled_from(("1", "2", "6")),
                                                  st.sampled_from(SUITED)).map(
                                                      lambda t: f"{t[0]}={t[1]}"),
                                        0.5) if draw(uniform()) >= HOSTILITY[0] else
                                 st.sampled_from(("²=9H", "１=9H", "0=9H", "7=9H", "1=", "=9H",
                                                  "1=9H=9H")))]
    draw(counting_options(game, argv, files))
    if draw(st.booleans()):
        argv.append("--json")
    return argv, files, stdin


SETTLE_BETS = {"punto-banco": ("player", "banker", "tie", "player-pair", "big", "small"),
               "nine-and-nines": ("nines", "nine-player", "nine-banker", "tie", "banker")}
SUITED = tuple(r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
               for s in "CDHS")


@st.composite
def settle_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    """``settle``: a round's cards and wagers (Punto Banco, NINE & NINES), a table hand by file
    or options (21st Century Baccarat), nothing to settle (chemin de fer), with the other
    games' options now and then (refused)."""
    argv, files = ["settle", game], {}
    if game == "century21":
        if draw(st.booleans()):
            flag = draw(st.sampled_from(("--table-hand", "--table-hand", "--table")))  # old
            _files_option(draw, argv, files, flag, "table.toml", draw(table_file()))
        else:
            hand = draw(century21_hand())
            argv += ["--dealer", draw(either(st.just(hand["dealer"]), 0.3))]

            def number(seat: int) -> str:  # a seat as written: now and then not a number
                return draw(st.sampled_from(UNICODE_DIGITS + SEATS)) if draw(
                    uniform()) < HOSTILITY[0] / 4 else str(seat)

            for seat, cards in hand["seats"].items():
                argv += ["--seat", draw(either(st.just(f"{number(seat)}={cards}"), 0.3))]
                for circle in range(1, draw(st.integers(1, 3)) + 1):
                    amount = draw(either(st.sampled_from(("10", "25", "12.5", "25/2")), 0.4))
                    argv += ["--wager", draw(either(st.just(
                        f"{number(seat)}.{circle}={amount}"), 0.2))]
            argv += ["--dealer-wager", draw(either(st.sampled_from(("300", "1000", "7/2")), 0.4))]
            if draw(st.integers(0, 2)) == 0:
                argv += ["--dice", draw(either(st.sampled_from(
                    tuple(map(str, hand["seats"])) + ("1", "99")), 0.6).map(
                        lambda text: number(int(text)) if text.isascii() and text.isdigit()
                        else text))]
        if draw(st.integers(0, 3)) == 0:
            argv += ["--action", draw(either(st.sampled_from(("seat-by-seat", "whole-hand")),
                                             0.2))]
        if draw(st.integers(0, 3)) == 0:
            _files_option(draw, argv, files, "--rules", "rules.toml", draw(rule_file()))
        if draw(uniform()) < HOSTILITY[0] / 2:
            argv += draw(st.sampled_from((["--cards", "9H 5C 9D 2S"], ["--paytable", "tie=x"],
                                          ["--bets", "bets.toml"])))
            files.setdefault("bets.toml", b"")
    elif game in SETTLE_BETS:
        if draw(uniform()) >= HOSTILITY[0]:  # a round's cards, as many as it deals
            cards = _dealt_round(game, draw(st.lists(st.sampled_from(SUITED), min_size=6,
                                                     max_size=6)))
        else:
            cards = draw(st.one_of(card_list(False, 7), hostile(), st.lists(
                st.sampled_from(SUITED), min_size=3, max_size=7).map(" ".join)))
        argv += ["--cards", cards]
        own = draw(st.integers(0, 3)) == 0
        if own:
            _files_option(draw, argv, files, "--bets", "bets.toml",
                          draw(bet_file(_features_of(game))))
        choices = SETTLE_BETS[game] + (("mine", "other") if own else ())
        wagered = draw(st.lists(st.sampled_from(choices), min_size=0 if HOSTILITY[0] else 1,
                                max_size=3, unique=draw(uniform()) >= HOSTILITY[0] / 2))
        if game == "nine-and-nines" and draw(uniform()) >= HOSTILITY[0]:
            wagered = ["banker", *wagered]  # the NINE bets are taken beside a main wager
        for bet in dict.fromkeys(wagered) if wagered.count("banker") > 1 else wagered:
            amount = draw(either(st.sampled_from(("10", "1", "2.5", "5/2", "100")), 0.5))
            argv += ["--wager", draw(either(st.just(f"{bet}={amount}"), 0.15))]
        paytable = {"tie": "9-to-1", "banker": "commission-4%", "mine": "alt"}
        known = [f"{bet}={paytable[bet]}" for bet in wagered if bet in paytable]
        if draw(st.integers(0, 3)) == 0 and (known or HOSTILITY[0]):
            argv += ["--paytable", draw(st.sampled_from(known) if known and draw(
                uniform()) >= HOSTILITY[0] else st.sampled_from(
                    ("tie=8-to-1", "tie", "=x", "player=alt", "tie=9-to-1")))]
        if draw(uniform()) < HOSTILITY[0] / 2:
            argv += draw(st.sampled_from((["--dealer", "KH 7C"], ["--seat", "3=9S KD"],
                                          ["--dice", "3"], ["--action", "whole-hand"],
                                          ["--dealer-wager", "300"])))
    elif draw(st.booleans()):  # chemin de fer: a strategy game, nothing to settle
        argv += draw(st.sampled_from((["--cards", "9H 5C 9D 2S"], ["--wager", "player=10"],
                                      ["--dealer", "KH 7C"])))
    if draw(st.booleans()):
        argv.append("--json")
    return argv, files, b""


def _key(tag: str) -> str:
    """The card of a tag ``KEY=VALUE`` (10 and T are one): a count tags each card once."""
    return tag.partition("=")[0].replace("10", "T")


def _dealt_round(game: str, cards: list[str]) -> str:
    """The first of ``cards`` that a round of ``game`` deals (four to six)."""
    from exact.core.cards import parse_cards
    from exact.games import get_game

    record = get_game(game).record_from_cards(parse_cards(" ".join(cards)))
    return " ".join(cards[:sum(len(hand) for hand in record)])


@st.composite
def simple_argv(draw, command: str, game: str) -> tuple[list[str], dict, bytes]:
    argv, files = [command, draw(either(st.just(game), 0.2))], {}
    if command == "list-bets" and draw(st.booleans()):
        _files_option(draw, argv, files, "--bets", "bets.toml", draw(bet_file(_features_of(game))))
    if draw(st.integers(0, 4)) == 0:
        argv.append(draw(st.sampled_from(("--json", "--bogus", "extra", "--bets"))))
    return argv, files, b""


# --- inputs named as outputs (issue 26) -----------------------------------------------------------
# Per input option of each command: a command line that takes it (valid, so that the clash is
# what refuses it) and the kind of file it reads; "{bet}" is a bet game.
CLASH_INPUTS = {
    ("analyze", "--bets"): (["analyze", "{bet}", "--decks", "1", "--bet", "tie"], "bets"),
    ("analyze", "--table"): (["analyze", "{bet}", "--decks", "1"], "bets"),
    ("analyze", "--rules"): (["analyze", "century21", "--decks", "1"], "rules"),
    ("analyze", "--rules "): (["analyze", "chemin-de-fer"], "chemin-rules"),
    ("design", "--bets"): (["design", "punto-banco", "--bet", "tie", "--solve-for", "Tie",
                            "--target-edge", "5%"], "bets"),
    ("design", "--table"): (["design", "punto-banco", "--bet", "tie", "--solve-for", "Tie",
                             "--target-edge", "5%"], "bets"),
    ("eor", "--bets"): (["eor", "{bet}", "--decks", "1"], "bets"),
    ("eor", "--rules"): (["eor", "century21", "--decks", "1"], "rules"),
    ("simulate", "--bets"): (["simulate", "{bet}", "--shoes", "1", "--seed", "1"], "bets"),
    ("simulate", "--rules"): (["simulate", "century21", "--shoes", "1", "--seed", "1"],
                              "rules"),
    ("edge", "--bets"): (["edge", "{bet}", "--decks", "1", "--seen", "/dev/null"], "bets"),
    ("edge", "--rules"): (["edge", "century21", "--decks", "1", "--seen", "/dev/null"],
                          "rules"),
    ("edge", "--seen"): (["edge", "{bet}", "--decks", "1"], "seen"),
    ("settle", "--bets"): (["settle", "punto-banco", "--cards", "9H 5C 9D 2S", "--wager",
                            "tie=1"], "bets"),
    ("settle", "--table-hand"): (["settle", "century21"], "table"),
    ("settle", "--rules"): (["settle", "century21", "--table-hand", "hand.toml"], "rules"),
}
# The ways a case names its input file as an output: the name, and what the case directory
# needs for it (made by the fork server)
CLASH_NAMES = ("direct", "dot", "dotdot", "symlink", "chain", "hardlink", "linked-dir",
               "equals")
CLASH_REFUSAL = "would replace"  # the words of the one line


def _clash_content(draw, kind: str, game: str) -> bytes:
    if kind == "bets":
        return draw(bet_file(_features_of(game), hostile_weight=0))
    if kind == "rules":
        return draw(rule_file())
    if kind == "chemin-rules":
        return draw(chemin_rule_file())
    if kind == "table":
        return draw(table_file())
    return draw(seen_file())


@st.composite
def clash_case(draw) -> Case:
    """A valid command line but for one thing: an output names one of its inputs (through a
    link, ``..``, a hard link, ``--opt=value``...), or (``analyze``) its two outputs name one
    file. It must be refused (exit 2, one line) with every given file as it was."""
    HOSTILITY[0] = 0.0
    (command, option), (argv, kind) = draw(st.sampled_from(sorted(CLASH_INPUTS.items())))
    option = option.strip()
    game = draw(st.sampled_from(("punto-banco", "nine-and-nines")))
    argv = [game if item == "{bet}" else item for item in argv]
    if argv[1] == "nine-and-nines" and "tie" in argv:  # (a bet both games have)
        argv[argv.index("tie")] = "nines"
    files: dict[str, bytes] = {"hand.toml": b'dealer = "KH 7C"\n'}
    directories: list[str] = []
    symlinks: dict[str, str] = {}
    hardlinks: dict[str, str] = {}
    stdin = b""
    how = draw(st.sampled_from(CLASH_NAMES))
    source = "input.file" if how != "linked-dir" else "real/input.file"
    content = _clash_content(draw, kind, argv[1])
    files[source] = content
    target = {"direct": source, "dot": f"./{source}", "dotdot": f"sub/../{source}",
              "symlink": "link", "chain": "link2", "hardlink": "hard",
              "linked-dir": "ln/input.file", "equals": source}[how]
    if how == "dotdot":
        directories.append("sub")
    elif how in ("symlink", "chain"):
        symlinks["link"] = source
        if how == "chain":
            symlinks["link2"] = "link"
    elif how == "hardlink":
        hardlinks["hard"] = source
    elif how == "linked-dir":
        symlinks["ln"] = "real"
    if option == "--seen" and draw(st.integers(0, 3)) == 0:  # standard input on the file
        stdin = content
        source = draw(st.sampled_from(("-", "/dev/stdin", "/proc/self/fd/0", "")))
        target = ".stdin"  # the fork server's file of standard input (fd 0 is open on it)
    inputs: list[str] = []
    if option == "--bets" and draw(st.booleans()):  # the clash in the second of two
        files["other.toml"] = draw(bet_file(_features_of(argv[1]), ("extra",), 0))
        inputs += ["--bets", "other.toml"]
    if source:
        inputs += [f"{option}={source}"] if how == "equals" else [option, source]
    sheet = command == "analyze" and argv[1] != "chemin-de-fer"  # (it has no --xlsx)
    outputs = ["--output", "-o"] + (["--xlsx"] if sheet else [])
    output = draw(st.sampled_from(outputs))
    names = [draw(st.sampled_from(("-o", "--output"))) if output == "-o" else output, target]
    if sheet and draw(st.integers(0, 3)) == 0:  # both outputs on one file
        first = draw(st.sampled_from(("out.txt", "old.txt")))
        if first == "old.txt":
            files["old.txt"] = b"the old content\n"
        directories = list(dict.fromkeys([*directories, "sub"]))
        names = ["-o", first, "--xlsx", draw(st.sampled_from((first, f"./{first}",
                                                               f"sub/../{first}")))]
    extra = draw(st.sampled_from(((), ("--json",))))
    pieces = [inputs, names, list(extra)]
    order = draw(st.permutations(range(3)))
    argv = argv + [item for index in order for item in pieces[index]]
    return Case(argv, files=files, stdin=stdin, directories=directories, symlinks=symlinks,
                hardlinks=hardlinks, refused_with=CLASH_REFUSAL)


# --- engine overrides ----------------------------------------------------------------------------
# Issue 26: `--engine direct|compiled|...` skipped the bound `auto` applies (a bet refused by
# auto in 1.4 s ran past a minute and 2.7 GB). Cases of this class are card-level bets, some
# with many terms, on full shoes of 1 to 8 decks or on small shoes, under every engine: each
# must end in exit 0 or 2 within the fuzz's CPU and memory limits (the work bound of
# exact/core/work.py).
ENGINE_CHOICES = ("auto", "direct", "compiled", "staged", "factorised")
CARD_TERMS = (
    *(f"{side}_card{n}_rank == '{rank}'" for side in ("player", "banker") for n in (1, 2, 3)
      for rank in ("A", "9", "K")),
    *(f"{side}_card{n}_suit != 'H'" for side in ("player", "banker") for n in (1, 2, 3)),
    "player_card1_colour == 'red'", "banker_card3_colour == 'black'",
    "first_four_nines >= 2", "dealt_reds == 6", "player_hearts == 3", "all_same_color",
    "winner == 'tie'", "cards_dealt == 6", "player_total == 9", "banker_third == None")


@functools.lru_cache
def vocabulary_terms(game: str) -> st.SearchStrategy[str]:
    """One comparison of the game's feature vocabulary, drawn as the property tests draw
    theirs (tests/support/vocabulary.py): counts, cards by position, colours, suits, ranks,
    totals and winners, with the values they take or with each other."""
    from exact.games import get_game

    from tests.support.vocabulary import vocabulary

    return vocabulary(tuple(get_game(game).features.items())).comparison().map(
        lambda text: f"({text})")


@st.composite
def engine_override_argv(draw, game: str = "punto-banco") -> tuple[list[str], dict, bytes]:
    """``analyze`` of one generated card-level bet under an ``--engine`` override."""
    events = []
    for index in range(draw(st.integers(1, 3))):
        terms = draw(st.lists(st.one_of(st.sampled_from(CARD_TERMS), vocabulary_terms(game)),
                              min_size=1, max_size=draw(st.sampled_from((2, 4, 40)))))
        joiners = draw(st.lists(st.sampled_from((" and ", " or ")), min_size=len(terms),
                                max_size=len(terms)))
        when = terms[0] + "".join(j + t for j, t in zip(joiners, terms[1:], strict=False))
        events.append(f'[[bet.event]]\nname = "E{index}"\nwhen = "{when}"\npays = '
                      f'{draw(st.integers(1, 50))}\n')
    text = '[[bet]]\nid = "mine"\nname = "Mine"\n' + "".join(events)
    argv = ["analyze", game, "--bets", "bets.toml", "--bet", "mine"]
    if draw(st.booleans()):
        argv += ["--decks", str(draw(st.integers(1, 8)))]
    else:
        argv += ["--shoe", draw(tiny_shoe())]
    argv += ["--engine", draw(either(st.sampled_from(ENGINE_CHOICES), 0.05))]
    return argv, {"bets.toml": text.encode()}, b""


@st.composite
def cases(draw, command: str) -> Case:
    """A case of ``command`` (one of :data:`COMMANDS`, or ``"reports"``, or ``"clashes"``: an
    input named as an output, :func:`clash_case`, ``"cache"``: a
    :class:`~tests.support.fuzzing.Differential` of :func:`cache_case`, or
    ``"engine-overrides"``, :func:`engine_override_argv`)."""
    if command == "clashes":
        COIN[0] = draw(st.randoms(use_true_random=True))
        return draw(clash_case())
    if command == "cache":
        return draw(cache_case())
    if command == "engine-overrides":
        COIN[0] = draw(st.randoms(use_true_random=True))
        HOSTILITY[0] = 0.0
        argv, files, stdin = draw(engine_override_argv())
        return Case(argv, files=files, stdin=stdin)
    if command == "games":
        argv = ["games"] + draw(st.lists(st.sampled_from(("--json", "x", "--help", "-o")),
                                         max_size=1))
        return Case(argv)
    if command == "literals":
        return draw(literal_case())
    if command == "reports":
        # never a real game id, and always one game id that --out does not consume: with no
        # game the command builds every report (a minute), and a game id is a path
        game_id = st.one_of(st.sampled_from(("nope", "punto_banco", "PUNTO-BANCO", "²", "-",
                                             "century21 ", "x" * 300)),
                            st.text(alphabet=string.ascii_letters + "-_²", min_size=1,
                                    max_size=10)).filter(lambda t: t.strip("-") and t not in
                                                         GAMES)
        options = st.lists(st.one_of(st.sampled_from((["--bogus"], ["-h"], ["--out"],
                                                      ["--out="])),
                                     st.tuples(st.just("--out"), st.sampled_from(
                                         ("build", "", ".", "missing/dir", "x" * 300)))
                                     .map(list)), max_size=2)
        argv = [item for option in draw(options) for item in option]
        argv += ["--"] + draw(st.lists(game_id, min_size=1, max_size=2)) if draw(
            st.booleans()) or "--out" in argv[-1:] else draw(st.lists(game_id, min_size=1,
                                                                      max_size=2))
        return Case(argv, module="exact.reports")
    COIN[0] = draw(st.randoms(use_true_random=True))
    HOSTILITY[0] = draw(st.sampled_from(LEVELS))
    if command == "report":
        return draw(report_case())
    game = draw(st.sampled_from(GAMES))
    foreign = {"design": STRATEGY_GAMES, "eor": ("chemin-de-fer",),
               "simulate": ("chemin-de-fer",), "edge": ("chemin-de-fer",)}
    if game in foreign.get(command, ()) and draw(st.integers(0, 3)):
        game = "punto-banco"  # a game that takes none of the command's options: now and then
    builder = {"analyze": analyze_argv, "design": design_argv, "eor": eor_argv,
               "simulate": simulate_argv, "edge": edge_argv, "settle": settle_argv}.get(command)
    if command in DEEP_BUILDERS and draw(uniform()) < DEEP_SHARE:
        HOSTILITY[0] = 0.0  # nor a hostile output, stray option or special file
        game = draw(st.sampled_from(DEEP_GAMES[command]))
        builder = DEEP_BUILDERS[command]
    argv, files, stdin = draw(builder(game) if builder else simple_argv(command, game))
    files, extra = _special_files(files)
    out_argv, output_extra = draw(output_option()) if command not in ("features",) else ([], {})
    if out_argv and files and draw(st.integers(0, 9)) == 0:  # the output over an input file
        out_argv[1] = draw(st.sampled_from(sorted(files)))
    argv = argv + out_argv
    _merge(extra, output_extra)
    if command == "analyze" and game != "chemin-de-fer" and draw(st.integers(0, 9)) == 0:
        xlsx_argv, xlsx_extra = draw(output_option(always=True))  # the par sheet, anywhere
        if xlsx_argv[1] != option_value(argv, "-o", "--output"):
            argv += ["--xlsx", xlsx_argv[1]]
            _merge(extra, xlsx_extra)
    if draw(uniform()) < HOSTILITY[0] / 3:  # a stray option, an option twice, = form
        argv.insert(draw(st.integers(2, len(argv))), draw(st.sampled_from(
            ("--decks=1", "--json", "--bogus", "--", "-", "--shoe=", "--bet"))))
    files = {**files, **extra.pop("files", {})}
    return Case(argv, files=files, stdin=stdin, **extra)


# --- never-true literals --------------------------------------------------------------------------
# A feature compared with a literal it never takes ('Player', '10' for 'T', 'h', 10, a Cyrillic
# letter) must be refused when the bet file is read, naming the feature; one it takes must not
# be refused for it. The case is `list-bets` (the bet file is read whole) or, now and then, an
# analysis of the bet at one deck (literals inside: it runs to the end).
LITERAL_GAMES = ("punto-banco", "nine-and-nines")
LOOK_ALIKES = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441",
               "x": "\u0445", "y": "\u0443", "A": "\u0391", "H": "\u041d", "T": "\u0422",
               "K": "\u039a", "C": "\u0421"}


def _near_misses(value: object) -> list[object]:
    """Literals a user might write for ``value`` that no value of a feature is."""
    if isinstance(value, bool) or value is None:
        return [2, -1, "true", "None"]
    if isinstance(value, int):
        return [value + 10, -1 - value, str(value), None]
    text = str(value)
    misses = [text.swapcase(), text + " ", text.replace("T", "10"), text + text[-1:], "",
              *(text.replace(letter, twin, 1) for letter, twin in LOOK_ALIKES.items()
                if letter in text)]
    return [m for m in misses if m != text]


def _literal_text(value: object) -> str:
    return repr(value) if not isinstance(value, str) else json.dumps(value, ensure_ascii=False
                                                                      ).replace('"', "'")


@st.composite
def literal_case(draw) -> Case:
    """A bet whose one condition compares a feature with a literal inside or outside the
    values it can take (``Feature.domain``), by ==, !=, in or not in, on either side."""
    from exact.games import get_game

    game = draw(st.sampled_from(LITERAL_GAMES))
    features = get_game(game).features
    name = draw(st.sampled_from(sorted(features)))
    domain = features[name].domain
    assert domain is not None, name
    outside = draw(st.booleans())
    value = draw(st.sampled_from(domain))
    if outside:
        misses = [m for m in _near_misses(value) if not any(v == m for v in domain)
                  and (isinstance(m, str) == isinstance(value, str) or m is None)]
        literal = draw(st.sampled_from(misses)) if misses else 99
        others = [literal] + draw(st.lists(st.sampled_from(domain), max_size=2))
    else:
        literal = value
        # a proper subset of the values: the condition can be true and false
        others = [v for v in draw(st.lists(st.sampled_from(domain), max_size=2))
                  if v != value][:len(set(map(str, domain))) - 2]
        others = [literal] + others
    op = draw(st.sampled_from(("==", "!=", "in", "not in")))
    if op in ("in", "not in"):
        items = draw(st.permutations(others))
        bracket = draw(st.sampled_from(("({},)", "[{}]", "{{{}}}")))
        condition = f"{name} {op} " + bracket.format(", ".join(map(_literal_text, items)))
    else:
        pair = (name, _literal_text(literal))
        condition = f"{pair[0]} {op} {pair[1]}" if draw(st.booleans()) else \
            f"{pair[1]} {op} {pair[0]}"  # either side
    if draw(st.integers(0, 3)) == 0:  # inside a larger condition
        condition = draw(st.sampled_from(("({}) and winner != 'tie'", "player_total > 4 or ({})",
                                          "not ({})"))).format(condition)
    text = ("[[bet]]\nid = 'mine'\n[[bet.event]]\nname = 'Yes'\n"
            f"when = {json.dumps(condition, ensure_ascii=False)}\npays = 1\n")
    cheap = not outside and not features[name].needs.stages - {"player", "banker"} and \
        game == "punto-banco" and draw(st.integers(0, 3)) == 0
    argv = ["analyze", game, "--decks", "1", "--bets", "bets.toml", "--bet", "mine"] if cheap \
        else ["list-bets", game, "--bets", "bets.toml"]
    return Case(argv, files={"bets.toml": text.encode()}, literal=(name, outside))


def _merge(extra: dict, more: dict) -> None:
    """Add the files, directories, FIFOs, symlinks, devices of ``more`` to ``extra``."""
    for key, value in more.items():
        if isinstance(value, dict):
            extra.setdefault(key, {}).update(value)
        else:
            extra[key] = list(dict.fromkeys([*extra.get(key, ()), *value]))


# --- deep cases -----------------------------------------------------------------------------------
# Drawn like the rest, a case of eor, edge or design carries a hostile value or a shoe too small to
# deal about nine times in ten, and stops at its first check: the analysis and the output behind
# them were reached by one case in ten. So a share of their cases (:data:`DEEP_SHARE`) is valid
# throughout: a shoe of one to eight decks, with cards taken out, or of an odd composition; cards
# removed, seen, known and tagged that the shoe holds; bet files without a hostile value. They
# stay cheap: century21 only at the decks its warmed House Way serves (another strategy, or its
# player deciding by cards, is a search of seconds), and no known card of a third-card position
# (edge --known 5=... or 6=... walks the round card by card: 15 s at one deck, a minute at eight).
DEEP_SHARE = 0.6
DEEP_GAMES = {"eor": ("punto-banco", "nine-and-nines", "century21"),
              "edge": ("punto-banco", "nine-and-nines", "century21"),
              "design": ("punto-banco", "nine-and-nines")}
RANKS = "A23456789TJQK"


@st.composite
def deep_shoe(draw, game: str, remove: bool = True) -> tuple[list[str], list[int]]:
    """Shoe options and the counts of the 53 cards they leave (``exact.core.cards.CARDS``)."""
    from exact.core.cards import Shoe

    if game == "century21":
        decks = draw(st.sampled_from((1, 1, 2)))
        argv, shoe = ["--decks", str(decks)], Shoe.standard(decks, decks)
    elif draw(st.integers(0, 2)):
        decks = draw(st.integers(1, 8))
        argv, shoe = ["--decks", str(decks)], Shoe.standard(decks)
    else:  # odd: some ranks short, missing or doubled, a suited card or two in excess
        decks = draw(st.integers(1, 8))
        counts = {rank: 4 * decks if draw(st.integers(0, 2)) else draw(st.integers(0, 8 * decks))
                  for rank in RANKS}
        counts["T"] = max(counts["T"], 4)  # enough cards to deal, not a shoe of one rank
        counts["5"] = max(counts["5"], 4)
        entries = [f"{rank}:{count}" for rank, count in counts.items() if count]
        for _ in range(draw(st.integers(0, 2))):
            entries.insert(draw(st.integers(0, len(entries))),
                           f"{draw(st.sampled_from(SUITED))}:{draw(st.integers(1, 5))}")
        text = ",".join(entries)
        argv, shoe = ["--shoe", text], Shoe.parse(text)
    counts = list(shoe.counts)
    if remove and draw(st.booleans()):
        argv += ["--remove", ",".join(_take(draw, counts, draw(st.integers(1, 12))))]
    return argv, counts


def _take(draw, counts: list[int], number: int) -> list[str]:
    """``number`` cards drawn from ``counts`` (at most all but a round's worth of them), taken
    out of it, as text (``9H``). Never a joker: how many a century21 shoe of --decks holds is
    the game's to say."""
    from exact.core.cards import CARDS

    taken = []
    for _ in range(max(0, min(number, sum(counts) - 12))):
        left = [i for i, count in enumerate(counts) if count and not CARDS[i].is_joker]
        index = draw(st.sampled_from(left))
        counts[index] -= 1
        taken.append(str(CARDS[index]))
    return taken


@st.composite
def deep_bets(draw, game: str, argv: list[str], files: dict) -> None:
    """Valid bet options: shipped bets, or a bet file without hostile values and its ids;
    century21's House Way and two-card total (:data:`DEEP_SHARE`)."""
    if game == "century21":
        if draw(st.integers(0, 2)) == 0:
            argv += ["--information", "total"]
        if draw(st.integers(0, 9)) == 0:  # (a second to read: rarely)
            _files_option(draw, argv, files, "--rules", "rules.toml", draw(rule_file()))
        return
    if draw(st.integers(0, 2)) == 0:
        data = draw(bet_file(_features_of(game), hostile_weight=0))
        argv += ["--bets", "bets.toml"]
        files["bets.toml"] = data
        ids = [bet["id"] for bet in _toml(data)["bet"]]
        chosen = draw(st.lists(st.sampled_from(ids + ["tie"]), max_size=2, unique=True))
    else:
        chosen = draw(st.lists(st.sampled_from(CHEAP_BETS[game]), max_size=2, unique=True))
    for bet in chosen:
        argv += ["--bet", bet]


def _toml(data: bytes) -> dict:
    import tomllib

    return tomllib.loads(data.decode())


@st.composite
def deep_eor_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    from exact.core.cards import CARDS

    shoe, counts = draw(deep_shoe(game))
    argv, files = ["eor", game, *shoe], {}
    if draw(st.integers(0, 2)) == 0:
        ranks: dict[str, int] = {}
        for card, count in zip(CARDS, counts, strict=True):
            ranks[card.rank] = ranks.get(card.rank, 0) + count
        deepest = 2 if all(count != 1 for count in ranks.values()) else 1
        argv += ["--depth", str(draw(st.integers(1, deepest)))]
    for _ in range(draw(st.integers(0, 2))):
        argv += ["--removal-set", " ".join(_take(draw, list(counts), draw(st.integers(1, 3))))]
    if draw(st.integers(0, 2)) == 0:
        keys = [*RANKS[:10]] + (["X"] if game == "century21" else [])
        tagged = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=5, unique=True))
        argv += ["--tags", ",".join(f"{key}={draw(st.integers(-2, 2))}" for key in tagged)]
    if game == "century21" and draw(st.booleans()):
        argv += ["--strategy", "house"]
    draw(deep_bets(game, argv, files))
    if draw(st.booleans()):
        argv.append("--json")
    return argv, files, b""


@st.composite
def deep_edge_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    shoe, counts = draw(deep_shoe(game, remove=False))
    argv, files, stdin = ["edge", game, *shoe], {}, b""
    seen = draw(st.sampled_from((", ", ",", " ", "\n"))).join(
        _take(draw, counts, draw(st.integers(0, 40)))).encode()
    where = draw(st.sampled_from(("file", "stdin", "dash")))
    if where == "file":
        _files_option(draw, argv, files, "--seen", "seen.txt", seen)
    else:
        argv += ["--seen", "-"] if where == "dash" else []
        stdin = seen
    if game != "century21" and draw(st.integers(0, 3)) == 0:
        # two or three: one known card alone costs seconds, two a fraction of one
        positions = draw(st.lists(st.integers(1, 4), min_size=2, max_size=3, unique=True))
        for position, card in zip(positions, _take(draw, counts, len(positions)),
                                  strict=False):
            argv += ["--known", f"{position}={card}"]
    draw(deep_bets(game, argv, files))
    if draw(st.booleans()):
        argv.append("--json")
    return argv, files, stdin


@st.composite
def deep_design_argv(draw, game: str) -> tuple[list[str], dict, bytes]:
    shoe, _ = draw(deep_shoe(game))
    argv, files = ["design", game, *shoe], {}
    # now and then a bet file (a tier of its random events is as often as not one that never
    # occurs, or that no pay brings to the target beside the others' pays: refused)
    if draw(st.integers(0, 5)) == 0:
        data = draw(bet_file(_features_of(game), hostile_weight=0))
        _files_option(draw, argv, files, "--bets", "bets.toml", data)
        bet = draw(st.sampled_from(_toml(data)["bet"]))
        bet_id, tiers = bet["id"], [event["name"] for event in bet["event"]]
    else:
        bet_id = draw(st.sampled_from(sorted(DESIGN_TIERS[game])))
        # (the Banker bet's Tie pushes: no pay of it gives an edge above the bet's own)
        tiers = [tier for tier in DESIGN_TIERS[game][bet_id]
                 if "," not in tier and (bet_id, tier) != ("banker", "Tie")]
    argv += ["--bet", bet_id, "--solve-for", draw(st.sampled_from(tiers)), "--target-edge",
             draw(st.sampled_from(("0.05", "5%", "1/20", "0.01", "1%", "0", "-0.1", "2.5%")))]
    if bet_id == "tie" and game == "punto-banco" and draw(st.integers(0, 3)) == 0:
        argv += ["--paytable", "9-to-1"]
    if draw(st.integers(0, 7)) == 0:
        argv += ["--engine", "auto"]
    if draw(st.booleans()):
        argv.append("--json")
    return argv, files, b""


DEEP_BUILDERS = {"eor": deep_eor_argv, "edge": deep_edge_argv, "design": deep_design_argv}


SUBMISSION_KEYS = ("client", "manufacturer", "game_name", "rules_document", "rules_version",
                   "jurisdiction", "author", "reviewer", "report_version", "bet_limit")


@st.composite
def submission_file(draw) -> bytes:
    """A submission file (``exact report --submission``): its keys with valid or hostile values,
    a misspelt key, revisions of every shape, or the hostile bytes of a bet file."""
    if draw(st.integers(0, 4)) == 0:
        return draw(bet_file(("winner",)))
    value = st.one_of(st.text(max_size=30), toml_number(), st.sampled_from(
        (Raw("[1]"), Raw("{a = 1}"), Raw("1979-05-27"), "\u202e", "x" * 300, "\x1b[2J")))
    lines = [f"{key} = {toml_value(draw(value))}"
             for key in draw(st.lists(st.sampled_from((*SUBMISSION_KEYS, "clinet")),
                                      unique=True, max_size=5))]
    for _ in range(draw(st.integers(0, 3))):
        lines.append("[[revision]]")
        lines += [f"{key} = {toml_value(draw(value))}"
                  for key in draw(st.lists(st.sampled_from(("version", "date", "description",
                                                            "by")), unique=True))]
    if draw(st.booleans()):
        lines.append(f"revision = {toml_value(draw(value))}")
    return "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"


@st.composite
def report_case(draw) -> Case:
    """``exact report``: a hostile submission file, output name or game; never a whole build
    (a minute): every case names an unknown bet, read after the submission file."""
    game = draw(st.sampled_from((*GAMES, "nope", "x" * 300)))
    out = draw(st.sampled_from(("r.pdf", "r.PDF", "r.txt", "r", "missing/r.pdf", ".", "r/")))
    argv = ["report", game, "-o", out, "--bet", "no-such-bet"]
    files = {}
    if draw(st.integers(0, 5)):
        argv += ["--submission", "submission.toml"]
        files["submission.toml"] = draw(submission_file())
    if draw(st.booleans()):
        argv += ["--xlsx", draw(st.sampled_from(("r.xlsx", "r.pdf", "missing/r.xlsx")))]
    if draw(st.booleans()):
        files["r/data.json"] = b"{}"  # a user's file where the report's data would go
    return Case(argv, files=files)


# --- cache keys (issue 26) ------------------------------------------------------------------------
# Bets whose old cache key was one: the key joined each event's name and condition text with
# "|", and an event name may hold "|" as a condition may in a comment or a string literal.
# Run cold and warm in every order (tests.support.fuzzing.Differential), each must give its own
# result. Conditions on card features go to the factorised counter's entries, the others to
# the compiled deal's bet-event matrices (and, in a fresh process, light forms).
CARD_TESTS = {
    "player_card1_colour": ("== 'red'", "!= 'black'"),
    "banker_card1_suit": ("== 'H'", "in ('S', 'C')"),
    "player_card2_rank": ("== 'K'", "in ('A', 'T')"),
    "banker_card2_colour": ("== 'black'",),
    "player_card3_suit": ("== None", "== 'D'"),
    "player_paired": ("== True",),
}
VALUE_TESTS = {name: TYPED[name] for name in VALUE_FEATURES if name in TYPED}
EVENT_NAMES = ("Win", "W|", "a # b", "'", '"', "x|y", "Événement", "|", "#", "Win|'")


@st.composite
def plain_condition(draw, tests: dict[str, tuple[str, ...]]) -> str:
    """A valid condition of one or two comparisons from ``tests``, its text literals in double
    quotes (it may be put inside a single-quoted literal)."""
    names = draw(st.lists(st.sampled_from(sorted(tests)), min_size=1, max_size=2, unique=True))
    parts = [f"{name} {draw(st.sampled_from(tests[name]))}" for name in names]
    return draw(st.sampled_from((" and ", " or "))).join(parts).replace("'", '"')


@st.composite
def ambiguous_events(draw, tests: dict[str, tuple[str, ...]]
                     ) -> tuple[tuple[str, str], tuple[str, str]]:
    """Two events ``(name, condition)`` that the old key told apart by nothing (``name|
    condition`` is one text), reading different conditions as often as not: the ``|`` in
    one's name and in the other's comment, or in its string literal."""
    first, second = draw(plain_condition(tests)), draw(plain_condition(tests))
    name = draw(st.sampled_from(EVENT_NAMES))
    if draw(st.booleans()):  # a comment: "x #|y" reads x; the name "N|x #" goes with y
        spacing = draw(st.sampled_from(("", " ", "  ")))
        return (f"{name}|{first}{spacing}#", second), (name, f"{first}{spacing}#|{second}")
    # a string literal: "'|x #' != '' and y" reads y; "x #' != '' and y" reads x
    return ((name, f"'|{first} #' != '' and {second}"),
            (f"{name}|'", f"{first} #' != '' and {second}"))


@st.composite
def cache_case(draw) -> Differential:
    """A :class:`~tests.support.fuzzing.Differential` of ``analyze``, ``eor`` or ``edge``:
    the two bets of :func:`ambiguous_events` (three times in four; one event of each, now and
    then after a shared one) or the two of a generated bet file, each asked alone, and now and
    then both together."""
    COIN[0] = draw(st.randoms(use_true_random=True))
    HOSTILITY[0] = 0.0
    game = draw(st.sampled_from(("punto-banco", "nine-and-nines")))
    command = draw(st.sampled_from(("analyze", "eor", "edge")))
    tests = CARD_TESTS if draw(st.booleans()) else VALUE_TESTS
    shoe, counts = draw(deep_shoe(game, remove=command != "edge"))
    if draw(st.integers(0, 3)):
        shared = draw(st.one_of(st.none(), plain_condition(tests)))
        bets = []
        for bet_id, (name, when) in zip("ab", draw(ambiguous_events(tests)), strict=True):
            events = [] if shared is None else [{"name": "Shared", "when": shared, "pays": 2}]
            bets.append({"id": bet_id, "event": [*events, {"name": name, "when": when,
                                                            "pays": 3}]})
        data, ids = "".join(map(_bet_toml, bets)).encode(), ("a", "b")
    else:
        data, ids = draw(bet_file(_features_of(game), ids=("a", "b"), hostile_weight=0)), ("a", "b")
    files = {"bets.toml": data}
    base = [command, game, *shoe, "--bets", "bets.toml"]
    if command == "edge":
        files["seen.txt"] = " ".join(_take(draw, counts, draw(st.integers(0, 10)))).encode()
        base += ["--seen", "seen.txt"]
    if draw(st.booleans()):
        base.append("--json")
    asked = {label: [label] for label in ids}
    if draw(st.integers(0, 3)) == 0:
        asked["both"] = list(ids)
    return Differential({label: Case([*base, *(item for bet_id in chosen
                                                for item in ("--bet", bet_id))], files=files)
                         for label, chosen in asked.items()})
