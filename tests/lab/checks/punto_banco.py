from exact.lab.notebooks import families

assert result.total == published.value("total")
assert banker.counts[0] == published.value("count", bet="banker", event="Banker wins")
for bet, paytable in (("banker", None), ("player", None), ("tie", "8-to-1"), ("tie", "9-to-1")):
    figure = published.find("house_edge", bet=bet, paytable=paytable)
    assert figure.agrees(result.bets[bet].table(paytable).house_edge), (bet, paytable)
for bet in result.bets.values():
    assert sum(bet.counts) == result.total
# every bet is charted, each in exactly one family
assert sum(len(members) for members in families(bets).values()) == len(bets)
assert len(families(bets)) > 1
# fewer decks favour the Banker bet a little and hurt the Player bet
assert by_decks[1].bets["banker"].table().house_edge < banker.table().house_edge
assert by_decks[1].bets["player"].table().house_edge > player.table().house_edge
assert edges[5] == banker.table().house_edge
assert 0 < break_even < Fraction(5, 100)
