"""The documentation site (docs/) builds offline with no warning, every cross-reference
checked, and every example in it runs.

The site's ``sh`` commands run against their goldens in ``test_readme_commands.py``; its
Python examples run here: ``pycon`` blocks (``>>>`` sessions) as doctests, ``python`` blocks as
a script per page; and so do the docstrings of the site's own extension. Code a page shows
that a test runs elsewhere (a module of a toy game) is shown whole by ``literalinclude``, from
the file the test runs, so it cannot drift.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tests.support.readme_commands import DOCS, ROOT, copy_examples, documented_pages

PAGES = [page for page in documented_pages() if page.is_relative_to(DOCS)]
SECTIONS = ("tutorials", "how-to", "reference", "explanation", "research", "contributing")


def test_the_site_builds_with_no_warning(tmp_path: Path) -> None:
    """`make docs`' build: warnings are errors (-W), every reference is checked (-n)."""
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-E", "-b", "html",
         str(DOCS), str(tmp_path / "html")],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert build.returncode == 0, build.stderr
    assert not build.stderr.strip(), build.stderr
    for page in PAGES:  # every page is built, and so reached from a table of contents
        built = tmp_path / "html" / page.relative_to(DOCS).with_suffix(".html")
        assert built.is_file(), page
    cli = (tmp_path / "html" / "reference" / "cli.html").read_text(encoding="utf-8")
    for option in ("--decks", "--target-edge", "--removal-set", "--wager", "--submission"):
        assert option in cli, option  # the parser's options, read from the parser


def test_every_section_picks_its_pages_up_by_glob() -> None:
    """A page another engineer adds to a section's folder joins the site with no edit here."""
    for section in SECTIONS:
        index = (DOCS / section / "index.md").read_text(encoding="utf-8")
        toctree = r"```\{toctree\}\n(:[^\n]*\n)*:glob:\n(:[^\n]*\n)*\n\*\n```"
        assert re.search(toctree, index), section


def test_the_readme_links_to_files_that_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#:]+)\)", readme)
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        assert (ROOT / link).exists(), link


def test_every_page_starts_with_its_title() -> None:
    for page in PAGES:
        assert page.read_text(encoding="utf-8").startswith("# "), page


@pytest.mark.parametrize("page", [page for page in PAGES if "```pycon" in page.read_text()],
                         ids=lambda page: str(page.relative_to(DOCS)))
def test_the_python_sessions_of_a_page_run(page: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's ``pycon`` blocks run as one doctest, from a folder holding the example files
    (as the repository's root does)."""
    copy_examples(tmp_path)
    monkeypatch.chdir(tmp_path)
    text = page.read_text(encoding="utf-8")
    session = "\n".join(re.findall(r"```pycon\n(.*?)```", text, flags=re.DOTALL))
    test = doctest.DocTestParser().get_doctest(session, {}, str(page), str(page), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda report: pytest.fail(report, pytrace=False))
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("page", [page for page in PAGES if "```python\n" in page.read_text()],
                         ids=lambda page: str(page.relative_to(DOCS)))
def test_the_python_code_of_a_page_runs(page: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's ``python`` blocks run, in order, as one script, from a folder holding the
    example files (as the repository's root does)."""
    code = "\n".join(re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.DOTALL))
    copy_examples(tmp_path)
    monkeypatch.chdir(tmp_path)
    # a module of its own, registered while it runs: a dataclass defined on a page looks its
    # module up in sys.modules
    module = types.ModuleType("__docs__")
    monkeypatch.setitem(sys.modules, "__docs__", module)
    exec(compile(code, str(page), "exec"), module.__dict__)


def test_the_extension_docstrings_run() -> None:
    spec = importlib.util.spec_from_file_location("exact_docs", DOCS / "_ext" / "exact_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failed, attempted = doctest.testmod(module)
    assert attempted and not failed
