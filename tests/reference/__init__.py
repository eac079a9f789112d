"""Tests of exact.reference, the brute-force twins."""
