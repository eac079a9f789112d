"""Tests of exact.render: the spreadsheets (the text and JSON: tests/cli/)."""
