"""Time the playground's neighbour table: every drag and judgment of 8 cards, scored at once.

For the 8 cards, binary (56 moves + 8 judgments = 64 rows) and graded (56 + 32 = 88 rows),
median per call over ``--repeat`` calls, in one process:
  table      one_move_neighbours + metric_curves_batch + confusion_curves_batch +
             outcomes_at_k_batch + the lookup keys: everything the browser would look up
  neighbours one_move_neighbours + the lookup keys alone (the table's part that is no metric)
  batch      metric_curves_batch on the neighbours' grades alone
  loop       metric_curves called once per neighbour (what the batch replaces)
  page       what the playground sends for a state it has not seen yet (ui/lessons/playground/preview.py,
             uncached): the table, its tiles' numbers formatted, the caption, the JSON
  reference  one metric_curves call on the current 8 cards (what a rerun already does)
and prints each against the reference and batch against loop.
Run: ``python benchmarks/bench_neighbours.py [--repeat 2000]``.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import irlib  # noqa: E402

CARDS = {"binary": ([0, 1, 0, 1, 1, 0, 1, 0], (0, 1), "linear"),
         "graded": ([0, 4, 1, 3, 4, 1, 3, 2], tuple(range(5)), "exponential")}
K = 4


def median_seconds(fn, repeat: int) -> float:
    fn()                                            # warm-up (caches, first-call imports)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def table(grades, levels, gain):
    neighbours = irlib.one_move_neighbours(grades, levels)
    return (neighbours.keys(), irlib.metric_curves_batch(neighbours.grades, gain=gain),
            irlib.confusion_curves_batch(neighbours.grades),
            irlib.outcomes_at_k_batch(neighbours.grades, K))


def page_preview(grades, levels, gain):
    from ui.lessons.playground import session as playground, preview
    order = [str(i) for i in range(len(grades))]
    tiles = playground.tile_measures()
    charts = tuple(tuple(chart) for chart in playground.chart_measures())
    table = preview._neighbour_preview.__wrapped__(
        tuple(order), tuple(grades), tuple(levels), K, 1, gain, tuple(tiles), charts,
        playground.confusion_note)
    return preview._charts_json.__wrapped__(table, "board"), table.for_board("board")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    for mode, (grades, levels, gain) in CARDS.items():
        rows = irlib.one_move_neighbours(grades, levels).grades
        loop_repeat = max(args.repeat // 20, 20)    # the loop is ~100x a call: fewer runs
        timings = {
            "reference": median_seconds(lambda: irlib.metric_curves(grades, gain=gain),
                                        args.repeat),
            "table": median_seconds(lambda: table(grades, levels, gain), args.repeat),
            "neighbours": median_seconds(
                lambda: irlib.one_move_neighbours(grades, levels).keys(), args.repeat),
            "batch": median_seconds(lambda: irlib.metric_curves_batch(rows, gain=gain),
                                    args.repeat),
            "loop": median_seconds(lambda: [irlib.metric_curves(r, gain=gain) for r in rows],
                                   loop_repeat),
            "page": median_seconds(lambda: page_preview(grades, levels, gain), loop_repeat),
        }
        reference = timings["reference"]
        print(f"{mode}: {len(rows)} neighbours of {len(grades)} cards ({gain} gain)")
        for name, seconds in timings.items():
            print(f"  {name:10s} median {seconds * 1e6:8.1f} µs   {seconds / reference:6.1f}x "
                  "the reference")
        print(f"  batch / loop = {timings['batch'] / timings['loop']:.3f}   "
              f"table budget: {timings['table'] * 1e3:.3f} ms of 1 ms")


if __name__ == "__main__":
    main()
