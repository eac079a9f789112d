assert all(verified.values()), verified
assert kemeny_snell.verified
assert nine_elevenths.agrees(kemeny_snell.strategies[0][PLAYER_FIVE]["draw"])
assert nash_equilibria(RULES, None, "totals").unique == published.value(
    "unique", decks=None, replacement=True, information="totals")
assert values[None] == kemeny_snell.values[0]
assert not nash_equilibria(RULES, None, "banker-cards").unique
assert casino.found[0].verified
assert casino.unique == published.value("unique", decks=6, information="banker-cards",
                                        commission="1/20")
