"""``python -m irlib``: the trec_eval drop-in. The command line is :mod:`irlib.cli.trec_eval`."""
import sys

from irlib.cli.trec_eval import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":
    sys.exit(run())
