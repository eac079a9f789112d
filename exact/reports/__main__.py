"""``python -m exact.reports``: build the PDF reports (:func:`exact.reports.build.main`).

Layer: reports, above rendering; only the command line and the lab sit above it.
"""

import sys

from exact.reports.build import main

sys.exit(main())
