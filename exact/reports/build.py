"""Build the PDF reports: data from the library, charts, then Typst.

Layer: reports, above rendering; only the command line and the lab sit above it.

>>> from exact.reports.build import typst_date
>>> typst_date(0)
(1970, 1, 1)
"""

from __future__ import annotations

import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

from exact.core.files import write_file
from exact.core.parsing import OneLineParser, shown
from exact.core.progress import steps
from exact.errors import ExactError, UsageError, one_line
from exact.games import get_game
from exact.render.output import json_text
from exact.reports import (
    REPOSITORY,
    TEMPLATES,
    ReportError,
    available_reports,
    report_module,
    template_path,
)
from exact.reports.sections import Context, build_epoch

BUILD = REPOSITORY / "reports" / "build"


def typst_date(epoch: int) -> tuple[int, int, int]:
    moment = datetime.fromtimestamp(epoch, UTC)
    return moment.year, moment.month, moment.day


def report_data(game_id: str, work_dir: Path) -> dict[str, object]:
    """The report's data (and its charts, written into ``work_dir``)."""
    module = report_module(game_id)
    if module is None:
        raise ReportError(f"{game_id}: no report module {game_id!r} (see exact/reports/)")
    work_dir.mkdir(parents=True, exist_ok=True)
    return module.report_data(get_game(game_id), Context(work_dir))


def build_report(game_id: str, out_dir: Path = BUILD, templates: Path = TEMPLATES) -> Path:
    """Build ``<out_dir>/<game_id>.pdf``; its data and charts go to ``<out_dir>/<game_id>/``.

    The PDF is written whole or not at all; its bytes depend only on the inputs (the date is
    ``SOURCE_DATE_EPOCH`` or the commit's date, fonts are Typst's own)."""
    check_game_ids([game_id], templates)  # before any path is made of it
    import typst

    template = template_path(game_id, templates)
    out_dir = out_dir.resolve()
    work_dir = out_dir / game_id
    if work_dir.parent != out_dir:  # a game id is one plain name; never empty a folder elsewhere
        raise ReportError(f"{game_id!r}: not a folder name inside {out_dir}")
    if work_dir.is_symlink():  # rmtree would refuse it; the report's own folder is replaced
        work_dir.unlink()
    elif work_dir.exists():
        shutil.rmtree(work_dir)
    data = report_data(game_id, work_dir)
    write_file(work_dir / "data.json", json_text(data, indent=1))
    # Typst reads files only under its root: the template's folder and the build folder must
    # share it, so the root is their common parent.
    root = Path(_common_root(templates.resolve(), work_dir))
    epoch = build_epoch()
    try:
        pdf = typst.compile(str(template.resolve()), root=str(root), ignore_system_fonts=True,
                            font_paths=[], timestamp=epoch,
                            sys_inputs={"data": "/" + str(work_dir.relative_to(root)),
                                        "date": "-".join(map(str, typst_date(epoch)))})
    except RuntimeError as error:  # typst.TypstError is a RuntimeError
        # Typst's diagnostics span lines; the error is reported on one
        raise ReportError(f"{game_id}: Typst failed: {' '.join(str(error).split())}") from None
    target = out_dir / f"{game_id}.pdf"
    write_file(target, pdf)
    from exact.render.spreadsheet import REPORT_WORKBOOK

    workbook = work_dir / REPORT_WORKBOOK
    if workbook.is_file():  # the par sheet, beside the PDF
        workbook.replace(out_dir / f"{game_id}.xlsx")
    return target


def check_game_ids(game_ids: list[str], templates: Path = TEMPLATES) -> None:
    """Refuse any id that is not a game with a report (before anything is built or emptied).

    >>> check_game_ids(["punto-banco"])
    >>> check_game_ids(["../.."])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exact.errors.ReportError: no report for '../..'; reports: century21, ..., punto-banco
    """
    known = available_reports(templates)
    for game_id in game_ids:
        if game_id not in known:
            raise ReportError(f"no report for {shown(game_id)}; reports: "
                              f"{', '.join(sorted(known))}")


class _Parser(OneLineParser):
    """Usage errors as one short line (as ``python -m exact``'s), not argparse's two."""

    def error(self, message: str) -> NoReturn:
        try:
            super().error(message)
        except UsageError as error:
            raise ReportError(f"usage error: {error} (see --help)") from None


def _common_root(first: Path, second: Path) -> str:
    import os

    return os.path.commonpath([first, second])


def _timed_build(game_id: str, out_dir: Path) -> tuple[Path, float]:
    started = time.perf_counter()
    return build_report(game_id, out_dir), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    import os
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from exact.core.parsing import parse_integer

    parser = _Parser(prog="python -m exact.reports",
                     description="Build the PDF math reports of the games.")
    parser.add_argument("games", nargs="*", help="game ids (default: every game with a report)")
    parser.add_argument("--out", type=Path, default=BUILD, help="output folder (reports/build)")
    parser.add_argument("--jobs", default=None,
                        help="reports built at once, one process each (default: one per core)")
    try:
        arguments = parser.parse_args(argv)
    except ReportError as error:
        print(f"exact.reports: {one_line(error)}", file=sys.stderr)
        return 2
    games = arguments.games or available_reports()
    executor = None
    try:
        check_game_ids(games)  # every id, before the first (long) build
        jobs = (parse_integer(arguments.jobs, "workers", where="--jobs")
                if arguments.jobs is not None else os.cpu_count() or 1)
        jobs = min(jobs, len(games))
        if jobs <= 1:
            builds = (_timed_build(game_id, arguments.out) for game_id in games)
        else:
            # The reports are independent: on two cores Punto Banco's (two thirds of the work)
            # is built beside the others. Each build's bytes do not depend on where it runs.
            executor = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"))
            futures = [executor.submit(_timed_build, game_id, arguments.out)
                       for game_id in games]
            builds = (future.result() for future in futures)
        for target, seconds in steps(builds, "reports", "report", total=len(games)):
            workbook = target.with_suffix(".xlsx")
            also = f" and {workbook.name}" if workbook.is_file() else ""
            print(f"{target}{also} ({seconds:.1f} s)", flush=True)
    except ExactError as error:  # a ReportError, or an output file that cannot be written
        print(f"exact.reports: {one_line(error)}", file=sys.stderr)
        return 2
    except OSError as error:  # the output folder cannot be made or emptied
        print(one_line(f"exact.reports: cannot write {error.filename or arguments.out}: "
                       f"{error.strerror or error}"), file=sys.stderr)
        return 2
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    return 0
