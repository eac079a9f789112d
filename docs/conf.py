"""Sphinx configuration of the documentation site (``make docs``: built offline, warnings are
errors, every cross-reference checked)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))  # our own extension: exact_docs.py
sys.path.insert(0, str(HERE.parent))  # the checkout's package, whether or not installed

from exact import __version__  # noqa: E402

project = "exact"
author = "the exact authors"
copyright = "2026, the exact authors"
version = release = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinxarg.ext",
    "exact_docs",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "conftest.py"]
# Links to headings (`page.md#a-heading`) resolve, and are checked, down to level 4.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]

html_theme = "alabaster"
html_title = f"exact {__version__}"
html_theme_options = {"page_width": "1240px", "sidebar_width": "260px"}
html_static_path: list[str] = []

# Every reference is checked (-n); the standard library's and numpy's types are not in this
# site and the build is offline (no intersphinx), so references to them are let through.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(fractions|collections|typing|pathlib|numpy|np|argparse|enum|abc|os|io)\..*"),
    (r"py:.*", r"(Fraction|Path|Iterable|Iterator|Mapping|Sequence|Callable|Any|Self|Literal)"),
    (r"py:.*", r"(pandas|pd)\..*"),
    (r"py:.*", r"(int|str|float|bool|bytes|dict|list|tuple|set|frozenset|object|type|None)"),
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}

# References inside docstrings to the package's internal modules and names (the layers below
# the public API of reference/api.md) have no page here: nitpicky checks every other one.
nitpick_ignore_regex += [
    (r"py:.*", r"exact\..*"),
    (r"py:.*", r"(JOKER|parse_number|Baccarat point value)"),
    (r"py:class", r".*(D\[k\]|set-like|view on D|integer -- return).*"),
    (r"py:class", r"numbers\.Rational"),
]
smartquotes = False  # `--bet` stays two hyphens, as typed, not an en dash
