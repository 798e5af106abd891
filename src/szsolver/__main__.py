"""``python3 -m szsolver``: the same as the ``szsolver`` command."""

if __name__ == "__main__":  # pytest --doctest-modules imports this file too
    from ._entry import run
    run()
