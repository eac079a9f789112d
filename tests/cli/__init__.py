"""Tests of exact.cli: outputs, errors and exit statuses of the commands."""
