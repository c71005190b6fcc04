"""``python -m engine``: see :mod:`engine.cli`."""

import sys

from engine.cli import main

sys.exit(main())
