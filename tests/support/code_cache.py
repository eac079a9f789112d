"""The disk cache of a test run: one folder per digest of the code that writes entries (see
tests/conftest.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEPT = 3


def code_digest() -> str:
    """A digest of every file of exact/ and tests/ but the goldens (outputs, which write no
    entry), by path and bytes, and of the Python version."""
    digest = hashlib.sha256(sys.version.encode())
    for folder in ("exact", "tests"):
        for path in sorted((ROOT / folder).rglob("*")):
            parts = path.relative_to(ROOT).parts
            if path.is_file() and "__pycache__" not in parts and parts[:2] != ("tests", "golden"):
                digest.update("/".join(parts).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def code_cache() -> str:
    """The folder of this code's entries (made, and marked as the most recent), the
    :data:`KEPT` most recent folders kept and the others removed."""
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "exact-tests"
    mine = home / code_digest()
    mine.mkdir(parents=True, exist_ok=True)
    os.utime(mine)
    others = sorted((p for p in home.iterdir() if p.is_dir() and p != mine),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[KEPT - 1:]:
        shutil.rmtree(old, ignore_errors=True)
    return str(mine)
