"""Tests of exact.core: cards and shoes, parsing, files, progress, data frames."""
