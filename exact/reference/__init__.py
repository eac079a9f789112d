"""The brute-force twins of the fast paths, used by the tests and the reports' verification."""
