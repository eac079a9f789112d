"""``python -m exact``: the command line (:func:`exact.cli.app.main`).

Layer: outside the layers, the entry point above them all.
"""

import sys

from exact.cli import main

sys.exit(main())
