"""The ``szsolver`` command line: :data:`main` is the entry point."""
from .app import main

__all__ = ["main"]
