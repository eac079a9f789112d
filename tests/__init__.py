"""The tests; a package, so that every test module and helper has one full name."""
