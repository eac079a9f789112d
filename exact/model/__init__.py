"""What a game is: its typed contracts, features, bets and their expressions, wagers and their
settlement."""
