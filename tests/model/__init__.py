"""Tests of exact.model: bets, expressions, contracts, settlement."""
