"""Entry point of the bundled app: the same as the ``fieldops`` console script."""

import sys

from fieldops.cli import main

if __name__ == "__main__":
    sys.exit(main())
