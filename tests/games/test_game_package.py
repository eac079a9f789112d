"""A game is one package: the README's Dragon Tiger built as a temporary installed package (its
game, data, assumptions, own ``settle`` and report, and a plugin record), registered by an entry
point of a temporary distribution on ``sys.path`` (a dist-info folder with its
``entry_points.txt``, as pip writes it), and run through the command line with no edit outside
the package; and each game's command-line options come from its plugin alone."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from exact.cli.app import main
from exact.games import game_ids, plugin, refresh

TOY = Path(__file__).parents[1] / "toy_games"

PLUGIN = '''
"""Dragon Tiger's plugin record."""
from pathlib import Path

from dragon_tiger_package.game import DragonTiger
from exact.model.plugins import GamePlugin

HERE = Path(__file__).resolve().parent


def settle(game, args):
    from dragon_tiger_package.settle import settle_command

    return settle_command(game, args)


def report(config, context):
    from exact.reports import sections

    return sections.standard_report_data(config.game, context, decks=8,
                                         rule_set=("standard", "Standard"))


PLUGIN = GamePlugin(game=DragonTiger, data=HERE / "data",
                    assumptions=(HERE / "data" / "assumptions.toml",),
                    commands={"settle": settle}, report=report,
                    template=HERE / "report.typ")
'''
ASSUMPTIONS = '''
[[assumption]]
id = "ranks"
text = "The higher rank wins, ace low and king high; suits do not count."
source = "seed-silent-industry-standard"
why = "As every casino deals Dragon Tiger."
'''
TEMPLATE = '#import "lib.typ": *\n#let data = json(sys.inputs.at("data") + "/data.json")\n' \
           '#standard-report(data, sys.inputs.at("data"), title: "Dragon Tiger")\n'


@pytest.fixture
def installed(tmp_path: Path, monkeypatch):
    """The package ``dragon_tiger_package`` in a folder put on ``sys.path`` with the metadata of
    a distribution declaring its entry point; the entry points are read again, and forgotten
    afterwards."""
    site = tmp_path / "site"
    package = site / "dragon_tiger_package"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text('"""Dragon Tiger, as an installed package."""\n')
    game = (TOY / "dragon_tiger.py").read_text(encoding="utf-8")
    # the README's module, unregistered: the entry point is its one door here
    (package / "game.py").write_text(game.replace("from exact.games import register\n", "")
                                     .replace("@register\n", "")
                                     .replace('Path(__file__).with_suffix(".toml")',
                                              'Path(__file__).parent / "data" / "bets.toml"'))
    shutil.copy(TOY / "dragon_tiger.toml", package / "data" / "bets.toml")
    shutil.copy(TOY / "dragon_tiger_settle.py", package / "settle.py")
    (package / "plugin.py").write_text(textwrap.dedent(PLUGIN))
    (package / "data" / "assumptions.toml").write_text(ASSUMPTIONS)
    (package / "report.typ").write_text(TEMPLATE)
    metadata = site / "dragon_tiger_package-0.1.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: dragon-tiger-package\n"
                                       "Version: 0.1\n")
    (metadata / "entry_points.txt").write_text(
        "[exact.games]\ndragon-tiger = dragon_tiger_package.plugin:PLUGIN\n")
    monkeypatch.syspath_prepend(str(site))
    refresh()
    yield package
    from exact.games import unregister

    unregister("dragon-tiger")
    for name in [name for name in sys.modules if name.startswith("dragon_tiger_package")]:
        del sys.modules[name]
    monkeypatch.undo()
    refresh()


def test_the_package_joins_by_its_entry_point_alone(installed, capsys) -> None:
    assert "dragon-tiger" in game_ids()
    assert plugin("dragon-tiger").game.__module__ == "dragon_tiger_package.game"
    assert main(["analyze", "dragon-tiger", "--decks", "8", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["round_cards"] == 2 and set(data["bets"]) == {"dragon", "tiger", "tie"}
    # its own assumptions, from its own data
    assert [item["id"] for item in data["assumptions"]] == ["ranks"]


def test_its_own_settle_runs_and_the_generic_one_is_not_used(installed, capsys) -> None:
    assert main(["settle", "dragon-tiger", "--cards", "KH 7C"]) == 0
    assert capsys.readouterr().out.startswith("Dragon KH, Tiger 7C: dragon\n")


def test_the_generic_settle_shows_the_games_own_stages(installed, capsys) -> None:
    from exact.games import register

    own = plugin("dragon-tiger")
    register(type(own)(own.game, assumptions=own.assumptions))  # the same game, no settle
    assert main(["settle", "dragon-tiger", "--cards", "KH 7C", "--wager", "dragon=10"]) == 0
    out = capsys.readouterr().out
    assert "  Dragon: KH\n  Tiger: 7C\n  Winner: dragon\n" in out
    assert "total" not in out.split("Winner")[0]  # no baccarat hands, no "total None"
    assert "WIN   dragon: won 10; net 10" in out  # and it settles the money, not only the hands
    assert main(["settle", "dragon-tiger", "--cards", "7H 7C", "--wager", "tie=10",
                 "--wager", "tiger=10"]) == 0
    out = capsys.readouterr().out
    assert "Winner: tie" in out and "won 80" in out and "net 70" in out


def test_its_report_is_built(installed, tmp_path: Path) -> None:
    pytest.importorskip("typst")
    from exact.reports import available_reports
    from exact.reports.build import build_report

    assert "dragon-tiger" in available_reports()
    (tmp_path / "out").mkdir()
    pdf = build_report("dragon-tiger", tmp_path / "out" / "dragon-tiger.pdf")
    assert pdf.stat().st_size > 5_000
    assert json.loads((tmp_path / "out" / "dragon-tiger" / "data.json").read_text())


def _help(capsys, *argv: str) -> str:
    assert main([*argv, "--help"]) == 0
    return capsys.readouterr().out


def test_each_game_lists_its_own_options_only(capsys) -> None:
    century21 = _help(capsys, "analyze", "century21")
    assert "century21 (21st Century Baccarat) options" in century21
    assert "--bet-size" in century21 and "--information {total,cards}" in century21
    assert "--commission" not in century21 and "--with-replacement" not in century21
    punto_banco = _help(capsys, "analyze", "punto-banco")
    for flag in ("--strategy", "--information", "--commission", "--bet-size", "--rules"):
        assert flag not in punto_banco, flag
    chemin = _help(capsys, "analyze", "chemin-de-fer")
    assert "chemin-de-fer (Baccara chemin de fer) options" in chemin
    assert "--information {total,banker-cards,cards}" in chemin and "--commission" in chemin
    assert "--bet-size" not in chemin and "century21 (21st" not in chemin
    settle = _help(capsys, "settle", "punto-banco")
    assert "--dealer" not in settle and "--seat" not in settle
    assert "--seat" in _help(capsys, "settle", "century21")


@pytest.mark.parametrize("argv, message", [
    (["analyze", "punto-banco", "--strategy", "best"],
     "--strategy is an option of century21, chemin-de-fer, not of analyze punto-banco"),
    (["analyze", "century21", "--commission", "5%"],
     "--commission is an option of chemin-de-fer, not of analyze century21"),
    (["eor", "punto-banco", "--information", "cards"],
     "--information is an option of century21, not of eor punto-banco"),
])
def test_another_games_option_is_refused_in_one_line(argv, message, capsys) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == f"exact: error: {message}\n"


def test_each_game_takes_its_own_information_values(capsys) -> None:
    assert main(["analyze", "century21", "--information", "banker-cards"]) == 2
    assert "invalid choice 'banker-cards'" in capsys.readouterr().err


def test_an_uninstalled_checkout_reads_the_entry_points_from_its_pyproject(monkeypatch) -> None:
    """With no ``exact`` distribution on the path (a bare clone run with ``python -m exact``),
    the shipped games are the same entry points, read from pyproject.toml."""
    import importlib.metadata
    import tomllib

    from exact.model import plugins

    def missing(name: str):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    monkeypatch.setattr(plugins, "_own_dist_info_entry_points", lambda: None)
    declared = tomllib.loads((Path(plugins.__file__).parents[2] / "pyproject.toml").read_text(
        encoding="utf-8"))["project"]["entry-points"]["exact.games"]
    found = dict(plugins._entry_points(every=False))
    assert found == declared and set(found) == {"punto-banco", "nine-and-nines", "century21",
                                                "chemin-de-fer"}
    for name, value in found.items():  # each names its game's own plugin record
        assert plugins._load(name, value).id == name


def _by_importlib() -> list[tuple[str, str]]:
    from importlib.metadata import distribution

    from exact.model.plugins import DISTRIBUTION, GROUP

    return [(entry.name, entry.value)
            for entry in distribution(DISTRIBUTION).entry_points.select(group=GROUP)]


@pytest.mark.parametrize("where", ["checkout", "elsewhere"])
def test_the_own_entry_points_read_plainly_are_importlib_metadatas(where, tmp_path, monkeypatch
                                                                     ) -> None:
    """The shipped games' entry points read from the toolkit's own metadata folder without
    importing importlib.metadata (a fresh command's 15 ms) are those importlib.metadata
    reads, run from the checkout (its ``exact.egg-info`` first on the path) or elsewhere."""
    from exact.model import plugins

    if where == "elsewhere":
        monkeypatch.chdir(tmp_path)
    plain = plugins._own_dist_info_entry_points()
    assert plain is not None and len(plain) == 4
    assert plain == _by_importlib()


def test_a_metadata_folder_less_plain_is_left_to_importlib_metadata(tmp_path, monkeypatch
                                                                     ) -> None:
    """Two versions side by side, or an entry_points.txt with a line neither a section nor a
    pair: the plain reader gives up (None), and the entry points come from importlib.metadata
    all the same."""
    from exact.model import plugins

    site = tmp_path / "site"
    for version in ("1.0", "2.0"):
        (site / f"exact-{version}.dist-info").mkdir(parents=True)
        (site / f"exact-{version}.dist-info" / "entry_points.txt").write_text(
            "[exact.games]\ntoy = toy:PLUGIN\n")
    monkeypatch.syspath_prepend(str(site))
    assert plugins._own_dist_info_entry_points() is None
    shutil.rmtree(site / "exact-2.0.dist-info")
    assert plugins._own_dist_info_entry_points() == [("toy", "toy:PLUGIN")]
    (site / "exact-1.0.dist-info" / "entry_points.txt").write_text(
        "[exact.games]\ntoy = toy:PLUGIN\n  continued\n")
    assert plugins._group_of("[exact.games]\ntoy = toy:PLUGIN\n  continued\n") is None
    assert plugins._own_dist_info_entry_points() is None
