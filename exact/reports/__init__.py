"""Math certification reports: exact data from the library, typeset as PDF with Typst.

Layer: reports, above rendering; only the command line and the lab sit above it.

Each game contributes its report through its plugin record
(:class:`~exact.model.plugins.GamePlugin`) and nothing else:

* ``report``: ``report_data(config, context) -> dict``, the numbers of the report as
  JSON-ready text (every figure computed, none typed), usually
  ``sections.standard_report_data(...)`` plus whatever appendix is particular to the game;
* ``template``: the Typst template (in the game's package), usually one call of
  ``standard-report`` from the shared ``templates/lib.typ`` (``#import "lib.typ": *``: the
  builder puts the two side by side) with the game's prose (description, assumptions,
  appendix);
* optionally ``<data>/published.toml`` in the game's data folder: published figures the
  verification section checks (the only hand-typed numbers, there to be compared with).

:func:`available_reports` finds the registered games that have both, so adding a game's
report never means editing a list here.

>>> "punto-banco" in available_reports()
True
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from exact.errors import ReportError as ReportError
from exact.model.plugins import plugin, plugin_ids

REPOSITORY = Path(__file__).resolve().parents[2]
# The shared Typst layout ships inside the package, so an installed package builds its reports
TEMPLATES = Path(__file__).resolve().parent / "templates"


def report_builder(game_id: str) -> Callable[..., dict[str, object]] | None:
    """The game's report data builder (its plugin's ``report``), or None when it has none."""
    return plugin(game_id).report


def template_path(game_id: str, templates: Path = TEMPLATES) -> Path:
    """The game's Typst template: its plugin's; ``templates/<game id>.typ`` when another
    folder of templates is given (a test's)."""
    own = plugin(game_id).template
    if templates == TEMPLATES and own is not None:
        return own
    return templates / f"{game_id}.typ"


def available_reports(templates: Path = TEMPLATES) -> list[str]:
    """Ids of the registered games that have a report builder and a template."""
    return [game_id for game_id in plugin_ids()
            if report_builder(game_id) is not None
            and template_path(game_id, templates).is_file()]
