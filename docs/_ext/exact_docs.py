"""The site's own directives: text generated from the code as the site is built.

``exact-output`` runs a command of the toolkit in the build's process (``exact.cli.app.main``,
the console script's entry point), from the checkout's root so that the shipped example files
are found, and shows what it prints. With ``:shape:`` the command's JSON is shown as its shape
(every key, the type of every value, one entry for a mapping keyed by ids), the reference of
the JSON outputs. A command that fails fails the build (a warning, and the build treats
warnings as errors).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]


def run(arguments: list[str]) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``exact ARGUMENTS``."""
    from exact.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    before = Path.cwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(arguments)
    finally:
        os.chdir(before)
    return status, out.getvalue(), err.getvalue()


def shape(value: Any) -> Any:
    """The shape of a JSON value: its keys, and each leaf's type.

    >>> shape({"total": 12, "bets": {"a": {"edge": "1/2"}, "b": {"edge": "1/3"}}})
    {'total': 'integer', 'bets': {'<id>': {'edge': 'string'}}}
    >>> shape([1.5, 2.5]), shape([]), shape(None), shape(True)
    (['number'], [], 'null', 'boolean')
    """
    if isinstance(value, dict):
        shapes = {key: shape(item) for key, item in value.items()}
        kinds = list(shapes.values())
        if len(kinds) >= 2 and all(isinstance(kind, dict) for kind in kinds) and all(
                kind == kinds[0] for kind in kinds):
            return {"<id>": kinds[0]}  # a mapping keyed by ids (bets, paytables)
        return shapes
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "null" if value is None else "string"


class ExactOutput(SphinxDirective):
    """``exact-output:: ARGUMENTS``: what ``exact ARGUMENTS`` prints, as a literal block."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar = {"shape": directives.flag, "lines": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        arguments = shlex.split(self.arguments[0])
        status, out, err = run(arguments)
        if status != 0:
            raise self.error(f"exact {self.arguments[0]}: exit {status}: {err.strip()}")
        language = "text"
        if "shape" in self.options:
            out = json.dumps(shape(json.loads(out)), indent=2) + "\n"
            language = "json"
        if "lines" in self.options:
            kept = out.splitlines(keepends=True)
            if len(kept) > self.options["lines"]:
                out = "".join(kept[:self.options["lines"]]) + "...\n"
        block = nodes.literal_block(out, out, language=language)
        return [block]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("exact-output", ExactOutput)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
