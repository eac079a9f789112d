"""What a run says on standard error besides its one-line refusals: a file written, a
warning, an interruption; said whatever becomes of the stream.

Layer: cli, the top (beside the lab); it may import every layer below.
"""

from __future__ import annotations

import contextlib
import sys


def written(name: str, what: str) -> None:
    """The line saying which file a run wrote (standard error: standard output stays the
    document, for a pipe): ``exact: wrote 'par.xlsx' (Excel par sheet)``."""
    say(f"exact: wrote {name!r} ({what})")  # whole: a path is bounded (output_name)


def say(line: str) -> None:
    """``line`` on standard error, whatever becomes of it: closed (``2>&-``), full, or of an
    encoding that cannot hold the line (the characters it lacks escaped)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        with contextlib.suppress(OSError, ValueError):
            stream.write(line.encode(encoding, "backslashreplace").decode(encoding) + "\n")
            stream.flush()
    except (OSError, ValueError):  # nowhere left to say it
        pass
