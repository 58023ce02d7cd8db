"""``python -m kktheory.reproduce``: :func:`kktheory.reproduce.cli.main`."""

import sys

from kktheory.reproduce.cli import main

sys.exit(main())
