"""Tests of exact.engines: every counting engine against the reference twin, the plan, the disk
cache."""
