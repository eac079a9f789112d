import sys

from exact.cli.app import main

sys.exit(main())
