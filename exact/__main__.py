import sys

from exact.cli import main

sys.exit(main())
