# Checks of analyses/century21_table.py, run in its kernel after its last cell.
from fractions import Fraction

heads_up_edge = house[1, 1].seat_edges[0]
for (n, covered), found in house.items():
    # House Way seats: every seat's edge is the heads-up one, whatever the seats and dice
    assert all(e == heads_up_edge for e in found.seat_edges)
    assert found.dealer_gross == -heads_up_edge * sum(found.expected_action)
    if covered == 1:
        assert sum(found.expected_action) == WAGER * n
        assert found.dealer_net == -heads_up_edge * WAGER * n - 1
# a wager below the seats' total takes exactly the wager when it covers a whole seat
# (the Player/Dealer takes action on its whole wager when the seats' total exceeds it)
for n in SEATS:
    for covered in SHARES:
        found = house[n, covered]
        stake = found.dealer_wager
        assert sum(found.expected_action) == (WAGER * n if stake is None else stake)
    edges = [edge(house[n, c]) for c in SHARES]  # from the whole table down to a tenth
    assert edges == sorted(edges, reverse=True)
# the best response to the table beats House Way, by less per seat as seats are added
gains = [edge(best[n]) - edge(house[n, 1]) for n in best]
assert all(g > 0 for g in gains) and gains[0] > gains[1] > gains[2]
assert best[1].seat_edges[0] == Fraction(best[1].seat_edges[0])
# the estimated best responses at 4-7 seats: within 4 standard errors of House Way or
# above it (it keeps House Way where unsure), and their standard errors small
for n, found in sampled.items():
    value, error = sampled_edge(found)
    assert float(value) >= float(edge(house[n, 1])) - 4 * error
    assert error < 0.0005
