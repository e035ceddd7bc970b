"""bench_classroom.py's printed report: one class's figures, and the playground's ratio to the
bare page's class."""
from __future__ import annotations

import os
import statistics
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchmarks.bench_classroom import ClassResult


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(result: ClassResult, processes: int, targets: bool = True) -> None:
    def ms(values, q):
        return f"{quantile(values, q) * 1000:6.0f}" if values else "     -"
    print(f"{result.sessions} sessions x {result.rounds} click rounds"
          f"{' + a drag round' if result.drag_painted or result.drag_cpu_ms else ''}"
          f" on {processes} process(es)")
    print("                      p50 ms  p95 ms   (event -> ...)")
    print(f"click -> numbers      {ms(result.click_painted, .5)}  {ms(result.click_painted, .95)}")
    print(f"click -> last change  {ms(result.click_last, .5)}  {ms(result.click_last, .95)}")
    if result.drag_cpu_ms is not None:
        print(f"drag  -> numbers      {ms(result.drag_painted, .5)}  {ms(result.drag_painted, .95)}")
        print(f"drag  -> last change  {ms(result.drag_last, .5)}  {ms(result.drag_last, .95)}"
              f"   (drops released within {result.drop_spread_ms:.0f} ms)")
    if result.click_cpu_ms:
        print(f"server CPU per badge click: median {statistics.median(result.click_cpu_ms):.2f} ms "
              f"(rounds: {', '.join(f'{v:.1f}' for v in result.click_cpu_ms)})")
        print(f"  less the idle server's {result.idle_ms_per_s:.1f} ms/s over each round: median "
              f"{statistics.median(result.click_busy_ms):.2f} ms "
              f"(rounds: {', '.join(f'{v:.1f}' for v in result.click_busy_ms)})")
    if result.drag_cpu_ms is not None:
        print(f"server CPU per drag: {result.drag_cpu_ms:.1f} ms")
    spread = {name: result.server_of_session.count(name) for name in sorted(set(result.server_of_session))}
    print(f"sessions per process: {spread}")
    print(f"errors: {len(result.errors)}   sessions whose address bar is not their own: "
          f"{len(result.wrong_state)}")
    for line in (result.errors + result.wrong_state)[:10]:
        print("  ", line)
    if targets and result.click_last:
        p95 = quantile(result.click_last, .95)
        cpu = statistics.median(result.click_cpu_ms)
        print(f"targets: click p95 {p95 * 1000:.0f} ms (<= 1000: {'met' if p95 <= 1 else 'NOT met'}), "
              f"CPU {cpu:.1f} ms per click (<= 8: {'met' if cpu <= 8 else 'NOT met'})")


def report_ratio(result: ClassResult, reference: ClassResult) -> None:
    if result.click_last and reference.click_last:
        median = statistics.median
        print(f"playground / reference: click -> last change p95 "
              f"{quantile(result.click_last, .95) / quantile(reference.click_last, .95):.2f}x, "
              f"server CPU {median(result.click_cpu_ms) / median(reference.click_cpu_ms):.2f}x "
              f"(less idle CPU: {median(result.click_busy_ms) / median(reference.click_busy_ms):.2f}x)")


def report_classes(result: ClassResult, reference: ClassResult | None, processes: int,
                   order: str, load_at_start: float, targets: bool = True) -> None:
    """The playground's class, the bare page's (if it ran), their ratio and the machine's load."""
    report(result, processes, targets=targets)
    if reference is not None:
        print("\nReference, the same class on a bare st.toggle page (Streamlit's floor per rerun):")
        report(reference, 1, targets=False)
        report_ratio(result, reference)
    print(f"order: {order}; load average (1 min) {load_at_start:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end")
