#!/usr/bin/env python3
"""Reads the 64 clients' trace (HEALTHVAULT_BENCH_CLIENTS_TRACE: one line a call, "<end, us since
the clients began> <kind> <latency, us>") and prints, for each window of the run, the calls that
ended in it, their mean and their largest latency; then p50, p90 and p99 of the whole run, of the
run without its first seconds, and of each kind. Says whether the calls above p90 came in spells
(the whole daemon slowing) or were spread through the run.

usage: scripts/bench-trace.py TRACE [--window SECONDS] [--skip SECONDS]"""
import argparse
import collections
import sys


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("--window", type=float, default=1.0, help="seconds a window (default 1)")
    parser.add_argument("--skip", type=float, default=5.0, help="seconds left out at the start for the second figure (default 5)")
    arguments = parser.parse_args()
    calls = []
    with open(arguments.trace) as trace:
        for number, line in enumerate(trace, 1):
            fields = line.split()
            if len(fields) != 3:
                sys.exit(f"{arguments.trace}:{number}: expected '<end us> <kind> <latency us>', got {line.strip()!r}")
            calls.append((int(fields[0]) / 1e6, fields[1], int(fields[2]) / 1e3))
    if not calls:
        sys.exit(f"{arguments.trace}: no calls")
    latencies = [latency for _, _, latency in calls]
    slow = quantile(latencies, 0.9)
    windows = collections.defaultdict(list)
    for end, _, latency in calls:
        windows[int(end / arguments.window)].append(latency)
    print(f"{'window (s)':>12} {'calls':>6} {'calls/s':>8} {'mean ms':>8} {'max ms':>8} {'above p90':>9}")
    for index in sorted(windows):
        values = windows[index]
        above = sum(1 for value in values if value > slow)
        print(
            f"{index * arguments.window:>12.1f} {len(values):>6} {len(values) / arguments.window:>8.0f} "
            f"{sum(values) / len(values):>8.1f} {max(values):>8.1f} {above:>9}"
        )

    def summary(label, values):
        print(
            f"{label}: {len(values)} calls, p50 {quantile(values, 0.5):.1f} ms, "
            f"p90 {quantile(values, 0.9):.1f} ms, p99 {quantile(values, 0.99):.1f} ms"
        )

    summary("whole run", latencies)
    summary(f"after the first {arguments.skip:g} s", [lat for end, _, lat in calls if end >= arguments.skip])
    for kind in sorted({kind for _, kind, _ in calls}):
        summary(f"  {kind}", [lat for _, k, lat in calls if k == kind])
    # Spells: the share of the calls above p90 that the slowest tenth of the windows hold.
    counts = sorted((sum(1 for value in values if value > slow) for values in windows.values()), reverse=True)
    worst = counts[: max(1, len(counts) // 10)]
    total = sum(counts)
    if total:
        print(
            f"the slowest tenth of the windows hold {sum(worst) / total:.0%} of the calls above p90 "
            "(about 10% if they were spread evenly)"
        )


if __name__ == "__main__":
    main()
