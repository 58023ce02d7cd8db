"""``python -m kktheory.judge CLAIM.yaml``: :func:`kktheory.judge.judging.main`."""

import sys

from kktheory.judge.judging import main

sys.exit(main())
