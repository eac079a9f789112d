for b in eor:
    assert sum(eor[b][r] * full.count(r) for r in RANKS) == 0
# small cards (4 and under, after the ace) favour the Banker; 5-8 favour the Player
assert eor["banker"]["4"] < 0 < eor["banker"]["6"]
assert eor["player"]["4"] > 0 > eor["player"]["6"]
for b in eor:
    assert all(-removal.effects[b][r] == eor[b][r] for r in RANKS)
assert correlations["banker"] > 0.9 and correlations["player"] > 0.9
assert correlations["tie"] > 0.8
# the count is built to move with the edge: a higher true count, a lower house edge
for b in ("banker", "player"):
    assert np.corrcoef(true_counts[b], exact_edges[b])[0, 1] < -0.5
