"""``python3 -m szsolver``: the same as the ``szsolver`` command."""
import sys

from .cli import main

if __name__ == "__main__":  # pytest --doctest-modules imports this file too
    sys.exit(main())
