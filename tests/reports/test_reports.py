"""The PDF reports: built from the library, numbers read back from the PDF, reproducible."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact.analysis.bet_analysis import analyze, game_bets
from exact.analysis.repeated_play import normal_quantile, result_interval, volatility_index
from exact.core.cards import Shoe
from exact.games import game_ids, plugin
from exact.render.numbers import grouped, percent
from exact.render.spreadsheet import REPORT_WORKBOOK
from exact.reports import (
    ReportError,
    available_reports,
    countability,
    verification,
)
from exact.reports.checks import published_checks
from exact.reports.cover import Context

from tests.support.optional import require_module
from tests.support.published import NINE_AND_NINES, PUNTO_BANCO

typst = require_module("typst")
pypdf = require_module("pypdf")

from pypdf.generic import DecodedStreamObject, NameObject  # noqa: E402

from exact.reports.build import build_report, build_shipped  # noqa: E402

REPORTS = available_reports()
# The reports simulate 10^8 rounds unless told: the tests build them with far fewer (and say
# so in the PDF, which they check).
os.environ.setdefault(verification.ROUNDS_VARIABLE, "200000")
os.environ.setdefault(countability.SHOES_VARIABLE, "20")


def per_report(*game_ids: str) -> list[str]:
    """Parameters: each report (default: every one). `make test` runs a report's tests on the
    worker that builds it, and the reports side by side (tests/conftest.py, SPLIT_FILES)."""
    return list(game_ids or REPORTS)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """``report(game_id)``: the PDF of that report, built when a test first asks for it, once
    per worker, into a fresh folder (the reproducibility of a whole build, which costs a
    second build, is the slow test at the end; `make test` checks it on the mini report and
    by compiling every built report again)."""
    out = tmp_path_factory.mktemp("reports")
    built: dict[str, Path] = {}
    (out / "notes.txt").write_text("the user's\n")  # a user's files beside the reports

    def build(game_id: str) -> Path:
        if game_id not in built:
            (out / game_id).mkdir()
            (out / game_id / "notes.txt").write_text("the user's\n")
            built[game_id] = build_shipped(game_id, out)
        return built[game_id]

    return build


_TEXTS: dict[str, str] = {}

# A chart's page can hold megabytes of path operators (the SVG's lines and markers; its text
# is text), which pypdf tokenizes one by one to find a few hundred characters of text: once
# three quarters of the reading time of a report. The text is read with them taken out first: the
# path operators with their operands (m l c v y re), painting and clipping (f F f* B B* b b*
# h S s n W W*), each a whole token (not the c of cm) outside strings (which are kept whole).
# Neither draws nor places text; test_reading_without_paths_reads_the_same_text checks it.
_NUMBER = rb"[-+]?(?:\d+\.?\d*|\.\d+)"
_PATHS = re.compile(rb"(\((?:\\.|[^\\()])*\))|(?<![^\s\])>])(?:" + _NUMBER
                    + rb"\s+)*(?:re|[mlcvy]|[fBb]\*?|[hSsnF]|W\*?)(?![^\s/\[\]<>()%])")
_PATHS_WORTH_DROPPING = 200_000  # bytes of a page's content: below, the pass costs more


def _page_text(page, worth_dropping: int = _PATHS_WORTH_DROPPING) -> str:
    contents = page.get_contents()
    if contents is not None:
        data = contents.get_data()
        if len(data) > worth_dropping:
            kept = DecodedStreamObject()
            kept.set_data(_PATHS.sub(lambda match: match[1] or b" ", data))
            page[NameObject("/Contents")] = kept
    return page.extract_text()


def _text(pdf_path) -> str:
    """The PDF's text as pypdf extracts it (cached: extraction takes seconds)."""
    if str(pdf_path) not in _TEXTS:
        reader = pypdf.PdfReader(str(pdf_path))
        assert len(reader.pages) > 0
        _TEXTS[str(pdf_path)] = "\n".join(_page_text(page) for page in reader.pages)
    return _TEXTS[str(pdf_path)]


def test_the_reports_are_the_games_whose_plugin_has_a_report():
    assert "punto-banco" in REPORTS
    for game_id in game_ids():
        record = plugin(game_id)
        has = record.report is not None and record.template is not None
        assert (game_id in REPORTS) == has == (game_id in available_reports()), game_id
        if has:  # the template sits in the game's own package
            assert record.template.parent == Path(record.report.__code__.co_filename).parent


@pytest.mark.parametrize("game_id", per_report())
def test_every_report_is_built(report, game_id):
    path = report(game_id)
    assert path.stat().st_size > 10_000
    assert len(pypdf.PdfReader(str(path)).pages) > 5


@pytest.mark.parametrize("game_id", per_report("punto-banco"))
def test_punto_banco_headline_numbers_read_back_from_the_pdf(report, game_id, punto_banco):
    text = _text(report(game_id))
    result = analyze(punto_banco, Shoe.standard(8))
    banker, player, tie = (result.bets[b] for b in ("banker", "player", "tie"))
    # the published 8-deck counts, and the library's, appear exactly
    assert banker.counts[0] == PUNTO_BANCO.value("count", bet="banker", event="Banker wins")
    for count in (banker.counts[0], player.counts[0], tie.counts[0], result.total):
        assert grouped(count) in text
    for bet in (banker, player, tie):
        assert percent(bet.table().house_edge) in text
    assert str(banker.table().house_edge) in text
    for bet_id in ("banker", "player"):
        assert f"{PUNTO_BANCO.value('house_edge', bet=bet_id)}%" in text
    assert f"{PUNTO_BANCO.value('house_edge', bet='tie', paytable='8-to-1')}%" in text
    assert "DISAGREES" not in text


@pytest.mark.parametrize("game_id", per_report("punto-banco"))
def test_punto_banco_report_covers_every_wager_and_paytable(report, game_id, punto_banco):
    data = _data(report, game_id)
    bets = game_bets(punto_banco)
    assert [b["id"] for b in data["bets"]] == [b.id for b in bets]
    assert [(r["bet"], r["paytable"]) for r in data["summary"]] == [
        (b.name, p) for b in bets for p in b.paytables]
    text = _text(report(game_id))
    for bet in bets:
        for paytable in bet.paytables:
            assert paytable in text
    assert data["published"]["all_agree"] and data["brute_force"]["all_agree"]
    assert all(row["agrees"] for row in data["sums"])


@pytest.mark.parametrize("game_id", per_report("punto-banco", "nine-and-nines"))
def test_the_verification_simulation_shows_its_rounds_seed_and_every_wager(report, game_id):
    """Every wager under every paytable is simulated and agrees; the PDF says how many rounds
    were dealt (at least those asked for: here the tests' EXACT_REPORT_ROUNDS) and the seed."""
    from exact.games import get_game

    data = _data(report, game_id)
    simulation = data["simulation"]
    bets = game_bets(get_game(game_id))
    assert [(r["bet"], r["paytable"]) for r in simulation["rows"]] == [
        (b.name, p) for b in bets for p in b.paytables]
    assert simulation["all_agree"] and not simulation["not_simulated"]
    asked = int(os.environ[verification.ROUNDS_VARIABLE])
    assert simulation["asked"] == grouped(asked)
    assert int(simulation["rounds"].replace(",", "")) >= asked
    text = " ".join(_text(report(game_id)).split())
    assert f"{simulation['rounds']} rounds ({simulation['asked']} asked" in text
    assert f"seed {simulation['seed']}" in text
    depletion = data["depletion"]
    assert len(depletion["rows"]) == len(bets) and len(depletion["depths"]) == 8
    assert sum(int(n.replace(",", "")) for n in depletion["rounds_by_depth"]) == int(
        simulation["rounds"].replace(",", ""))


@pytest.mark.parametrize("game_id", per_report())
def test_the_build_leaves_the_users_files_in_the_output_and_data_folders(report, game_id):
    """`python -m exact.reports --out DIR` used to empty DIR/<game> and replace DIR/<game>.xlsx:
    a user's files beside the report and in its data folder survive the build."""
    pdf = report(game_id)
    assert (pdf.parent / "notes.txt").read_text() == "the user's\n"
    assert (pdf.parent / game_id / "notes.txt").read_text() == "the user's\n"
    from exact.reports.build import MANIFEST

    manifest = json.loads((pdf.parent / game_id / MANIFEST).read_text())
    assert "data.json" in manifest and "notes.txt" not in manifest


@pytest.mark.parametrize("game_id", per_report())
def test_a_par_sheet_lies_beside_each_pdf(report, game_id):
    openpyxl = require_module("openpyxl")
    book = openpyxl.load_workbook(report(game_id).with_suffix(".xlsx"), data_only=True)
    assert book.sheetnames[0] == "Summary" and len(book.sheetnames) > 1


@pytest.mark.parametrize("game_id", per_report("punto-banco"))
def test_the_punto_banco_par_sheet_has_a_sheet_per_paytable(report, game_id, punto_banco):
    openpyxl = require_module("openpyxl")
    book = openpyxl.load_workbook(report(game_id).with_suffix(".xlsx"), data_only=True)
    bets = game_bets(punto_banco)
    assert len(book.sheetnames) == 1 + sum(len(b.paytables) for b in bets)
    banker = analyze(punto_banco, Shoe.standard(8), [bets[0]]).bets["banker"].table()
    assert book["Summary"]["K7"].value == str(banker.house_edge)
    assert book["Summary"]["D7"].value == pytest.approx(float(banker.house_edge), rel=1e-12)


INVISIBLE = "\u200b\u200c\u200d\u2060\u00ad\ufeff"  # zero-width, joiners, soft hyphen, BOM


@pytest.mark.parametrize("game_id", per_report())
def test_numbers_copy_out_of_every_report_as_plain_text(report, game_id):
    """No invisible character anywhere in a report's text (so none inside a number), and
    long exact figures come out as their plain digits."""
    import re

    text = _text(report(game_id))
    found = sorted({f"U+{ord(c):04X}" for c in text if c in INVISIBLE})
    assert not found, found
    assert re.search(r"\d{12,}/\d{12,}", text)  # some exact fraction, whole
    if game_id == "century21":
        assert "1149375068384/87616138805055" in text  # House Way's house edge


def _exact_figures(data: object, key: str = "") -> set[str]:
    """Every exact fraction the report's data holds under a key naming it exact (house edges,
    means, variances, edges of strategies...)."""
    import re

    if isinstance(data, dict):
        return {f for k, v in data.items() for f in _exact_figures(v, k)}
    if isinstance(data, list):
        return {f for v in data for f in _exact_figures(v, key)}
    if isinstance(data, str) and key.endswith("exact") and re.fullmatch(r"-?\d+/\d+", data):
        return {data}
    return set()


@pytest.mark.parametrize("game_id", per_report())
def test_every_exact_figure_of_every_report_copies_out_as_its_plain_digits(report, game_id):
    """Each exact figure of a report's data is found in the PDF's text as the very digits (a
    figure too long for its column may break after its "/", where a reader expects it)."""
    figures = _exact_figures(_data(report, game_id))
    assert len(figures) >= 10
    text = _text(report(game_id)).replace("/\n", "/")
    missing = sorted(f for f in figures if f not in text)
    assert not missing, missing[:3]


@pytest.mark.parametrize("game_id", per_report("punto-banco"))
def test_cover_hashes_the_rule_and_bet_files(report, game_id, punto_banco):
    text = _text(report(game_id))
    for path in punto_banco.bet_files:
        assert hashlib.sha256(path.read_bytes()).hexdigest() in text


def test_date_comes_from_source_date_epoch(monkeypatch, tmp_path):
    from exact.reports.cover import build_epoch

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    assert build_epoch() == 86400
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(ReportError):
        build_epoch()


def test_unknown_game_is_a_typed_error_and_exit_status_2(tmp_path):
    with pytest.raises(ReportError):
        build_report("no-such-game", tmp_path)
    done = subprocess.run([sys.executable, "-m", "exact.reports", "no-such-game", "--out",
                           str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not list(tmp_path.glob("*.pdf"))


@pytest.mark.parametrize("text", ["[[figure]]\nwhat = 'nonsense'\nvalue = 1\n",
                                  "[[figure]]\nwhat = 'count'\nbet = 'nobet'\nvalue = 1\n",
                                  "[[figure\n"])
def test_malformed_published_figures_are_typed_errors(punto_banco, tmp_path, text):
    path = tmp_path / "figures.toml"
    path.write_text(text)
    with pytest.raises(ReportError):
        published_checks(punto_banco, game_bets(punto_banco), path)


def test_a_wrong_published_figure_is_reported_as_disagreeing(punto_banco, tmp_path):
    path = tmp_path / "figures.toml"
    path.write_text("[[figure]]\nwhat = 'count'\nbet = 'tie'\nevent = 'Tie'\ndecks = 1\n"
                    "value = 1372227329\n[[figure]]\nwhat = 'house_edge'\nbet = 'tie'\n"
                    "decks = 1\nvalue = '15.7461'\n")
    rows = published_checks(punto_banco, game_bets(punto_banco), path)["rows"]
    assert [row["agrees"] for row in rows] == [False, True]


# --- statistics helpers of the reports ------------------------------------------------------
@given(mean=st.fractions(min_value=-1, max_value=1, max_denominator=1000),
       variance=st.fractions(min_value=Fraction(1, 1000), max_value=100, max_denominator=1000),
       rounds=st.integers(1, 10**8))
def test_result_intervals_are_nested_and_shrink_like_one_over_root_n(mean, variance, rounds):
    widths = []
    for level in (0.90, 0.95, 0.99):
        low, high = result_interval(mean, variance, rounds, level)
        assert low < float(mean) < high
        widths.append(high - low)
    assert widths == sorted(widths)
    low, high = result_interval(mean, variance, 4 * rounds, 0.95)
    assert (high - low) == pytest.approx(widths[1] / 2)
    assert volatility_index(variance) == pytest.approx(
        normal_quantile(0.9) * float(variance) ** 0.5)


def test_interval_covers_a_seeded_simulation_as_often_as_stated():
    import random

    generator = random.Random(6)
    mean, variance, rounds = Fraction(-1, 37), 1 - Fraction(1, 37) ** 2, 400
    inside = 0
    for _ in range(2000):  # even-money bet with win probability 18/37
        net = sum(1 if generator.random() < 18 / 37 else -1 for _ in range(rounds))
        low, high = result_interval(mean, variance, rounds, 0.95)
        inside += low <= net / rounds <= high
    assert 0.93 <= inside / 2000 <= 0.97


def test_context_defaults_to_this_checkout(tmp_path):
    from exact.reports import TEMPLATES, template_path

    assert (TEMPLATES / "lib.typ").is_file() and template_path("punto-banco").is_file()


def mini_report(folder: Path) -> Path:
    """What a new game's report gets with nothing but the required parameters (no published
    figures, no reference implementation, no worked examples), built into ``folder``: its data,
    charts and par sheet in ``folder/build``, the PDF ``folder/mini.pdf``. The main bets only:
    every section is laid out, at a tenth of the charting time of all the side bets."""
    import shutil

    from exact.games.baccarat.coup import DATA, PuntoBanco
    from exact.reports import TEMPLATES
    from exact.reports.sections import standard_report_data

    punto_banco = PuntoBanco(bet_files=(DATA / "bets.toml",))
    work = folder / "build"
    work.mkdir(parents=True)
    data = standard_report_data(punto_banco, Context(work), decks=2,
                                rule_set=("standard", "Standard"))
    (work / "data.json").write_text(json.dumps(data))
    shutil.copy(TEMPLATES / "lib.typ", folder / "lib.typ")
    (folder / "mini.typ").write_text(
        '#import "lib.typ": *\n#let data = json("/build/data.json")\n'
        '#standard-report(data, "/build", title: "Mini")\n')
    pdf = typst.compile(str(folder / "mini.typ"), root=str(folder), ignore_system_fonts=True,
                        sys_inputs={"date": "2026-1-2"})
    (folder / "mini.pdf").write_bytes(pdf)
    return folder / "mini.pdf"


@pytest.fixture(scope="module")
def minis(tmp_path_factory):
    """The mini report built twice: here, and at the same time in a second process with another
    string hash seed (so set and dict orders differ), for the reproducibility test."""
    here, there = tmp_path_factory.mktemp("mini"), tmp_path_factory.mktemp("mini-again")
    script = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
              "from tests.reports.test_reports import mini_report; mini_report(Path(sys.argv[2]))")
    environment = {**os.environ, "PYTHONHASHSEED": "12345"}
    second = subprocess.Popen([sys.executable, "-c", script, str(Path(__file__).parents[1]),
                               str(there)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=environment, cwd=Path(__file__).parents[2])
    try:
        first = mini_report(here)
    except BaseException:
        second.kill()  # the first build's error is the one to see
        raise
    finally:
        _output, errors = second.communicate(timeout=600)
    assert second.returncode == 0, errors
    return first, there / "mini.pdf"


def test_standard_report_lays_out_without_the_optional_sections(minis):
    pdf = minis[0]
    data = json.loads((pdf.parent / "build" / "data.json").read_text())
    assert not {"published", "brute_force", "simulation"} & set(data)
    text = _text(pdf)
    assert "Verification" in text and "Published figures" not in text
    assert "Signs." in text  # the sign convention, said once (issue 27)
    assert data["removal"]["sign_convention"].startswith("house edge: positive favours the house")
    from exact.games.baccarat.coup import DATA, PuntoBanco

    punto_banco = PuntoBanco(bet_files=(DATA / "bets.toml",))
    assert grouped(analyze(punto_banco, Shoe.standard(2)).total) in text


def test_reading_without_paths_reads_the_same_text(minis):
    """The mini report's chart pages give pypdf the same text with their path operators
    taken out as with them (_text reads the reports so; it reads smaller pages whole)."""
    pages = pypdf.PdfReader(str(minis[0])).pages
    # the chart pages: the most drawing (their text is text, so they are no longer the
    # megabytes of outlines that made the pass worth it, but a table's rules are paths too)
    charts = sorted(pages, key=lambda page: -len(page.get_contents().get_data()))[:3]
    for page in charts:
        whole = page.extract_text()
        assert _page_text(page, worth_dropping=0) == whole and whole.strip()


def _same_files(first: Path, second: Path) -> list[str]:
    """The files of ``first`` (a folder, recursively), each found with the same bytes in
    ``second``; returns their relative names."""
    names = sorted(str(path.relative_to(first)) for path in first.rglob("*") if path.is_file())
    for name in names:
        assert (second / name).read_bytes() == (first / name).read_bytes(), name
    return names


def test_building_the_mini_report_twice_gives_identical_bytes(minis):
    """Data, charts, par sheet and PDF of the standard report, the same bytes when built in
    another process with another hash seed (the cheap form of the slow whole-build test)."""
    first, second = minis
    names = _same_files(first.parent, second.parent)
    assert {"mini.pdf", "build/data.json", f"build/{REPORT_WORKBOOK}"} <= set(names)
    assert sum(name.endswith(".svg") for name in names) >= 3


@pytest.mark.parametrize("game_id", per_report())
def test_every_built_report_compiles_again_to_the_same_bytes(report, game_id, monkeypatch,
                                                             tmp_path):
    """The build's own Typst step, run again on each built report's data and charts (copied,
    so no number is recomputed), gives the same PDF: the typesetting adds no varying bytes."""
    import shutil

    from exact.reports import build

    pdf = report(game_id)

    def copied_data(config, work_dir):
        shutil.copytree(pdf.parent / game_id, work_dir, dirs_exist_ok=True)
        (work_dir / build.MANIFEST).unlink()
        return json.loads((work_dir / "data.json").read_text())

    # the reproduction command names the first build's files (it rebuilds that one)
    built = json.loads((pdf.parent / game_id / "data.json").read_text())["reproduction"]
    monkeypatch.setattr(build, "report_data", copied_data)
    monkeypatch.setattr(build, "reproduction", lambda *arguments: built)
    again = build.build_shipped(game_id, tmp_path)
    assert again.read_bytes() == pdf.read_bytes()


@pytest.mark.slow
def test_building_twice_gives_identical_bytes(tmp_path):
    """Every report built by the command line twice, in two folders, by the same command
    (which each report prints): PDFs, par sheets and charts are the same bytes (`make test`
    checks the mini report so, and compiles every built report again)."""
    for folder in ("first", "second"):
        (tmp_path / folder).mkdir()
        done = subprocess.run([sys.executable, "-m", "exact.reports", "--out", "build"],
                              capture_output=True, text=True, timeout=1800,
                              cwd=tmp_path / folder)
        assert done.returncode == 0, done.stderr
    names = _same_files(tmp_path / "first" / "build", tmp_path / "second" / "build")
    for game_id in REPORTS:
        assert {f"{game_id}.pdf", f"{game_id}.xlsx", f"{game_id}/data.json"} <= set(names)
        assert any(name.startswith(f"{game_id}/") and name.endswith(".svg") for name in names)


SIDE_BET = """
[[bet]]
id = "dragon-7"
name = "Dragon 7"
paytable = "40-to-1"
  [[bet.event]]
  name = "Banker wins with a three-card 7"
  when = "winner == 'banker' and banker_total == 7 and banker_cards == 3"
  pays = 40
"""


def test_report_data_grows_with_every_bet_the_game_ships(tmp_path):
    """A side bet added as a bet file appears in every section without touching the report."""
    from exact.games.baccarat.coup import DATA, PuntoBanco
    from exact.games.baccarat.dealer import PuntoBancoDealer
    from exact.reports.sections import standard_report_data

    side = tmp_path / "side.toml"
    side.write_text(SIDE_BET)
    game = PuntoBanco(bet_files=(DATA / "bets.toml", side))
    (tmp_path / "build").mkdir()
    context = Context(tmp_path / "build", rounds=20_000)
    data = standard_report_data(game, context, decks=8, rule_set=("standard", "Standard"),
                                verify=verification.for_context(context, PuntoBancoDealer, 7,
                                                                game.id))
    assert [b["id"] for b in data["bets"]][-1] == "dragon-7"
    assert data["summary"][-1]["bet"] == "Dragon 7"
    # published: Dragon 7 at 40 to 1 has a house edge of 7.6113% (8 decks)
    dragon_7 = PUNTO_BANCO.value("house_edge", bet="dragon-7")
    assert data["summary"][-1]["house_edge"] == f"{dragon_7}%"
    assert "Dragon 7" in data["removal"]["tables"][0]["bets"]
    assert any(row["bet"] == "Dragon 7 (40-to-1)" for row in data["depletion"]["rows"])
    assert any(row["bet"] == "Dragon 7" for row in data["simulation"]["rows"])
    assert data["simulation"]["asked"] == "20,000"


def test_the_verification_simulation_deals_the_rounds_it_says(monkeypatch):
    """10^8 rounds unless told (the tests tell it fewer through EXACT_REPORT_ROUNDS); a bad
    number is one error naming the variable."""
    from exact.analysis.verification import ROUNDS

    monkeypatch.delenv(verification.ROUNDS_VARIABLE, raising=False)
    assert verification.setting(None, verification.ROUNDS_VARIABLE, ROUNDS,
                                "simulated-rounds") == ROUNDS == 10**8
    monkeypatch.setenv(verification.ROUNDS_VARIABLE, "5000")
    assert verification.setting(None, verification.ROUNDS_VARIABLE, ROUNDS,
                                "simulated-rounds") == 5000
    assert verification.setting(7, verification.ROUNDS_VARIABLE, ROUNDS,
                                "simulated-rounds") == 7
    monkeypatch.setenv(verification.ROUNDS_VARIABLE, "lots")
    with pytest.raises(ReportError, match="EXACT_REPORT_ROUNDS"):
        verification.setting(None, verification.ROUNDS_VARIABLE, ROUNDS, "simulated-rounds")


# --- the other games' reports ---------------------------------------------------------------
@pytest.mark.parametrize("game_id", per_report("punto-banco", "nine-and-nines"))
def test_the_countability_section_covers_every_wager(report, game_id):
    """Every wager of the report with its count and conclusion, the shoes (the tests' few)
    stated; its figures are `exact simulate`'s (tests/reports/test_countability.py)."""
    from exact.games import get_game

    data = _data(report, game_id)["countability"]
    assert data["simulated"] and data["shoes"] == os.environ[countability.SHOES_VARIABLE]
    assert [row["id"] for row in data["rows"]] == [b.id for b in game_bets(get_game(game_id))]
    text = " ".join(_text(report(game_id)).split())
    assert "Countability" in text and f"{data['shoes']} shoes" in text
    for row in data["rows"]:
        assert row["verdict"] in ("countable", "not-shown", "losing", "no-trigger",
                                  "never-triggered")
        assert " ".join(row["conclusion"].split())[:60] in text


def _data(report, game_id: str) -> dict:
    return json.loads((report(game_id).parent / game_id / "data.json").read_text())


@pytest.mark.parametrize("game_id", per_report("nine-and-nines"))
def test_nine_and_nines_numbers_read_back_from_the_pdf(report, game_id):
    from exact.games import get_game

    game = get_game(game_id)
    text = _text(report(game_id))
    plain = text
    result = analyze(game, Shoe.standard(8), [b for b in game_bets(game)
                                              if b.id in ("nine-player", "nines")])
    nine, nines = result.bets["nine-player"].table(), result.bets["nines"].table()
    published = NINE_AND_NINES.value("house_edge_exact", bet="nine-player")  # issue 4's figure
    assert nine.house_edge == Fraction(published)
    assert published in plain and percent(nine.house_edge) in text
    assert percent(nines.house_edge) in text and str(nines.house_edge) in plain
    assert grouped(result.total) in text
    assert "ILLUSTRATIVE" in text and "DISAGREES" not in text
    data = _data(report, game_id)
    assert data["published"]["all_agree"] and data["side_checks"]["all_agree"]
    assert data["brute_force"]["all_agree"] and data["simulation"]["all_agree"]
    # the designer's solved pay really gives the target edge, and is in the PDF
    from exact.analysis.designer import EdgeModel

    design = next(d for d in data["designer"] if d["bet"] == "NINES")
    model = EdgeModel.of(result.bets["nines"])
    assert model.edge({design["tier"]: Fraction(design["exact_pays"])}) == Fraction(
        design["target"])
    assert design["exact_pays"] in plain


@pytest.mark.parametrize("game_id", per_report("century21"))
def test_century21_numbers_read_back_from_the_pdf(report, game_id):
    from exact.games.century21.game import DEFAULT_RULES, game_table
    from exact.games.century21.rules import DATA
    from exact.games.century21.solve import equilibrium

    text = _text(report(game_id))
    plain = text
    table = game_table(DEFAULT_RULES, Shoe.standard(8, jokers=8))
    house = table.evaluate(*table.house_way())
    assert house.total == 424 * 423 * 422 * 421 * 420 * 419
    assert grouped(house.total) in text
    # the headline figures are house edges: minus the player's expected result per unit bet
    assert percent(-house.edge, 4, True) in text and str(-house.edge) in plain
    assert "Player's edge" not in text and "player's edge" not in text
    value = equilibrium(table).value
    assert percent(-value, 4, True) in text and str(-value) in plain
    with_fee = house.edge_with_collection(10, 1)
    assert percent(-with_fee, 4, True) in text
    assert "DISAGREES" not in text
    data = _data(report, game_id)
    assert data["summary"][0]["house_edge_exact"] == str(-house.edge)
    checks = data["verification"]
    assert all(row["agrees"] for row in checks["sums"])
    assert checks["equilibrium"]["agrees"]
    assert checks["brute_force"]["all_agree"] and checks["simulation"]["agrees"]
    # the simulation the report shows: the hands asked for (the tests' 200,000), its seed, the
    # exact house edge it is set against
    simulation = checks["simulation"]
    asked = int(os.environ[verification.ROUNDS_VARIABLE])
    assert simulation["rounds"] == grouped(asked) and f"{grouped(asked)} House Way hands" in text
    assert simulation["exact_fraction"] == str(-house.edge) and simulation["seed"] in text
    # the cover hashes the rule file
    assert hashlib.sha256((DATA / "rules.toml").read_bytes()).hexdigest() in text


@pytest.mark.parametrize("game_id", per_report("century21"))
def test_century21_report_house_edge_is_the_analyze_commands(report, game_id):
    """One sign convention (issue 27): the report's House Way house edge is the very figure
    ``exact analyze century21 --json`` prints as ``house_edge``, and the report says how it
    signs."""
    done = subprocess.run([sys.executable, "-m", "exact", "analyze", "century21", "--json"],
                          capture_output=True, text=True, timeout=600, check=True)
    analyzed = json.loads(done.stdout)
    data = _data(report, game_id)
    house = next(row for row in data["summary"] if row["id"] == "house")
    assert house["house_edge_exact"] == analyzed["house_edge"]
    assert Fraction(house["house_edge_exact"]) > 0  # the player loses to House Way
    assert data["returns"][0]["house_edge_exact"] == analyzed["house_edge"]
    assert data["sign_convention"] == analyzed["sign_convention"]
    assert analyzed["sign_convention"].split(";")[0] in _text(report(game_id))


def _century21_house_way():
    from exact.games.century21.game import DEFAULT_RULES, game_table

    table = game_table(DEFAULT_RULES, Shoe.standard(8, jokers=8))
    return DEFAULT_RULES, table.evaluate(*table.house_way())


def test_century21_verification_sees_a_planted_wrong_pay(tmp_path):
    """The report's simulation of a game whose pays are planted wrong (a win paying 21 to 20,
    a two-card 9 beating a three-card 9) against the shipped exact edge: "disagrees"; the
    shipped game's own: "agrees"."""
    import dataclasses

    from exact.games.century21 import report as century21

    rules, house = _century21_house_way()
    shipped = century21.house_way_rules(rules)
    # the rule file's options reach the dealer, and its defaults are that file's
    from exact.games.century21.dealer import HouseWayRules
    assert shipped == HouseWayRules()
    assert century21.house_way_rules(rules.replace(natural_pays=Fraction(3))) == \
        HouseWayRules(natural_pays=Fraction(3))
    context = Context(tmp_path, rounds=2_000_000)
    assert century21.simulation(shipped, house, context)["agrees"]
    for planted in (dataclasses.replace(shipped, win_pays=Fraction(21, 20)),
                    dataclasses.replace(shipped, three_card_nine_pushes_two_card_nine=False)):
        found = century21.simulation(planted, house, context)
        assert not found["agrees"] and abs(float(found["z"])) > 4, planted


def test_century21_verification_deals_10_to_the_8_hands_unless_told(monkeypatch, tmp_path):
    """The default is the issue's 10^8 hands (the tests ask for fewer through
    EXACT_REPORT_ROUNDS), and the workers are the reports' setting."""
    from exact.games.century21 import dealer as century21_dealer
    from exact.games.century21 import report as century21

    asked = []
    real = century21_dealer.simulate

    def spy(rules, hands, seed, *, workers=1):
        asked.append((hands, workers))
        return real(rules, 1000, seed, workers=1)

    monkeypatch.setattr(century21_dealer, "simulate", spy)
    monkeypatch.delenv(verification.ROUNDS_VARIABLE, raising=False)
    monkeypatch.setenv(verification.WORKERS_VARIABLE, "1")
    rules, house = _century21_house_way()
    century21.simulation(century21.house_way_rules(rules), house, Context(tmp_path))
    assert asked == [(10**8, 1)]
    monkeypatch.setenv(verification.ROUNDS_VARIABLE, "not a number")
    with pytest.raises(ReportError, match="EXACT_REPORT_ROUNDS"):
        century21.simulation(century21.house_way_rules(rules), house, Context(tmp_path))


@pytest.mark.parametrize("game_id", per_report("century21"))
def test_century21_strategy_map_is_a_labelled_chart(report, game_id):
    svg = report(game_id).parent / game_id / "strategy-map.svg"
    assert svg.is_file() and svg.stat().st_size > 5_000
    text = _text(report(game_id))
    assert "Strategy map" in text and "House Way" in text and "Equilibrium" in text


# --- charts that fit, numbers that copy, intervals inside the possible range (issue 27) -------
def _pdftotext(pdf: Path) -> str:
    """The PDF's text as poppler's pdftotext reads it (what a reader's copy gives), or as
    pypdf reads it where poppler is not installed."""
    import shutil

    if shutil.which("pdftotext") is None:
        return _text(pdf)
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                          text=True, timeout=300, check=True)
    return done.stdout


def test_the_charts_page_is_the_templates():
    """The text area the charts are sized for is the one lib.typ sets."""
    from exact.reports import TEMPLATES, charts

    setup = re.search(r'set page\(paper: "a4", margin: \(x: (\d+)mm, top: (\d+)mm, '
                      r"bottom: (\d+)mm\)", (TEMPLATES / "lib.typ").read_text())
    assert setup, "lib.typ's page setup changed: update exact/reports/charts.py"
    margins = {"x": int(setup[1]), "top": int(setup[2]), "bottom": int(setup[3])}
    assert margins == charts.MARGIN_MM
    assert charts.PAGE_MM == (210, 297)  # A4, as the regular expression demands


def _svg_size(path: Path) -> tuple[float, float]:
    head = path.read_text()[:2000]
    width = re.search(r'<svg[^>]*\swidth="([\d.]+)pt"', head)
    height = re.search(r'<svg[^>]*\sheight="([\d.]+)pt"', head)
    assert width and height, path
    return float(width[1]), float(height[1])


def _chart_names(data: object) -> list[str]:
    """Every chart file the report's data names (``chart`` and ``charts`` keys)."""
    if isinstance(data, dict):
        names = []
        for key, value in data.items():
            if key in ("chart", "strategy_map") and isinstance(value, str):
                names.append(value)
            elif key == "charts":
                names += value
            else:
                names += _chart_names(value)
        return names
    if isinstance(data, list):
        return [name for value in data for name in _chart_names(value)]
    return []


@pytest.mark.parametrize("game_id", per_report())
def test_no_chart_is_taller_than_the_text_area(report, game_id):
    """Each chart, placed at the text's width as the templates place it, fits the page's text
    area with room for its caption; every SVG of the data folder is one the report shows."""
    from exact.reports import charts

    folder = report(game_id).parent / game_id
    names = _chart_names(_data(report, game_id))
    assert sorted(names) == sorted(p.name for p in folder.glob("*.svg"))
    text_width, text_height = charts.TEXT_WIDTH * 72, charts.TEXT_HEIGHT * 72
    for name in names:
        width, height = _svg_size(folder / name)
        shown = height * text_width / width  # image(..., width: 100%)
        assert shown <= charts.MAX_HEIGHT * 72 + 0.5 < text_height, (name, shown)


@pytest.mark.parametrize("game_id", per_report())
def test_every_chart_text_is_text_in_the_pdf(report, game_id):
    """Chart text is SVG text, not outlines, and every piece of it (panel titles, legends,
    axis labels, ticks) is found in the PDF's text."""
    import html

    folder = report(game_id).parent / game_id
    text = " ".join(_pdftotext(report(game_id)).split())
    titles = 0
    for svg in sorted(folder.glob("*.svg")):
        content = svg.read_text()
        pieces = [html.unescape(t) for t in re.findall(r"<text\b[^>]*>([^<]+)</text>", content)]
        assert pieces, svg.name
        missing = sorted({p for p in pieces if " ".join(p.split()) not in text})
        assert not missing, (svg.name, missing[:5])
        titles += sum("font-size: 7.5px" in line for line in content.splitlines())
    assert titles >= 3


BAD_CHARACTERS = ("\u2212\u00ad\ufeff" + "".join(map(chr, range(0x200B, 0x2010)))
                  + "".join(map(chr, range(0x2060, 0x2065))))


@pytest.mark.parametrize("game_id", per_report())
def test_every_negative_number_copies_out_as_ascii(report, game_id):
    """No typographic minus, no invisible character anywhere in the text, and every negative
    decimal (plain or in e-notation) is a token float() reads."""
    text = _pdftotext(report(game_id))
    found = sorted({f"U+{ord(c):04X}" for c in text if c in BAD_CHARACTERS})
    assert not found, found
    negatives = re.findall(r"(?<![\w.])-[\d.,]*\d(?:e[-+]\d+)?%?", text)
    assert len(negatives) > 50
    for token in negatives:
        float(token.rstrip("%").replace(",", ""))
    assert not re.search(r"\d×10|10[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]", text)


@pytest.mark.parametrize("game_id", per_report())
def test_every_printed_interval_lies_in_the_possible_range(report, game_id):
    """Each statistics interval lies between the lowest and the highest pay, names one of the
    three methods, and the methods are explained in the PDF."""
    statistics = _data(report, game_id)["statistics"]
    text = " ".join(_pdftotext(report(game_id)).split())
    for method in statistics["methods"].values():
        assert method in text
    for bet in statistics["bets"]:
        lowest = float(bet["lowest"].rstrip("%")) / 100
        highest = float(bet["highest"].rstrip("%")) / 100
        for row in bet["intervals"]:
            assert row["method"] in ("exact", "normal", "chernoff")
            for low, high in row["bounds"]:
                assert lowest - 1e-12 <= low <= high <= highest + 1e-12, (bet, row)
            for cell in row["cells"]:  # as printed, in percent
                printed = re.fullmatch(r"([-+][\d.]+)% to ([-+][\d.]+)%", cell)
                assert printed, cell
                assert lowest * 100 <= float(printed[1]) <= float(printed[2]) <= highest * 100
                assert cell in text


@pytest.mark.parametrize("game_id", per_report("nine-and-nines"))
def test_nines_after_1000_rounds_cannot_lose_more_than_the_stakes(report, game_id):
    """Issue 27's example: the NINES interval after 1,000 rounds was -227.8% ... +201.9%."""
    bet = next(b for b in _data(report, game_id)["statistics"]["bets"] if b["bet"] == "NINES")
    row = next(r for r in bet["intervals"] if r["rounds"] == "1,000")
    for low, high in row["bounds"]:
        assert -1 <= low <= high <= 30000
    text = _pdftotext(report(game_id))
    for cell in row["cells"]:
        assert cell in text


def test_a_report_on_another_tableau_checks_itself_against_that_tableau(tmp_path):
    """The verification simulation deals the report's own tableau (and says so); the brute
    force, which deals the standard tableau only, is not run, and the report says so."""
    import dataclasses

    from exact.games.baccarat.coup import STANDARD_RULES, PuntoBanco
    from exact.games.punto_banco.report import report_data
    from exact.reports.config import ReportConfig

    rules = dataclasses.replace(STANDARD_RULES, id="stand", name="Nobody draws",
                                player_draws_on=frozenset(),
                                banker_draws_when_player_stands=frozenset())
    game = PuntoBanco(rules=rules)
    bets = tuple(b for b in game_bets(game) if b.id in ("banker", "tie"))
    data = report_data(ReportConfig(game, Shoe.standard(1), bets),
                       Context(tmp_path, rounds=100_000))
    assert data["simulation"]["rule_tableau"] and data["simulation"]["all_agree"]
    assert data["other_tableau"] and "brute_force" not in data and "published" not in data
    standard = report_data(ReportConfig(PuntoBanco(), Shoe.standard(1), bets),
                           Context(tmp_path, rounds=20_000))
    assert "rule_tableau" not in standard["simulation"] and "other_tableau" not in standard
    assert standard["brute_force"]["all_agree"] and "published" in standard
