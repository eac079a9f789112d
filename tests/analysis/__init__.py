"""Tests of exact.analysis: removal, counts, designer, assumptions, simulation."""
