"""Build the PDF reports: data from the library, charts, then Typst.

Layer: reports, above rendering; only the command line and the lab sit above it.

>>> from exact.reports.build import typst_date
>>> typst_date(0)
(1970, 1, 1)
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

from exact import __version__
from exact.core.files import target_of, write_file
from exact.core.options import OneLineParser
from exact.core.parsing import shown
from exact.core.progress import steps
from exact.errors import ExactError, UsageError, one_line
from exact.model.plugins import plugin
from exact.render.output import json_text
from exact.reports import (
    REPOSITORY,
    TEMPLATES,
    ReportError,
    available_reports,
    report_builder,
    template_path,
)
from exact.reports.config import ReportConfig
from exact.reports.cover import Context, build_epoch, commit, sha256, shown_file
from exact.reports.document import exposure, plain_assumptions

BUILD = REPOSITORY / "reports" / "build"


def typst_date(epoch: int) -> tuple[int, int, int]:
    moment = datetime.fromtimestamp(epoch, UTC)
    return moment.year, moment.month, moment.day


MANIFEST = ".exact-report.json"
"""The data folder's list of the files the builder wrote there (name -> SHA-256): only those,
unchanged since, are ever replaced or removed; a user's file beside them is never touched."""


def report_data(config: ReportConfig, work_dir: Path) -> dict[str, object]:
    """The report's data (and its charts, written into ``work_dir``)."""
    game_id = config.game.id
    builder = report_builder(game_id)
    if builder is None:
        raise ReportError(f"{game_id}: no report (its plugin record names none)")
    work_dir.mkdir(parents=True, exist_ok=True)
    data: dict[str, object] = builder(config, Context(work_dir))
    return data


def _layout(templates: Path) -> Path:
    """The shared layout ``lib.typ``: that of ``templates`` if it holds one, else the
    package's."""
    given = templates / "lib.typ"
    return given if given.is_file() else TEMPLATES / "lib.typ"


def data_folder(pdf: str | os.PathLike[str]) -> Path:
    """Where the data (``data.json``) and charts of the report ``pdf`` go: the folder of its
    name without ``.pdf``, beside it (``reports/build/punto-banco/``)."""
    path = Path(pdf)
    return path.parent / path.name[:-len(".pdf")]


def build_report(config: ReportConfig | str, pdf: str | os.PathLike[str],
                 xlsx: str | os.PathLike[str] | None = None,
                 templates: Path = TEMPLATES) -> Path:
    """Build the report of ``config`` (or of a game id's shipped configuration) to ``pdf``,
    its par sheet to ``xlsx`` if given, its data and charts to :func:`data_folder`.

    Every output is checked before the work starts and written whole or not at all; in the
    data folder only the files of the builder's last build (its manifest) are replaced or
    removed, and a file of the same name that it did not write stops the build before any
    file is touched. The bytes depend only on the inputs (the date is ``SOURCE_DATE_EPOCH`` or
    the commit's date, fonts are Typst's own)."""
    if isinstance(config, str):
        check_game_ids([config], templates)
        config = ReportConfig.shipped(config)
    game_id = config.game.id
    check_game_ids([game_id], templates)
    if not os.fspath(pdf).lower().endswith(".pdf"):
        raise ReportError(f"{shown(str(pdf))}: a report's file name ends in .pdf (its data "
                          "folder is the name without it)")
    target, _ = target_of(pdf)  # before any work: a refused output costs no minutes
    if xlsx is not None:
        target_of(xlsx)
        if importlib.util.find_spec("xlsxwriter") is None:
            raise ReportError("--xlsx needs XlsxWriter (the `sheets` extra)")
    folder = data_folder(pdf)
    if not Path(pdf).name[:-len(".pdf")]:  # ".pdf": the data folder would be the PDF's own
        raise ReportError(f"{shown(str(pdf))}: a report's name needs a stem before .pdf "
                          "(its data folder is the name without it)")
    if xlsx is not None and _within(Path(xlsx), folder):
        raise ReportError(f"--xlsx {shown(str(xlsx))} is in or is the report's data folder "
                          f"{shown(str(folder))}: write the par sheet beside it")
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"{folder}: not a folder (the report's data and charts go there)")
    old = _manifest(folder)
    _refuse_foreign(folder, old, ["data.json"])  # the rest once their names are known
    import typst

    template = template_path(game_id, templates)
    try:
        work = Path(tempfile.mkdtemp(prefix=".exact-report-", dir=target.parent))
    except OSError as error:
        raise ReportError(f"cannot write beside {pdf}: {error.strerror or error}") from None
    try:
        data = report_data(config, work)
        data["submission"] = config.submission.json()
        assumptions, awards = data.get("assumptions"), data.pop("awards", None)
        if isinstance(assumptions, list):
            data["assumptions"] = plain_assumptions(assumptions, plugin(game_id).report_words)
        if isinstance(awards, list):
            data["exposure"] = exposure(awards, config.submission.bet_limit)
        cover = data.get("cover")
        data["reproduction"] = reproduction(config, pdf, xlsx, cover.get("files", ())
                                            if isinstance(cover, dict) else ())
        write_file(work / "data.json", json_text(data, indent=1))
        # Typst reads files only under its root, and a game's template (in its package)
        # imports the shared layout as "lib.typ": the two are put side by side in the build
        # folder, which is under the root (the folder the PDF goes to).
        layout = work / ".typst"
        layout.mkdir()
        shutil.copyfile(_layout(templates), layout / "lib.typ")
        shutil.copyfile(template, layout / template.name)
        root = work.resolve().parent
        epoch = build_epoch()
        try:
            document = typst.compile(
                str(layout / template.name), root=str(root), ignore_system_fonts=True,
                font_paths=[], timestamp=epoch,
                sys_inputs={"data": "/" + str(work.resolve().relative_to(root)),
                            "date": "-".join(map(str, typst_date(epoch)))})
        except RuntimeError as error:  # typst.TypstError is a RuntimeError
            # Typst's diagnostics span lines; the error is reported on one
            raise ReportError(f"{game_id}: Typst failed: {' '.join(str(error).split())}"
                              ) from None
        from exact.render.spreadsheet import REPORT_WORKBOOK

        workbook = work / REPORT_WORKBOOK
        sheet = workbook.read_bytes() if workbook.is_file() else None
        workbook.unlink(missing_ok=True)  # it goes to --xlsx, not to the data folder
        try:
            _install(work, folder, old)
        except OSError as error:  # an OutputError (the manifest) is one already
            if isinstance(error, ExactError):
                raise
            raise ReportError(f"cannot write {folder}: {error.strerror or error}") from None
        write_file(pdf, document)
        if xlsx is not None and sheet is not None:
            write_file(xlsx, sheet)
    finally:
        shutil.rmtree(work, ignore_errors=True)  # the builder's own fresh folder
    return Path(pdf)


OUTPUTS = ".exact-report-outputs.json"
"""In a shipped report's data folder: the SHA-256 of the PDF and par sheet the builder wrote
beside it, so that a later build replaces them only if they are still its own."""


def build_shipped(game_id: str, out_dir: Path = BUILD) -> Path:
    """The shipped report of ``game_id`` as ``make report`` builds it: ``<out_dir>/<game
    id>.pdf``, its par sheet beside it (with XlsxWriter), its data in ``<out_dir>/<game id>/``.

    Those two names are implicit (the user named a folder, not them): a file there that the
    builder did not write, or that changed since, is refused before any work, never replaced.
    """
    check_game_ids([game_id])  # before any path is made of it
    pdf = out_dir / f"{game_id}.pdf"
    xlsx = out_dir / f"{game_id}.xlsx" if importlib.util.find_spec("xlsxwriter") else None
    record = data_folder(pdf) / OUTPUTS
    ours = _outputs_record(record)
    for target in (pdf, xlsx):
        if target is not None and (target.exists() or target.is_symlink()) and (
                not target.is_file() or ours.get(target.name) != sha256(target)):
            raise ReportError(f"{target}: not a file this builder wrote (or changed since); "
                              "move it away, or name the outputs: exact report GAME -o FILE")
    built = build_report(ReportConfig.shipped(game_id), pdf, xlsx)
    written = {path.name: sha256(path) for path in (pdf, xlsx) if path is not None
               and path.is_file()}
    write_file(record, json_text(written, indent=1))
    return built


def _outputs_record(path: Path) -> dict[str, str]:
    """The builder's record of the outputs beside a data folder (empty if none or unreadable:
    then every existing output counts as the user's)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        return {}
    return {name: digest for name, digest in record.items() if isinstance(digest, str)} \
        if isinstance(record, dict) else {}


def reproduction(config: ReportConfig, pdf: str | os.PathLike[str],
                 xlsx: str | os.PathLike[str] | None,
                 files: Sequence[object] = ()) -> dict[str, object]:
    """The command that rebuilds the report, the software that built it and the SHA-256 of
    every input file: ``files``, the cover's (rule, bet and table files, as the report module
    found them), and the submission file."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    def installed(package: str) -> str:
        try:
            return version(package)
        except PackageNotFoundError:
            return "not installed"

    from exact.reports.countability import SHOES_VARIABLE
    from exact.reports.verification import ROUNDS_VARIABLE

    command = config.command(pdf, xlsx)
    # they decide the simulations' figures: part of the command (in this order)
    for variable in (SHOES_VARIABLE, ROUNDS_VARIABLE):
        value = os.environ.get(variable)
        if value is not None:
            command = f"{variable}={shlex.quote(value)} {command}"
    return {"command": command,
            "versions": [{"name": "exact", "version": __version__},
                         {"name": "commit", "version": commit(REPOSITORY)},
                         {"name": "Python", "version": platform.python_version()},
                         *({"name": name, "version": installed(name.lower())}
                           for name in ("numpy", "sympy", "typst"))],
            "files": [*files, *({"path": shown_file(path, REPOSITORY), "sha256": sha256(path)}
                                for path in [config.submission.path] if path is not None)]}


def _within(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or a file under it (names resolved, links followed)."""
    resolved, home = Path(os.path.realpath(path)), Path(os.path.realpath(folder))
    return resolved == home or home in resolved.parents


def _manifest(folder: Path) -> dict[str, str]:
    """The builder's manifest of ``folder`` (empty if none): plain names to SHA-256."""
    path = folder / MANIFEST
    if not path.is_file():
        return {}
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = None
    if not (isinstance(manifest, dict) and all(
            isinstance(name, str) and Path(name).name == name and name not in ("", ".", "..")
            and isinstance(digest, str) for name, digest in manifest.items())):
        raise ReportError(f"{path}: not a manifest the report builder wrote; move it away")
    return manifest


def _refuse_foreign(folder: Path, old: dict[str, str], names: list[str]) -> None:
    """A file of ``names`` in ``folder`` that the builder did not write (or that changed
    since) is refused: the user's file is never replaced."""
    def foreign(path: Path) -> bool:
        if not (path.exists() or path.is_symlink()):
            return False
        return path.is_symlink() or not path.is_file() or old.get(path.name) != sha256(path)

    foreign_names = [name for name in names if foreign(folder / name)]
    if foreign_names:
        more = f" (and {len(foreign_names) - 1} more)" if len(foreign_names) > 1 else ""
        why = "changed since" if old else "no manifest lists it: a build before manifests?"
        raise ReportError(f"{folder / foreign_names[0]}{more}: not written by the report "
                          f"builder ({why}); move it away or build to another file")


def _install(work: Path, folder: Path, old: dict[str, str]) -> None:
    """Move the files built in ``work`` into ``folder``: the builder's earlier files that are
    unchanged are replaced or removed, any other file is left as it is."""
    built = {path.name: sha256(path) for path in sorted(work.iterdir()) if path.is_file()}
    _refuse_foreign(folder, old, list(built))
    folder.mkdir(exist_ok=True)
    for name, digest in old.items():
        stale = folder / name
        if name not in built and stale.is_file() and not stale.is_symlink() \
                and sha256(stale) == digest:
            stale.unlink()
    for name in built:
        os.replace(work / name, folder / name)
    write_file(folder / MANIFEST, json.dumps(built, indent=1, sort_keys=True) + "\n")


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


def _timed_build(game_id: str, out_dir: Path) -> tuple[Path, float]:
    started = time.perf_counter()
    return build_shipped(game_id, out_dir), time.perf_counter() - started


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
        arguments.out.mkdir(parents=True, exist_ok=True)  # the folder asked for, as before
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
