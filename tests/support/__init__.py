"""Helpers shared by the tests (random shoes, counts to compare against, fuzzing, the README's
commands); imported as tests.support.<name>."""
