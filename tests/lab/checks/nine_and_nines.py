for bet in result.bets.values():
    assert sum(bet.counts) == result.total
    for table in bet.tables.values():
        assert -1 < table.house_edge < 1
# the headline: NINE (either party) on the illustrative Table NINE, 8 decks, exactly
for bet_id in ("nine-player", "nine-banker"):
    exact_edge = Fraction(published.value("house_edge_exact", bet=bet_id))
    assert result.bets[bet_id].table().house_edge == exact_edge
