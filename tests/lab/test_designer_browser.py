"""The paytable designer in a real browser (`make test-browser`): `make lab` is started as the
README says (as root too, on 127.0.0.1 with a token), Debian's Chromium driven by Playwright
opens analyses/designer.py by a plain link (so it must open as a notebook, not as its Python
source), runs every cell, moves a pay with the keyboard and sees the exact edge change to the
library's figure for the new pay; then saves the design and reads it back with the command line.

Run only when EXACT_BROWSER_TESTS=1 (`make test-browser` sets it): it needs /usr/bin/chromium
and takes a minute. Asked for and unable to run, it fails; it never skips silently then.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
# Chromium's background services reach for the network, which is closed here (env notes)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]

pytestmark = pytest.mark.skipif(os.environ.get("EXACT_BROWSER_TESTS") != "1",
                                reason="browser test: make test-browser")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """`make lab` on a free port; yields (base URL, token, folder the designer saves into)."""
    assert Path(CHROMIUM).is_file(), "make test-browser needs Debian's chromium"
    home = tmp_path_factory.mktemp("lab")
    port, token = _free_port(), secrets.token_hex(16)
    args = (f"--no-browser --ip=127.0.0.1 --port={port} --IdentityProvider.token={token} "
            "--ServerApp.open_browser=False")
    env = {**os.environ, "EXACT_DESIGNS": str(home / "designs"),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    log = (home / "lab.log").open("w")
    served = home / "analyses"  # a copy: JupyterLab saves what it opened
    shutil.copytree(ROOT / "analyses", served)
    server = subprocess.Popen(["make", "--no-print-directory", "lab", f"LAB_ARGS={args}",
                               f"LAB_DIR={served}"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("make lab did not start: "
                                + (home / "lab.log").read_text()[-2000:], pytrace=False)
                time.sleep(0.5)
        yield base, token, home / "designs"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


def _edge(text: str) -> Fraction:
    """The exact house edge the readout shows (``House edge 2.6517% = 103.../390...``)."""
    found = re.search(r"House edge\s+\S+%\s*=\s*(-?\d+(?:/\d+)?)", text)
    assert found, text
    return Fraction(found.group(1))


def test_the_designer_opens_runs_and_moves_the_edge(lab, tmp_path):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect, sync_playwright

    base, token, designs = lab
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{base}/lab/tree/designer.py?token={token}")
            # a double-click's viewer: the jupytext notebook, not the text editor
            notebook = page.locator(".jp-NotebookPanel")
            expect(notebook).to_be_visible(timeout=90_000)
            expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible(timeout=30_000)
            page.locator(".jp-NotebookPanel-toolbar").wait_for(timeout=30_000)
            # Jupytext's notebook viewer asks for the kernel once, the preferred one chosen
            choose = page.get_by_role("button", name="Select", exact=True)
            with contextlib.suppress(PlaywrightTimeout):
                choose.click(timeout=15_000)
            expect(page.get_by_text("Python 3 (ipykernel) | Idle")).to_be_visible(
                timeout=60_000)
            page.get_by_text("Run", exact=True).first.click()
            page.get_by_text("Run All Cells", exact=True).click()
            readout = page.locator(".widget-html-content", has_text="House edge").first
            try:
                expect(readout).to_be_visible(timeout=120_000)
            finally:
                page.screenshot(path=str(tmp_path / "ran.png"), full_page=True)
            header = page.locator(".widget-html-content", has_text="[dragon-bonus-player]").first
            expect(header).to_contain_text("paytable 30-10-6-4-2-1")
            before = _edge(readout.inner_text())
            # the top tier's slider (Natural win, 1 to 1): three steps up with the keyboard
            handle = page.locator(".widget-slider .noUi-handle").first
            handle.focus()
            for _ in range(3):
                handle.press("ArrowRight")
            # three steps of 1/20 from 1 to 1: the header and the readout follow the last
            expect(header).to_contain_text("paytable designed, from 30-10-6-4-2-1 with "
                                           "Natural win 23/20 to 1", timeout=30_000)
            after = _edge(readout.inner_text())
            assert after < before  # a higher pay, a lower house edge
            page.screenshot(path=str(tmp_path / "designer.png"), full_page=True)
            # save it where the test can read it, then read it back with the command line
            name = page.locator(".widget-text", has_text="table file").locator("input")
            saved = designs / "from-the-browser.toml"
            designs.mkdir(parents=True, exist_ok=True)
            name.fill(str(saved))
            page.get_by_role("button", name="Save table").first.click()
            expect(page.locator(".widget-html-content", has_text="Wrote").first).to_be_visible(
                timeout=30_000)
        finally:
            browser.close()
    done = subprocess.run([sys.executable, "-m", "exact", "analyze", "punto-banco", "--table",
                           str(saved), "--bet", "dragon-bonus-player", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert Fraction(json.loads(done.stdout)["bets"]["dragon-bonus-player"]["house_edge"]) \
        == after
