import sys

from exact.reports.build import main

sys.exit(main())
