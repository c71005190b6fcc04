"""``python -m scoring check FILE`` and ``python -m scoring generate``: see docs/formats.md."""

import sys

from scoring.cli import main

sys.exit(main())
