"""``python -m matfuse``: the same as the ``matfuse`` command."""

import sys

from matfuse.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
