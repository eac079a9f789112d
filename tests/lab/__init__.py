"""Tests of exact.lab and the notebooks of analyses/."""
