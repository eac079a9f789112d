assert table.total == 424 * 423 * 422 * 421 * 420 * 419
for result in results.values():
    assert sum(result.counts.values()) == result.total
assert edges["best"] >= edges["house"] >= edges["dealer-best"]
assert edges["dealer-best"] <= edges["equilibrium"] <= edges["best"]
assert player_gain == 0 and dealer_gain == 0
assert game_figures("century21").find("value_exact", strategy="house").agrees(edges["house"])
