"""``python3 -m szsolver``: the same as the ``szsolver`` command."""
import sys

from .cli import main

sys.exit(main())
