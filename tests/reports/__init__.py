"""Tests of exact.reports: the PDF reports."""
