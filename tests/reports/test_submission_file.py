"""``exact report --submission FILE``: the submission file is read through its typed record
(:class:`~exact.reports.config.SubmissionFile`) by the one structuring layer, like every other
user file: an unknown key, a value of the wrong kind or past its bound is one line naming the
file and the key (exit status 2 from the command line), and what it gives reaches the report's
:class:`~exact.reports.config.Submission` exactly."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from exact.core.records import fields
from exact.errors import SubmissionError
from exact.reports.config import (
    FIELDS,
    MAX_REVISIONS,
    Revision,
    Submission,
    SubmissionFile,
    load_submission,
)

REPOSITORY = Path(__file__).resolve().parents[2]


def _load(tmp_path: Path, text: str) -> Submission:
    path = tmp_path / "submission.toml"
    path.write_text(text, encoding="utf-8")
    return load_submission(path)


def test_the_record_declares_exactly_the_cover_fields_the_bet_limit_and_the_history() -> None:
    """The record and the cover's list of fields name the same keys: a field added to one
    and not the other would be refused, or read and never shown."""
    assert set(fields(SubmissionFile)) == {key for key, _ in FIELDS} | {"bet_limit", "revision"}


def test_every_key_is_read_exactly(tmp_path) -> None:
    text = "".join(f'{key} = "{key} value"\n' for key, _ in FIELDS) + (
        'bet_limit = "2500/3"\n'
        "[[revision]]\nversion = '1.0'\ndate = 2026-11-30\ndescription = '''First\n"
        "submission'''\n"
        "[[revision]]\nversion = '1.1'\ndate = 'December 2026'\ndescription = 'Fixes'\n")
    submission = _load(tmp_path, text)
    for key, _ in FIELDS:
        value = getattr(submission, key)
        assert value == f"{key} value" and type(value) is str
    assert submission.bet_limit == Fraction(2500, 3) and type(submission.bet_limit) is Fraction
    # a TOML date is written back as ISO, a text date kept as written; a description may
    # hold a line break
    assert submission.revisions == (Revision("1.0", "2026-11-30", "First\nsubmission"),
                                    Revision("1.1", "December 2026", "Fixes"))
    assert submission.path == tmp_path / "submission.toml"
    assert submission.absent() == []


def test_an_empty_file_is_a_submission_with_everything_absent(tmp_path) -> None:
    submission = _load(tmp_path, "")
    assert submission == Submission(path=tmp_path / "submission.toml")
    assert submission.absent() == Submission().absent()


def test_the_shipped_example_submission_is_read() -> None:
    submission = load_submission(REPOSITORY / "tests" / "data" / "report" / "submission.toml")
    assert submission.client and submission.bet_limit == 5000
    assert submission.revisions[0].date == "2026-11-30"


@pytest.mark.parametrize(("text", "message"), [
    ("clinet = 'x'\n", "submission.toml: unknown key(s) 'clinet'; known: author, bet_limit, "),
    ("bet_limit = 0\n", "submission.toml: bet_limit 0: must be positive"),
    ("bet_limit = -5\n", "submission.toml: bet_limit -5: must be positive"),
    ("bet_limit = 'lots'\n", "submission.toml: bet_limit 'lots': is not a number"),
    ("bet_limit = 1e400\n", "submission.toml: bet_limit"),
    ("bet_limit = 0.1\n[x]\n", "unknown key(s) 'x'"),
    ("game_name = ['a']\n", "submission.toml: game_name: must be text (a TOML string), not an "
                            "array"),
    ("revision = [1, 2]\n", "submission.toml: [[revision]] must be a list of tables"),
    ("[[revision]]\nversion = 1\ndate = 'd'\ndescription = 'x'\n",
     "submission.toml: revision entry 1: version: must be text"),
    ("[[revision]]\nversion = '1'\ndate = 2026-01-01T10:00:00Z\ndescription = 'x'\n",
     "submission.toml: revision entry 1: date: must be text (a TOML string), not a date or "
     "time"),
    ('author = "line\\nbreak"\n', "submission.toml: author 'line\\nbreak': holds the control "
                                  "character"),
    ("[[revision]]\nversion = '1'\ndate = 'd'\ndescription = 'x'\n" * (MAX_REVISIONS + 1),
     f"submission.toml: revision: {MAX_REVISIONS + 1} entries: at most {MAX_REVISIONS}"),
])
def test_a_malformed_submission_is_one_line_naming_the_file_and_key(tmp_path, text,
                                                                     message) -> None:
    with pytest.raises(SubmissionError) as refused:
        _load(tmp_path, text)
    assert message in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize(("text", "message"), [
    ("clinet = 'Example Gaming Ltd'\n", "unknown key(s) 'clinet'"),
    ("[[revision]]\nversion = '1'\ndate = 'd'\ndescription = 'x'\nby = 'me'\n",
     "revision entry 1: unknown key(s) 'by'"),
    ("bet_limit = 0\n", "bet_limit 0: must be positive"),
])
def test_the_command_line_refuses_a_malformed_submission_in_one_line(tmp_path, text,
                                                                      message) -> None:
    """Before any work: status 2, one line naming the file and the key, nothing written."""
    (tmp_path / "in").mkdir()
    submission = tmp_path / "in" / "submission.toml"
    submission.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run([sys.executable, "-m", "exact", "report", "punto-banco", "-o",
                           "r.pdf", "--submission", str(submission)], capture_output=True,
                          text=True, timeout=300, cwd=out)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert list(out.iterdir()) == []
