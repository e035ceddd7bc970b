"""``python -m irlib.recsys``: the recommenders' command line, :mod:`irlib.cli.recsys`."""
import sys

from irlib.cli.recsys import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":
    sys.exit(run())
