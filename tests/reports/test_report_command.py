"""``exact report GAME``: the report of exactly a client's configuration, its figures those of
``exact analyze`` on the same options, its submission fields on the cover and the attestation
page, its reproduction command rebuilding the same bytes, and a user's files left alone."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from exact.core.cards import Shoe
from exact.errors import ReportError, SubmissionError
from exact.reports.config import ReportConfig, load_submission

from tests.support.optional import require_module

require_module("typst")

from exact.reports import countability, verification  # noqa: E402
from exact.reports.build import MANIFEST, build_report  # noqa: E402

# a few rounds of the verification simulation (as tests/reports/test_reports.py): the printed
# reproduction command carries the setting
os.environ.setdefault(verification.ROUNDS_VARIABLE, "200000")
os.environ.setdefault(countability.SHOES_VARIABLE, "20")

REPOSITORY = Path(__file__).resolve().parents[2]
FILES = Path("tests/data/report")  # relative: the command is run from the repository
SIDE_BET, TIE_TABLE, SUBMISSION = (str(FILES / name) for name in
                                   ("side_bet.toml", "tie_table.toml", "submission.toml"))
# the client's configuration: 6 decks, the Banker, the Tie by the client's table, a new side bet
OPTIONS = ["--decks", "6", "--bets", SIDE_BET, "--bet", "banker", "--bet", "tie",
           "--bet", "high-tie", "--table", TIE_TABLE]


def exact(*arguments: str, cwd: Path = REPOSITORY) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "exact", *arguments], capture_output=True,
                          text=True, timeout=600, cwd=cwd)


def pdf_text(path: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run(["pdftotext", "-layout", *pages, str(path), "-"], capture_output=True,
                          text=True, check=True, timeout=120).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The client's report, built by the command line into a folder that already holds the
    user's own files (beside the PDF and inside the report's data folder)."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    out = tmp_path_factory.mktemp("client")
    (out / "r").mkdir()
    (out / "notes.txt").write_text("the user's notes\n")
    (out / "r" / "my-chart.svg").write_text("<svg/>\n")
    done = exact("report", "punto-banco", *OPTIONS, "--submission", SUBMISSION,
                 "-o", str(out / "r.pdf"), "--xlsx", str(out / "r.xlsx"))
    assert done.returncode == 0, done.stderr
    return out


def _data(out: Path) -> dict:
    return json.loads((out / "r" / "data.json").read_text())


def test_the_report_is_of_exactly_the_configuration(built):
    openpyxl = require_module("openpyxl")
    data = _data(built)
    assert [b["id"] for b in data["bets"]] == ["banker", "tie", "high-tie"]
    assert [(r["bet"], r["paytable"]) for r in data["summary"]] == [
        ("Banker", "commission-5%"), ("Tie", "client-9-to-1"), ("High Tie", "client")]
    assert data["cover"]["shoe"] == "6 decks" and data["decks"] == "6"
    book = openpyxl.load_workbook(built / "r.xlsx")
    assert len(book.sheetnames) == 1 + 3  # the summary and one sheet per wager
    text = pdf_text(built / "r.pdf")
    assert "client-9-to-1" in text and "High Tie" in text
    assert "Dragon 7" not in text and "8-to-1" not in text  # no wager or paytable not asked for
    assert "DISAGREES" not in text


def _fractions(value: object, key: str = "") -> set[Fraction]:
    if isinstance(value, dict):
        return {f for k, v in value.items() for f in _fractions(v, k)}
    if isinstance(value, list):
        return {f for v in value for f in _fractions(v, key)}
    if isinstance(value, str) and key.endswith("exact") and re.fullmatch(r"-?\d+(/\d+)?", value):
        return {Fraction(value)}
    return set()


def test_every_exact_figure_is_what_analyze_gives_on_the_same_options(built):
    done = exact("analyze", "punto-banco", *OPTIONS, "--json")
    assert done.returncode == 0, done.stderr
    analysis = json.loads(done.stdout)
    data = _data(built)
    assert data["denominator"] == f"{analysis['total']:,}"
    expected: set[Fraction] = set()
    for bet in data["bets"]:
        (table,) = bet["tables"]  # exactly the paytable asked for
        theirs = analysis["bets"][bet["id"]]
        assert table["paytable"] == theirs["paytable"]
        assert Fraction(table["house_edge_exact"]) == Fraction(theirs["house_edge"])
        assert [(r["event"], int(r["combinations"].replace(",", ""))) for r in table["rows"]] \
            == [(o["event"], o["combinations"]) for o in theirs["outcomes"]]
        expected |= {Fraction(theirs["house_edge"]), -Fraction(theirs["house_edge"]),
                     Fraction(theirs["variance"])}
    for row in data["statistics"]["bets"]:
        theirs = analysis["bets"][next(b["id"] for b in data["bets"] if b["name"] == row["bet"])]
        assert Fraction(row["variance_exact"]) == Fraction(theirs["variance"])
        assert row["sd_exact"] == theirs["standard_deviation_exact"]
    figures = _fractions(data)  # every exact figure of the report, wherever it is
    assert len(figures) >= 6 and figures <= expected, figures - expected
    for row in data["exposure"]["rows"]:  # the top awards: the largest pay analyze shows
        theirs = analysis["bets"][next(b["id"] for b in data["bets"] if b["name"] == row["bet"])]
        assert Fraction(row["pays"]) == max(Fraction(o["pays"]) for o in theirs["outcomes"])


def test_the_submission_is_on_the_cover_and_the_attestation_page(built):
    submission = load_submission(REPOSITORY / SUBMISSION)
    cover, attestation = pdf_text(built / "r.pdf", 1), pdf_text(built / "r.pdf", 2)
    assert "Document control and attestation" in attestation
    for value in (submission.client, submission.game_name, submission.rules_document,
                  submission.rules_version, submission.jurisdiction, submission.author,
                  submission.reviewer, submission.report_version):
        assert value in cover and value in attestation, value
    (revision,) = submission.revisions
    assert revision.date == "2026-11-30" and revision.description in attestation
    assert "does not give" not in cover  # every field given (the manufacturer: the client)


def test_the_reproduction_command_rebuilds_the_same_bytes(built, tmp_path):
    data = _data(built)
    command = data["reproduction"]["command"]
    assert re.match(rf"{verification.ROUNDS_VARIABLE}=\d+ {countability.SHOES_VARIABLE}=\d+ "
                    r"exact report punto-banco ", command)
    assert " ".join(pdf_text(built / "r.pdf").split()).count(command) == 1
    versions = {v["name"]: v["version"] for v in data["reproduction"]["versions"]}
    assert {"exact", "commit", "Python", "numpy", "sympy", "typst"} <= set(versions)
    files = {f["path"] for f in data["reproduction"]["files"]}
    assert {SIDE_BET, TIE_TABLE, SUBMISSION, "exact/games/baccarat/data/rules.toml"} <= files
    before = {name: (built / name).read_bytes() for name in ("r.pdf", "r.xlsx")}
    shutil.copy(built / "r.pdf", tmp_path / "first.pdf")
    (built / "r.pdf").unlink()
    # the printed line, run by a shell, with the `exact` of this environment first on the path
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    done = subprocess.run(["sh", "-c", command], cwd=REPOSITORY, capture_output=True,
                          text=True, timeout=600, env=environment)
    assert done.returncode == 0, done.stderr
    for name, content in before.items():
        assert (built / name).read_bytes() == content, name
    # and the user's files are still there, after the second build too
    assert (built / "notes.txt").read_text() == "the user's notes\n"
    assert (built / "r" / "my-chart.svg").read_text() == "<svg/>\n"
    assert "my-chart.svg" not in json.loads((built / "r" / MANIFEST).read_text())


def _tiny(**changes) -> ReportConfig:
    """A report that builds in seconds: the Banker alone on one deck."""
    from exact.analysis.bet_analysis import game_bets
    from exact.games import get_game

    game = get_game("punto-banco")
    return ReportConfig(game, Shoe.standard(1), (game_bets(game)[0],), **changes)


def test_the_builder_replaces_only_its_own_files(tmp_path):
    folder = tmp_path / "tiny"
    build_report(_tiny(), tmp_path / "tiny.pdf")
    manifest = json.loads((folder / MANIFEST).read_text())
    assert "data.json" in manifest and any(name.endswith(".svg") for name in manifest)
    # a file of the last build the user edited is theirs now: the next build stops, touching
    # nothing, rather than replace it
    chart = next(name for name in manifest if name.endswith(".svg"))
    (folder / chart).write_text("edited by the user\n")
    (tmp_path / "tiny.pdf").write_bytes(b"old")
    with pytest.raises(ReportError, match="not written by the report builder"):
        build_report(_tiny(), tmp_path / "tiny.pdf")
    assert (folder / chart).read_text() == "edited by the user\n"
    assert (tmp_path / "tiny.pdf").read_bytes() == b"old"
    # a file the builder wrote and that is unchanged is removed when no longer built; one it
    # never wrote stays
    (folder / chart).unlink()
    stale = folder / "stale.svg"
    stale.write_text("<svg/>")
    manifest["stale.svg"] = __import__("hashlib").sha256(b"<svg/>").hexdigest()
    (folder / MANIFEST).write_text(json.dumps(manifest))
    (folder / "mine.txt").write_text("mine")
    build_report(_tiny(), tmp_path / "tiny.pdf")
    assert not stale.exists() and (folder / "mine.txt").read_text() == "mine"
    assert (folder / chart).is_file()
    assert not list(tmp_path.glob(".exact-report-*"))  # the work folder is gone


def test_a_users_data_json_is_never_replaced(tmp_path):
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "data.json").write_text("{}")
    with pytest.raises(ReportError, match=r"data\.json"):
        build_report(_tiny(), tmp_path / "tiny.pdf")
    assert (tmp_path / "tiny" / "data.json").read_text() == "{}"
    assert not (tmp_path / "tiny.pdf").exists()


def test_without_a_submission_file_the_report_names_what_is_absent(tmp_path):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    pdf = build_report(_tiny(), tmp_path / "tiny.pdf")
    cover = " ".join(pdf_text(pdf, 1).split())
    assert "No submission file was given" in cover
    for field in ("client or manufacturer", "jurisdiction", "reviewer", "revision history"):
        assert field in cover
    assert "not given" in pdf_text(pdf, 2)
    data = json.loads((tmp_path / "tiny" / "data.json").read_text())
    # a library call: the command names the configuration only when it was given one
    assert re.match(rf"{verification.ROUNDS_VARIABLE}=\d+ {countability.SHOES_VARIABLE}=\d+ "
                    r"exact report punto-banco -o ",
                    data["reproduction"]["command"])


@pytest.mark.parametrize(("text", "message"), [
    ("clinet = 'x'\n", "unknown key(s) 'clinet'"),
    ("author = 3\n", "author: must be text"),
    ("[[revision]]\nversion = '1'\n", "revision entry 1: missing date, description"),
    ("[[revision]]\nversion = '1'\ndate = '2026-01-01'\ndescription = 'x'\nby = 'me'\n",
     "unknown key(s) 'by'"),
    ("revision = 'none'\n", "[[revision]] must be a list of tables"),
    ('author = "a\\u001b[2J"\n', "control character"),
    ("author = \n", "not valid TOML"),
])
def test_a_malformed_submission_file_is_one_typed_error(tmp_path, text, message):
    path = tmp_path / "submission.toml"
    path.write_text(text)
    with pytest.raises(SubmissionError, match=re.escape(message)):
        load_submission(path)


@pytest.mark.parametrize(("arguments", "message"), [
    (["punto-banco", "-o", "r.txt"], "ends in .pdf"),
    (["punto-banco", "-o", "r.pdf", "--submission", "missing.toml"], "cannot read submission"),
    (["punto-banco", "-o", "r.pdf", "--strategy", "best"], "unrecognized arguments"),
    (["century21", "-o", "r.pdf", "--decks", "6"], "--decks is an option of nine-and-nines, "
                                                   "punto-banco, not of report century21"),
    (["punto-banco", "-o", "r.pdf", "--bet", "nobet"], "unknown bet(s) 'nobet'"),
    (["chemin-de-fer", "-o", "r.pdf"], "no report for 'chemin-de-fer'"),
    (["punto-banco", "-o", "/no/such/folder/r.pdf"], "no directory"),
    (["punto-banco"], "required: --output"),
])
def test_bad_report_options_are_one_line_and_status_2(tmp_path, arguments, message):
    done = exact("report", *arguments, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written, no folder made


def test_the_reproduction_command_quotes_what_the_shell_would_split():
    config = ReportConfig.shipped("punto-banco")
    line = config.command("my report's.pdf", "a b.xlsx")
    assert shlex.split(line) == ["exact", "report", "punto-banco", "-o", "my report's.pdf",
                                 "--xlsx", "a b.xlsx"]


def test_make_report_runs_the_report_command():
    """`make report` builds each shipped report by `exact report GAME` (and so records that
    command as the report's reproduction)."""
    makefile = (REPOSITORY / "Makefile").read_text()
    recipe = makefile[makefile.index("report-%:"):].split("\n\n")[0]
    assert "-m exact report $* -o reports/build/$*.pdf --xlsx reports/build/$*.xlsx" in recipe
    games = re.search(r"REPORT_GAMES := (.*)", makefile)[1].split()
    from exact.reports import available_reports

    assert sorted(games) == sorted(available_reports())


def test_what_a_lab_reads_tableau_exposure_glossary_plain_assumptions(built):
    """The third-card rule as a grid (not "Banker on 7 ... never" lines), the top award of
    each wager with its payout at the submission's bet limit, a glossary, and assumptions
    without command-line jargon."""
    from exact.games import get_game

    data = _data(built)
    rules = get_game("punto-banco").rules
    grid = {row["total"]: row["cells"] for row in data["tableau"]["rows"]}
    assert sorted(grid) == [str(t) for t in range(8)]  # the Banker's totals that are no natural
    for total, cells in grid.items():
        drawn = rules.banker_draws_on_player_third.get(int(total), frozenset())
        assert cells[:10] == ["D" if card in drawn else "S" for card in range(10)]
        assert cells[10] == ("D" if int(total) in rules.banker_draws_when_player_stands else "S")
    assert not any(line.startswith("Banker on ") for line in data["rules"])
    exposure = data["exposure"]
    assert exposure["limit"] == "5,000"
    high_tie = next(row for row in exposure["rows"] if row["bet"] == "High Tie")
    assert (high_tie["pays"], high_tie["payout"], high_tie["event"]) == ("40", "200,000",
                                                                         "Tie on 9")
    banker = next(row for row in exposure["rows"] if row["bet"] == "Banker")
    assert banker["payout"] == "4,750"  # 19/20 of the limit
    text = pdf_text(built / "r.pdf")
    assert "Player's third card" in text and "Top awards and exposure" in text
    assert "200,000" in text and "Glossary" in text
    assumptions = text[text.index("Assumptions\n", text.index("Worked examples")):]
    assumptions = assumptions[:assumptions.index("Method")]
    assert "`" not in assumptions and "--table" not in assumptions
    # the report's own assumption (a round from the shoe analysed; the simulations deal shoes),
    # not the commands' (exact.analysis.assumptions: each line true of what prints it)
    assert "perfectly shuffled" in " ".join(assumptions.split())
    assert "not modelled" not in assumptions


def test_a_data_folder_that_is_a_file_is_refused_before_any_work(tmp_path):
    (tmp_path / "tiny").write_text("a file of the user's\n")
    with pytest.raises(ReportError, match="not a folder"):
        build_report(_tiny(), tmp_path / "tiny.pdf")
    assert (tmp_path / "tiny").read_text() == "a file of the user's\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny"]


def test_a_century21_report_of_the_clients_rules_and_stakes(tmp_path):
    """century21's report takes its rule file and the stakes of its economics, the edge after
    the collection is the library's for that bet, and the command records them."""
    from exact.core.cards import Shoe as Cards
    from exact.games.century21.game import DEFAULT_RULES, game_table
    from exact.games.century21.rules import DATA
    from exact.render.numbers import percent

    rules = tmp_path / "house rules.toml"
    rules.write_text((DATA / "rules.toml").read_text().replace('name = "', 'name = "Client: ', 1))
    done = exact("report", "century21", "--rules", str(rules), "--bet-size", "25", "-o",
                 str(tmp_path / "c.pdf"))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "c" / "data.json").read_text())
    assert data["rules_name"].startswith("Client: ") and data["bet"] == "25"
    table = game_table(DEFAULT_RULES, Cards.standard(8, jokers=8))
    house = table.evaluate(*table.house_way())
    fee = DEFAULT_RULES.collection_fee(25)
    assert data["fee"] == str(fee)
    assert data["summary"][0]["house_edge_with_collection"] == percent(
        -house.edge_with_collection(25, fee), 4, True)
    words = shlex.split(data["reproduction"]["command"])
    words = words[next(i for i, w in enumerate(words) if w == "exact"):]  # after VARIABLE=value
    assert words[3:5] == [f"--rules={rules}", "--bet-size=25"]
    assert str(rules.name) in {Path(f["path"]).name for f in data["reproduction"]["files"]}


def test_the_xlsx_in_the_data_folder_or_a_pdf_without_a_stem_is_refused_before_any_work(
        tmp_path, monkeypatch, capsys):
    """`--xlsx r` beside `-o r.pdf` names the report's own data folder: it failed after the
    whole build with the PDF's name in the message; `-o .pdf` put the data loose in the folder."""
    from exact.cli.app import main
    from exact.reports import build

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(build, "report_data", lambda *args: pytest.fail("work started"))
    (tmp_path / "sub").mkdir()
    for argv, why, folder in ((["-o", "r.pdf", "--xlsx", "r"], "data folder", False),
                              (["-o", "r.pdf", "--xlsx", "r/sheet.xlsx"], "data folder", True),
                              (["-o", ".pdf"], "stem", False), (["-o", "sub/.PDF"], "stem", False)):
        if folder:  # a data folder of an earlier build
            (tmp_path / "r").mkdir()
        assert main(["report", "punto-banco", "--decks", "1", "--bet", "banker", *argv]) == 2
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and why in captured.err, captured.err
        assert not (tmp_path / "r.pdf").exists()
        assert not list((tmp_path / "r").iterdir()) if folder else not (tmp_path / "r").exists()
        if folder:
            (tmp_path / "r").rmdir()


def test_a_shipped_build_never_replaces_a_pdf_or_workbook_it_did_not_write(tmp_path,
                                                                           monkeypatch):
    """`python -m exact.reports GAME --out DIR` names a folder, not DIR/GAME.pdf and
    DIR/GAME.xlsx: it replaced a user's files of those names (issue 26). Now only the
    builder's own, unchanged since, are replaced."""
    from exact.reports import build

    calls = []

    def fake_build(config, pdf, xlsx):  # the outputs a build writes, without the build
        calls.append(pdf)
        Path(pdf).write_bytes(b"%PDF built " + bytes([len(calls)]))
        Path(xlsx).write_bytes(b"PK built " + bytes([len(calls)]))
        build.data_folder(pdf).mkdir(exist_ok=True)
        return Path(pdf)

    monkeypatch.setattr(build, "build_report", fake_build)
    pdf, xlsx = tmp_path / "punto-banco.pdf", tmp_path / "punto-banco.xlsx"
    for target in (pdf, xlsx):
        target.write_bytes(b"the user's own")
        with pytest.raises(ReportError, match="not a file this builder wrote"):
            build.build_shipped("punto-banco", tmp_path)
        assert target.read_bytes() == b"the user's own" and not calls
        target.unlink()
    build.build_shipped("punto-banco", tmp_path)
    build.build_shipped("punto-banco", tmp_path)  # its own outputs: replaced
    assert len(calls) == 2 and pdf.read_bytes().endswith(b"\x02")
    xlsx.write_bytes(b"edited by the user")
    with pytest.raises(ReportError, match="changed since"):
        build.build_shipped("punto-banco", tmp_path)
    assert xlsx.read_bytes() == b"edited by the user" and len(calls) == 2
