"""Math certification reports: exact data from the library, typeset as PDF with Typst.

Layer: reports, above rendering; only the command line and the lab sit above it.

Each game contributes its report through two small files and nothing else:

* ``exact/reports/<module>.py``, where ``<module>`` is the game id with ``_`` for ``-``
  (``punto_banco`` for ``punto-banco``), wherever the game's own module sits. It defines
  ``report_data(game, context) -> dict``: the numbers of the report as JSON-ready text
  (every figure computed, none typed), usually ``sections.standard_report_data(...)`` plus
  whatever appendix is particular to the game.
* ``exact/reports/templates/<game id>.typ``: the Typst template, usually one call of
  ``standard-report`` from the shared ``templates/lib.typ`` with the game's prose
  (description, assumptions, appendix).
* optionally ``exact/data/<game>/published.toml``: published figures the verification section
  checks (the only hand-typed numbers, there to be compared with).

:func:`available_reports` finds the games of :data:`exact.games.REGISTRY` that have both, so
adding a game's report never means editing a list here.

>>> "punto-banco" in available_reports()
True
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType

from exact.core.parsing import shown
from exact.errors import ReportError as ReportError
from exact.games import REGISTRY

REPOSITORY = Path(__file__).resolve().parents[2]
# The Typst templates ship inside the package, so an installed package builds its reports
TEMPLATES = Path(__file__).resolve().parent / "templates"


def report_module_name(game_id: str) -> str:
    """The module holding ``game_id``'s report data builder.

    >>> report_module_name("punto-banco")
    'exact.reports.punto_banco'
    """
    if game_id not in REGISTRY:
        raise ReportError(f"unknown game {shown(game_id)}; known: {', '.join(sorted(REGISTRY))}")
    return "exact.reports." + game_id.replace("-", "_")


def report_module(game_id: str) -> ModuleType | None:
    """The game's report data module, or None when the game has none (yet)."""
    name = report_module_name(game_id)
    return import_module(name) if find_spec(name) is not None else None


def template_path(game_id: str, templates: Path = TEMPLATES) -> Path:
    return templates / f"{game_id}.typ"


def available_reports(templates: Path = TEMPLATES) -> list[str]:
    """Ids of the registered games that have a report module and a template."""
    return [game_id for game_id in REGISTRY
            if find_spec(report_module_name(game_id)) is not None
            and template_path(game_id, templates).is_file()]
