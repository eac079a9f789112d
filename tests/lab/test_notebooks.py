"""Every notebook of analyses/ runs top to bottom, then its checks (tests/lab/checks/NAME.py,
run in the notebook's kernel as one more cell) hold: the headline numbers against published
figures. The checks live here, not in the notebooks, so that a user who edits a pay meets an
analysis, not an AssertionError. A notebook whose game is not in this checkout stops at its
first cell with GameNotAvailable: that, and only that, is a skip.

The kernel client polls its sockets in short slices. With pyzmq's asyncio sockets a wake-up is
sometimes lost: the kernel has sent a cell's reply within a second, but the client's poll does
not return until its timeout, when a last non-blocking check finds the reply (so the cell
"succeeds" after exactly the cell timeout: the designer notebook, whose widgets send many comm
messages, stalled 120 s of a 120 s timeout in two runs out of five, and once 300 s in CI). A
slice's end makes the same last check, so a lost wake-up costs at most a slice, and a cell
that truly runs too long fails with the notebook's name and the cell, not a silent wait."""

from __future__ import annotations

import ast
import time
from pathlib import Path
from queue import Empty

import pytest

from exact.games import game_ids

from tests.support.optional import require_module

jupytext = require_module("jupytext")
nbclient = require_module("nbclient")
nbformat = require_module("nbformat")
require_module("ipykernel")

from jupyter_client.asynchronous import AsyncKernelClient  # noqa: E402 (after nbclient's check)
from jupyter_client.channels import AsyncZMQSocketChannel  # noqa: E402
from jupyter_client.manager import AsyncKernelManager  # noqa: E402
from traitlets import Type, default  # noqa: E402

CELL_TIMEOUT = 120  # seconds a cell may run (the slowest takes seconds)
POLL_SLICE = 0.25  # seconds: the longest a lost wake-up can delay reading a message


class _SlicedChannel(AsyncZMQSocketChannel):
    """A channel whose wait for a message wakes at least every POLL_SLICE seconds."""

    async def get_msg(self, timeout: float | None = None) -> dict:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = POLL_SLICE if deadline is None else max(0.0, deadline - time.monotonic())
            if await self.socket.poll(int(min(left, POLL_SLICE) * 1000)):
                return await self._recv()
            if deadline is not None and time.monotonic() >= deadline:
                raise Empty


class _SlicedClient(AsyncKernelClient):
    shell_channel_class = Type(_SlicedChannel)
    iopub_channel_class = Type(_SlicedChannel)
    control_channel_class = Type(_SlicedChannel)


class _SlicedKernelManager(AsyncKernelManager):
    @default("client_factory")
    def _sliced_client(self) -> type:
        return _SlicedClient

ANALYSES = Path(__file__).resolve().parents[2] / "analyses"
NOTEBOOKS = sorted(ANALYSES.glob("*.py"))
CHECKS = Path(__file__).resolve().parent / "checks"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_notebook_asserts_and_each_has_its_checks(path):
    asserts = [node.lineno for node in ast.walk(ast.parse(path.read_text()))
               if isinstance(node, ast.Assert)]
    assert not asserts, f"{path.name}: assert on line(s) {asserts}; checks go in {CHECKS}"
    checks = CHECKS / path.name
    assert checks.is_file() and any(isinstance(node, ast.Assert) for node in
                                    ast.walk(ast.parse(checks.read_text()))), checks


def test_there_is_a_notebook_per_game_and_one_on_card_counting():
    names = {path.stem for path in NOTEBOOKS}
    assert {"punto_banco", "nine_and_nines", "century21", "card_counting"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_its_checks_hold(path, tmp_path, monkeypatch):
    text = path.read_text()
    assert "# %%" in text, "notebooks are jupytext percent-format scripts"
    notebook = jupytext.reads(text, fmt="py:percent")
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    notebook.cells.append(nbformat.v4.new_code_cell((CHECKS / path.name).read_text()))
    monkeypatch.setenv("EXACT_DESIGNS", str(tmp_path))  # the designer's saved tables
    client = nbclient.NotebookClient(notebook, timeout=CELL_TIMEOUT, startup_timeout=60,
                                     kernel_name="python3", shutdown_kernel="immediate",
                                     kernel_manager_class=_SlicedKernelManager,
                                     resources={"metadata": {"path": str(ANALYSES)}})
    try:
        client.execute()
    except nbclient.exceptions.CellTimeoutError as error:
        problem = " ".join(str(error).split())
        pytest.fail(f"{path.name}: a cell ran over {CELL_TIMEOUT} s; {problem}", pytrace=False)
    except nbclient.exceptions.CellExecutionError as error:
        missing = [game for game in ("nine-and-nines", "century21") if f'"{game}"' in text
                   and game not in game_ids()]
        if error.ename == "GameNotAvailable" and missing:
            pytest.skip(f"{path.name}: game {missing[0]!r} not in this checkout yet")
        raise
    outputs = [o for cell in notebook.cells if cell.cell_type == "code"
               for o in cell.get("outputs", [])]
    assert any(o.get("output_type") == "display_data" and "image/png" in o.get("data", {})
               for o in outputs), "every notebook draws at least one chart"
