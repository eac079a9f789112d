"""Where a report is built and what from: its :class:`Context` (the folder of its generated
files, the repository, the verification simulation's size) and its cover (the toolkit's
version and commit, the build date, the files hashed).

Layer: reports, above rendering; only the command line and the lab sit above it.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from exact import __version__
from exact.core.cards import Shoe
from exact.core.parsing import source_date_epoch
from exact.model.bets import Bet
from exact.model.game import Game
from exact.reports import REPOSITORY, ReportError


@dataclass(frozen=True)
class Context:
    """Where a report's generated files go and what it is built from."""

    out_dir: Path
    repository: Path = REPOSITORY
    rounds: int | None = None
    """Rounds of the verification simulation (None: ``EXACT_REPORT_ROUNDS``, else 10^8)."""
    workers: int | None = None
    """Its worker processes (None: ``EXACT_REPORT_WORKERS``, else one)."""


def _git(repository: Path, *arguments: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(repository), *arguments], capture_output=True,
                              text=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def build_epoch(repository: Path = REPOSITORY) -> int:
    """The report's date as a Unix time: ``SOURCE_DATE_EPOCH`` if set, else the date of the
    checked-out commit, so that the same inputs give the same bytes."""
    epoch = source_date_epoch(ReportError)
    if epoch is not None:
        return epoch
    committed = _git(repository, "log", "-1", "--format=%ct")
    return int(committed) if committed else 0


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def commit(repository: Path = REPOSITORY) -> str:
    """The checked-out commit of the toolkit, and whether its code has changes beside it."""
    found = _git(repository, "rev-parse", "HEAD") or "unknown (not a git checkout)"
    if _git(repository, "status", "--porcelain", "--", "exact", "reports"):
        found += " + uncommitted changes"
    return found


def cover(game: Game, shoe: Shoe, bets: Sequence[Bet], files: Iterable[Path],
          context: Context) -> dict[str, object]:
    """Game, rule set, paytables, toolkit version and commit, file hashes, date."""
    epoch = build_epoch(context.repository)
    return {
        "game": game.name,
        "game_id": game.id,
        "shoe": shoe.describe(),
        "version": __version__,
        "commit": commit(context.repository),
        "epoch": epoch,
        "date": datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d"),
        "paytables": [{"bet": bet.name, "id": bet.id, "default": bet.paytable,
                       "alternatives": ", ".join(bet.alternatives) or "none"} for bet in bets],
        "files": [{"path": shown_file(path, context.repository), "sha256": sha256(path)}
                  for path in dict.fromkeys(files)],
    }


def shown_file(path: Path, root: Path) -> str:
    """A file's name as a report shows it: relative to the repository, else its name."""
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return path.name
